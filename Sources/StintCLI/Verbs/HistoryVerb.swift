import StintCore
import StintEngine

/// `stint history`.
struct HistoryVerb: Verb {
    static let since = Option("since", "TIME", "Only events recorded at or after TIME.")
    static let until = Option("until", "TIME", "Only events recorded before TIME.")
    static let record = Option("record", "ID", "Only events about this record (an id or a unique prefix).")
    static let tag = Option("tag", "NAME", "Only events about this tag or its records.").withCompletion(.tags)
    static let type = Option("type", "TYPE", "Only events of this type (timer.started) or family (timer).")

    static let spec = VerbSpec(
        path: ["history"],
        abstract: "The audit listing: every event with its seq, recorded time, type and what it did.",
        options: [since, until, record, tag, type],
        discussion: """
            Events are grouped by batch (one command, appended atomically), each under a line that says which
            command made it, as typed: "batch 8: split of 268af4c3 at 10:30", "batch 12: undo of "edit 1870c29f
            --start 08:45" (seq 10)", so the audit of a record a split or a join made leads back to the
            original. The command is read from the batch's events (the log keeps events, not command lines):
            start and continue both read as start. Edits and deletes show the record before and after. Times
            are the log's local times. With --json, prints the matching events as they are stored (JSON Lines).
            """,
        examples: [
            ("stint history", "Every event."), ("stint history --record 3f2a", "How record 3f2a… came to be."),
            ("stint history --since \"1d ago\" --type record", "Yesterday's edits, tracks and deletes."),
        ]
    )

