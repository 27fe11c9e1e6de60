import StintCore
import StintEngine

/// `stint diff`.
struct DiffVerb: Verb {
    static let from = Option(
        "from", "POINT", "The earlier point: a time (as --at takes it), or seq:N / N for the log after event N."
    ).required()
    static let to = Option("to", "POINT", "The later point, in the same forms (default: the whole log, now).")

    static let spec = VerbSpec(
        path: ["diff"],
        abstract: "What changed between two points of the log: the events, the records, the totals, the timers.",
        options: [from, to],
        discussion: """
            A POINT is either a seq or a time. 'seq:N' or a bare whole number N (digits only) is the log after
            its first N events, as of the time event N was recorded (like --seq N). Anything else is a time in
            the forms of --at (2026-11-24, 2026-11-24T09:00, yesterday 17:00, 3d ago, an instant with Z or an
            offset): the events recorded at or before it, with that time as now. Every time form has a
            letter, a colon or a dash, so the two never collide.

            Prints the events recorded between the two points (as 'stint history' lists them), then how the
            projections changed from the first point to the second: records added, changed (before → after)
            and removed; today's total and record count; the daily totals of the widget snapshot by day and
            tag, each side computed at its own point's time (so a day can also enter or leave the summary
            window); recent tags; the running timers started and stopped; and the Live Activity action that
            takes it from the first point's content to the second's. Unchanged totals are not listed.

            --json prints {"from", "to", "events", "records": {"added", "changed": [{"before", "after"}],
            "removed"}, "today", "dailyTotals", "recentTags", "runningTimers", "liveActivity"}, with events as
            stored and records as 'stint log --json' writes them.
            """,
        examples: [
            ("stint diff --from seq:120 --to seq:140", "What events 121…140 did."),
            ("stint diff --from \"yesterday 17:00\"", "Everything that changed since yesterday evening."),
            ("stint diff --from 2026-11-23 --to 2026-11-30 --json", "One week's changes as JSON."),
        ]
    )

    let from: String
    let to: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let from = arguments[Self.from] else {
            throw CLIError.usage("diff needs --from POINT (a time, or seq:N)", verb: Self.spec.name)
        }
        self.from = from
        to = arguments[Self.to]
        _ = try DiffVerb.seq(from, option: "--from")
        if let to { _ = try DiffVerb.seq(to, option: "--to") }
    }

    /// The seq a POINT names, or nil when it is a time.
    static func seq(_ text: String, option: String) throws(CLIError) -> Int64? {
        let trimmed = text.trimmingSpaces
        var digits = Substring(trimmed)
        if trimmed.lowercased().hasPrefix("seq:") {
            digits = trimmed.dropFirst(4)
        } else {
            let unsigned = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : Substring(trimmed)
            guard !unsigned.isEmpty, unsigned.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let seq = Int64(digits), seq >= 1 else {
            throw CLIError.usage(
                "\(option) takes seq:N or N with a whole number N ≥ 1 (the first event is seq 1), or a time; "
                    + "not '\(text)'", verb: spec.name)
        }
        return seq
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let reader = try context.reader()
        guard !reader.isReplica else {
            // Its events between two points are a range of seqs of one log; a space's are not (yet).
            throw CLIError.refused(
                "diff does not compare two points of a space's merged history yet; compare 'stint snapshot --at A' "
                    + "with 'stint snapshot --at B', and list the changes with 'stint history --since A --until B'")
        }
        let calendar = try context.settings(of: reader).calendar
        let before = try load(from, option: "--from", reader: reader, calendar: calendar, context: context)
        let after: LogView
        if let to {
            after = try load(to, option: "--to", reader: reader, calendar: calendar, context: context)
        } else {
            after = try context.view(at: .latest, of: reader)
        }
        guard before.state.lastSeq <= after.state.lastSeq, before.now <= after.now else {
            throw CLIError.usage(
                "--from (seq \(before.state.lastSeq), \(before.now.iso8601)) is after --to (seq "
                    + "\(after.state.lastSeq), \(after.now.iso8601)); swap them", verb: Self.spec.name)
        }
        let events = try eventsBetween(before.state.lastSeq, after.state.lastSeq, reader: reader)
        let diff = StateDiff(before: before, after: after, events: events)
        if context.globals.json {
            context.printJSON(diff.json)
        } else {
            for line in diff.lines() { context.print(line) }
        }
    }

    func load(
        _ text: String, option: String, reader: LogSource, calendar: LogCalendar, context: CommandContext
    ) throws(CLIError) -> LogView {
        if let seq = try DiffVerb.seq(text, option: option) {
            return try context.view(at: context.resolve(.seq(seq), of: reader), of: reader)
        }
        return try context.view(at: .at(context.parsePoint(text, calendar: calendar, option: option)), of: reader)
    }

    /// Events `first + 1 … last`.
    func eventsBetween(_ first: Int64, _ last: Int64, reader: LogSource) throws(CLIError) -> [RecordedEvent] {
        guard last > first else { return [] }
        var events: [RecordedEvent] = []
        do {
            let cursor = try reader.events(from: first + 1)
            while let event = try cursor.next(), event.seq <= last { events.append(event) }
        } catch {
            throw CLIError(error)
        }
        return events
    }
}
