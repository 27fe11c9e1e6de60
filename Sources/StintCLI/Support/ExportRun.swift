import StintCore
import StintEngine

/// `stint export csv`, `stint export json` and `stint export timewarrior`.
struct ExportRun: Sendable {
    enum Format: String, Sendable {
        case csv, json, timewarrior
    }

    static let since = Option(
        "since", "TIME", "Only records that start at TIME or later (a date alone means its midnight).")
    static let until = Option("until", "TIME", "Only records that start before TIME.")
    static let options: [any OptionDeclaration] = [since, until]

    let format: Format
    let since: String?
    let until: String?

    init(_ format: Format, _ arguments: ParsedArguments) {
        self.format = format
        since = arguments[Self.since]
        until = arguments[Self.until]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        guard format != .timewarrior else { return try runTimewarrior(context) }
        // JSON and CSV stream: one record at a time from the log, one row at a time to standard output.
        let stream = try context.recordStream()
        defer { stream.close() }
        let (from, to) = try range(calendar: stream.calendar, context)
        let frame = RecordExport.Frame(
            calendar: stream.calendar, now: stream.now, since: from, until: to, tags: stream.tags)
        // Each row's bytes go straight into one reused buffer, written out in blocks of 64 KiB (and what it
        // holds when reading fails part way, as when every row was written at once).
        var writer = RecordExport.RowWriter(frame)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(ExportRun.block + 1024)
        defer { Self.flush(&buffer, context) }
        switch format {
        case .json:
            buffer.append(contentsOf: frame.jsonHead)
            var first = true
            try streamRows(stream, frame) { row in
                if !first { buffer.append(0x2C) }
                first = false
                writer.appendJSON(row, to: &buffer)
                if buffer.count >= ExportRun.block { Self.flush(&buffer, context) }
            }
            buffer.append(contentsOf: frame.jsonTail)
        default:
            buffer.append(contentsOf: Array(CSV.line(ExportRun.csvColumns).utf8))
            try streamRows(stream, frame) { row in
                ExportRun.appendCSV(row, &writer, to: &buffer)
                if buffer.count >= ExportRun.block { Self.flush(&buffer, context) }
            }
        }
    }

    private func streamRows(
        _ stream: RecordStream, _ frame: RecordExport.Frame, _ body: (RecordExport.Row) -> Void
    ) throws(CLIError) {
        do {
            try stream.forEach(startingFrom: frame.since, before: frame.until) { record in
                body(RecordExport.Row(record, tags: frame.tags, now: frame.now))
            }
        } catch {
            throw CLIError(error)
        }
    }

    private func runTimewarrior(_ context: CommandContext) throws(CLIError) {
        let view = try context.recordsView(.latest)
        let (from, to) = try range(calendar: view.calendar, context)
        let output = RecordExport(source: view.source, since: from, until: to, now: view.now).timewarrior()
        context.write(output.text)
        notes(output, context)
    }

    /// `--since` and `--until` in the log's calendar.
    private func range(calendar: LogCalendar, _ context: CommandContext) throws(CLIError) -> (Instant?, Instant?) {
        let (from, to) = try context.sinceUntil(since, until, calendar: calendar)
        if let from, let to, to <= from {
            throw CLIError.usage("--until must be after --since", verb: "export \(format.rawValue)")
        }
        return (from, to)
    }

    /// The header of the CSV export.
    static let csvColumns = [
        "id", "start", "end", "start_utc", "end_utc", "duration_seconds", "tag", "comment", "running",
    ]

    /// A row's CSV fields (RFC 4180, see ``CSV``): the id; start and end in the log's zone with their offset;
    /// start and end in UTC; the duration in seconds (a running record's up to now); the tag's name (empty
    /// when untagged); the comment, line breaks kept; `true` for a running record, whose end fields are
    /// empty. Nothing is altered to please spreadsheets: a comment starting with `=` stays as it is.
    static func csvFields(_ row: RecordExport.Row, _ frame: RecordExport.Frame) -> [String] {
        let record = row.record
        return [
            record.id.uuidString, frame.local(record.start), record.end.map(frame.local) ?? "",
            record.start.iso8601, record.end?.iso8601 ?? "", RecordExport.seconds(row.milliseconds),
            row.tag?.name ?? "", record.comment ?? "", record.isRunning ? "true" : "false",
        ]
    }

    /// What Timewarrior cannot hold as Stint does, on standard error.
    private func notes(_ output: RecordExport.TimewarriorOutput, _ context: CommandContext) {
        func note(_ ids: [EntityID], _ one: String, _ many: String, _ rest: String) {
            guard !ids.isEmpty else { return }
            let shown = ids.prefix(5).map(TextFormat.short).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            let records = ids.count == 1 ? "record" : "records"
            context.notice("note: \(ids.count) \(records) (\(shown)) \(ids.count == 1 ? one : many) \(rest)")
        }
        note(
            output.cutToSeconds, "has", "have",
            "times with milliseconds, cut to the second: Timewarrior keeps whole seconds")
        note(output.emptyAfterCut, "was", "were", "shorter than a second and became empty")
        note(
            output.overlapping, "starts", "start",
            "before an earlier one ends: Timewarrior keeps intervals apart and may refuse them")
        if output.running.count > 1 {
            note(output.running, "run", "run", "at once: Timewarrior has one open interval at most")
        }
    }
}