    let since: String?
    let until: String?
    let record: String?
    let tag: String?
    let type: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        since = arguments[Self.since]
        until = arguments[Self.until]
        record = arguments[Self.record]
        tag = arguments[Self.tag]
        type = arguments[Self.type]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let reader = try context.reader()
        let calendar = try context.settings(of: reader).calendar
        let (start, end) = try context.sinceUntil(since, until, calendar: calendar)
        let reference = try record.map { (text) throws(CLIError) in try context.recordRef(text) }
        let format = TextFormat(calendar: calendar)
        var state: LogState?
        // In a space, batches are told apart by device: each has its own tx numbers (batch labels and event
        // numbers then read `<device>:<tx>` and `<device>:<seq>`).
        let isReplica = reader.isReplica
        var merged: MergedFold?
        var batchKeys: [String: Int64] = [:]
        var batchLabels: [Int64: String] = [:]
        func key(of event: RecordedEvent) -> Int64 {
            guard isReplica else { return event.batchStart }
            let name = "\((event.device ?? cursor.device)?.short ?? ""):\(event.batchStart)"
            if let key = batchKeys[name] { return key }
            let key = Int64(batchKeys.count + 1)
            batchKeys[name] = key
            batchLabels[key] = name
            return key
        }
        // With --tag, matching waits for the end: a tag may carry the name only after a rename.
        var named = Set<EntityID>()
        var pending: [(tags: Set<EntityID>, text: String, tx: Int64, header: String)] = []
        // A batch's lines wait for its last event: its header says which command made it.
        var batch = Batch()
        var descriptions = BatchDescription(format: format)
        let cursor: EventCursor
        do {
            cursor = try reader.events(from: 1)
        } catch {
            throw CLIError(error)
        }
        var shown = 0
        var lastHeader: Int64?
        let progress = Progress.start(
            "Reading the history", total: reader.lastSeq(), unit: "events", context: context)
        defer { progress.finish() }
        func flush(after: AuditState?) {
            guard let tx = batch.tx else { return }
            let header = descriptions.describe(batch.events, at: batch.at, before: batch.before, after: after)
            descriptions.earlier[tx] = header
            let headerLine = "batch \(batchLabels[tx] ?? "\(tx)"): \(header)\n"
            for line in batch.lines {
                if tag != nil {
                    pending.append((line.tags, line.text, tx, headerLine))
                    continue
                }
                // The progress line goes before the first line of output, so the two never share a line.
                progress.finish()
                shown += 1
                if !context.globals.json, lastHeader != tx {
                    context.write(headerLine)
                    lastHeader = tx
                }
                context.write(line.text)
            }
            batch = Batch()
        }
        while true {
            let event: RecordedEvent
            do {
                guard let next = try cursor.next() else { break }
                event = next
            } catch {
                throw CLIError(error)
            }
            progress.update(completed: event.seq)
            if batch.tx != key(of: event) {
                flush(after: state.map { AuditState($0) })
                batch = Batch(tx: key(of: event), at: event.at, before: state.map { AuditState($0) })
            }
            let domain: DomainEvent
            let before: AuditState?
            do {
                domain = try DomainEvent(event)
                before = state.map { AuditState($0, naming: [domain]) }
                if let state { batch.before?.take(domain, from: state) }
                if isReplica {
                    // A space folds by the merged rules (a second stop of a timer is a no-op there, not damage).
                    state = nil
                    try MergedFold.fold(event, into: &merged)
                    // Read after every event: kept up as the fold goes, not rebuilt each time.
                    merged!.keepRecordsByID()
                    state = merged!.state
                } else if state == nil {
                    state = try LogState(genesis: event)
                } else {
                    try state!.apply(event)
                }
            } catch {
                throw CLIError(error)
            }
            batch.events.append(domain)
            if let tag, domain.type == .tagCreated || domain.type == .tagRenamed {
                let key = tag.lowercased()
                named.formUnion((state?.tags.values ?? [:].values).filter { $0.name.lowercased() == key }.map(\.id))
            }
            if let start, event.at < start { continue }
            if let end, event.at >= end { continue }
            if let type, event.type != type, !event.type.hasPrefix(type + ".") { continue }
            let touched = HistoryVerb.touched(domain, before: before)
            if let reference, !touched.records.contains(where: reference.matches) { continue }
            var text: String
            if context.globals.json {
                text = String(decoding: event.encodedLine(), as: UTF8.self) + "\n"
            } else {
                let summary = EventSummary(format: format, tags: before?.tags ?? state?.tags ?? [:])
                let number =
                    isReplica
                    ? "\((event.device ?? cursor.device)?.short ?? ""):\(event.seq)".leftPadded(14)
                    : String(event.seq).leftPadded(6)
                text = "\(number)  \(format.dateTime(event.at))  \(event.type.padding(15))  "
                text += summary.describe(domain) + "\n"
                let after = state.map { AuditState($0, naming: [domain]) }
                for detail in HistoryVerb.beforeAndAfter(domain, before: before, after: after, format: format) {
                    text += String(repeating: " ", count: 8) + detail + "\n"
                }
            }
            batch.lines.append((touched.tags, text))
        }
        flush(after: state.map { AuditState($0) })
        progress.finish()
        for entry in pending where !entry.tags.isDisjoint(with: named) {
            shown += 1
            if !context.globals.json, lastHeader != entry.tx {
                context.write(entry.header)
                lastHeader = entry.tx
            }
            context.write(entry.text)
        }
        if let warning = cursor.warning {
            context.warn("the log is damaged after the events shown: \(warning)")
        }
        if shown == 0, !context.globals.json { context.print("No events match.") }
    }

    /// The events of one batch read so far, and the lines of those that match.
    struct Batch {
        var tx: Int64?
        var at = Instant(milliseconds: 0)
        /// The state before the batch, with the records its events name as they were.
        var before: AuditState?
        var events: [DomainEvent] = []
        var lines: [(tags: Set<EntityID>, text: String)] = []
    }

    /// The records and tags an event is about (for a record event, its tag before and after too).
    static func touched(_ event: DomainEvent, before: AuditState?) -> (records: [EntityID], tags: Set<EntityID>) {
        func recordTags(_ id: EntityID, _ tag: EntityID?) -> Set<EntityID> {
            Set([tag, before?.records[id]?.tagId].compactMap { $0 })
        }
        switch event {
        case .logCreated, .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return ([], [])
        case .tagCreated(let id, _, _), .tagRenamed(let id, _), .tagArchived(let id), .tagUnarchived(let id),
            .tagDeleted(let id), .tagRestored(let id):
            return ([], [id])
        case .timerStarted(let id, _, let tag, _), .recordTracked(let id, _, _, let tag, _):
            return ([id], recordTags(id, tag))
        case .timerStopped(let id, _), .timerCanceled(let id), .recordDeleted(let id):
            return ([id], recordTags(id, nil))
        case .recordEdited(let record, _), .recordRestored(let record), .recordImported(let record, _),
            .recordReimported(let record, _):
            return ([record.id], recordTags(record.id, record.tagId))
        case .recordUnimported(let id):
            return ([id], recordTags(id, nil))
        }
    }

    /// `was …` / `now …` lines for events that change an existing record.
    static func beforeAndAfter(
        _ event: DomainEvent, before: AuditState?, after: AuditState?, format: TextFormat
    ) -> [String] {
        let id: EntityID
        switch event {
        case .recordEdited(let record, _), .recordReimported(let record, _): id = record.id
        case .timerStopped(let recordId, _), .recordDeleted(let recordId), .timerCanceled(let recordId),
            .recordUnimported(let recordId):
            id = recordId
        default: return []
        }
        guard let old = before?.records[id] else { return [] }
        let now = after?.lastAt ?? old.start
        var lines = ["was  " + format.recordLine(old, tags: before?.tags ?? [:], now: now)]
        if let new = after?.records[id] {
            lines.append("now  " + format.recordLine(new, tags: after?.tags ?? [:], now: now))
        } else {
            lines.append("now  (deleted)")
        }
        return lines
    }
}
