import StintCore
import StintEngine

/// `stint export csv`, `stint export json` and `stint export timewarrior`.
struct ExportVerb: Sendable {
    enum Format: String, Sendable {
        case csv, json, timewarrior
    }

    static let options: [OptionSpec] = [
        .value("since", "TIME", "Only records that start at TIME or later (a date alone means its midnight)."),
        .value("until", "TIME", "Only records that start before TIME."),
    ]

    let format: Format
    let since: String?
    let until: String?

    init(_ format: Format, _ arguments: ParsedArguments) {
        self.format = format
        since = arguments.value("since")
        until = arguments.value("until")
    }

    func run(_ context: CommandContext) throws(CLIError) {
        guard format != .timewarrior else { return try runTimewarrior(context) }
        // JSON and CSV stream: one record at a time from the log, one row at a time to standard output.
        let stream = try context.recordStream()
        defer { stream.close() }
        let (from, to) = try range(calendar: stream.calendar, context)
        let frame = RecordExport.Frame(
            calendar: stream.calendar, now: stream.now, since: from, until: to, tags: stream.tags)
        switch format {
        case .json:
            context.write(bytes: frame.jsonHead)
            var first = true
            try streamRows(stream, frame) { row in
                if !first { context.write(bytes: [0x2C]) }
                first = false
                context.write(bytes: frame.json(row))
            }
            context.write(bytes: frame.jsonTail)
        default:
            context.write(CSV.line(ExportVerb.csvColumns))
            try streamRows(stream, frame) { row in context.write(CSV.line(ExportVerb.csvFields(row, frame))) }
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
        let from = try since.map { (text) throws(CLIError) in
            try context.parseTime(text, calendar: calendar, option: "--since")
        }
        let to = try until.map { (text) throws(CLIError) in
            try context.parseTime(text, calendar: calendar, option: "--until")
        }
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

/// `stint export csv`.
struct ExportCSVVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "csv"],
        abstract: "Print the records as CSV (RFC 4180), one row per record, oldest first.",
        options: ExportVerb.options,
        discussion: """
            Columns: id, start, end, start_utc, end_utc, duration_seconds, tag, comment, running. start and end
            are local times in the log's time zone with their UTC offset (2026-11-01T01:30:00-04:00), which keeps
            the repeated hour of a DST change apart; start_utc and end_utc are UTC instants with milliseconds.
            A running record has empty end fields, running = true, and its duration up to now. Fields with a
            comma, a double quote or a line break are quoted, double quotes doubled; comments keep their line
            breaks. Lines end in CRLF. Records of a deleted tag have an empty tag, as in reports.
            """,
        examples: [
            ("stint export csv > stint.csv", "Everything, for a spreadsheet."),
            ("stint export csv --since 2026-11-01 --until 2026-12-01", "November's records."),
        ]
    )
    .noJSON(
        "it prints CSV; for JSON use 'stint export json'")

    let export: ExportVerb

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportVerb(.csv, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}

/// `stint export json`.
struct ExportJSONVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "json"],
        abstract: "Print the records and tags as one JSON document.",
        options: ExportVerb.options,
        discussion: """
            {"format":"stint-export","version":1,"timeZone":…,"firstWeekday":…,"now":…,"records":[…],"tags":[…]}
            in canonical JSON (no spaces, members in a fixed order). A record has the CSV's values: id, start,
            end (local, with offset), startUtc, endUtc, durationSeconds, tagId, tag, comment, running; absent
            values are left out. Every tag of the log is listed with its id, name and color, archived and
            deleted ones marked.
            """,
        examples: [("stint export json | jq '.records | length'", "Counts the records.")]
    )

    let export: ExportVerb

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportVerb(.json, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}

/// `stint export timewarrior`.
struct ExportTimewarriorVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "timewarrior"],
        abstract: "Print the records in the format of `timew export`.",
        options: ExportVerb.options,
        discussion: """
            Each record becomes an interval: its tag first in "tags", followed by the names of its comment's
            last line when that is a "Tags: …" line as 'stint import' writes it; the rest of the comment is the
            annotation. An untagged record keeps its whole comment as the annotation. Times are cut to the
            second (Timewarrior keeps whole seconds); notes on standard error say which records that, overlaps
            or several running timers concern. 'stint import timewarrior' reads the result back into the same
            records (in a log that does not have them yet: the ids are derived from the starts).
            """,
        examples: [("stint export timewarrior > timew.json", "Everything, for Timewarrior.")]
    )

    let export: ExportVerb

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportVerb(.timewarrior, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}
