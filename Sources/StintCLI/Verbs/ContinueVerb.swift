import StintCore

/// `stint continue`.
struct ContinueVerb: Verb {
    static let spec = VerbSpec(
        path: ["continue"],
        abstract: "Start a new timer with the tag and comment of a record (by default, the one that ended last).",
        arguments: [
            ArgumentSpec(
                name: "RECORD_ID", help: "The record to continue (default: the one with the latest end).",
                arity: .optional)
        ],
        options: [
            .value("at", "TIME", "When the new timer started (default: now)."),
            .flag("switch", "Stop every running timer first."),
            SharedOptions.force,
        ],
        discussion: """
            Without an id, continues the record that ended most recently by its end time — not the one
            added last (Watson's restart resumes the last inserted frame, which surprises its users).
            """,
        examples: [
            ("stint continue", "Resumes the work that ended last."), ("stint continue 3f2a", "Resumes record 3f2a…."),
        ]
    )
    .changingLog()

    let reference: String?
    let at: String?
    let switching: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals.first
        at = arguments.value("at")
        switching = arguments.flag("switch")
        force = arguments.force
    }

    func run(_ context: CommandContext) throws(CLIError) {
        var alreadyRunning: [Record] = []
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            alreadyRunning = state.runningRecords
            return .continue(
                record: try reference.map { (text) throws(CLIError) in try context.recordRef(text) },
                at: try at.map { (text) throws(CLIError) in
                    try context.parsedTime(text, calendar: state.calendar, option: "--at")
                }, switching: switching, force: force)
        }
        guard case .continued(let record, let from, let stopped) = result.decision.outcome else { return }
        let format = TextFormat(calendar: state.calendar)
        for timer in stopped {
            context.notice("Stopped \(format.recordLine(timer, tags: state.tags, now: result.now))")
        }
        context.notice(
            "Continuing \(format.confirmation(record, tags: state.tags)) from record \(TextFormat.short(from.id))")
        let twins = alreadyRunning.filter { running in
            running.tagId == record.tagId && running.comment == record.comment
                && !stopped.contains { $0.id == running.id }
        }
        for twin in twins {
            context.notice(
                "note: \(format.tagName(twin.tagId, tags: state.tags)) was already running as \(TextFormat.short(twin.id));"
                    + " two timers now run ('stint cancel \(TextFormat.short(record.id))' drops the new one)")
        }
        if context.globals.json {
            context.printJSON(.object(["recordId": .string(record.id.uuidString)]))
        } else {
            context.print(record.id.uuidString)
        }
    }
}

/// `stint cancel`.
struct CancelVerb: Verb {
    static let spec = VerbSpec(
        path: ["cancel"],
        abstract: "Drop a running timer as if it never ran ('stint undo' brings it back).",
        arguments: [
            ArgumentSpec(
                name: "RECORD_ID", help: "The running record (needed when several run).", arity: .optional,
                completion: .runningRecords)
        ],
        examples: [("stint cancel", "Drops the running timer.")]
    )
    .changingLog()

    let reference: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals.first
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (_, context) throws(CLIError) in
            .cancel(record: try reference.map { (text) throws(CLIError) in try context.recordRef(text) })
        }
        guard case .canceled(let record) = result.decision.outcome else { return }
        if context.globals.json {
            context.printJSON(.object(["canceled": TextFormat.json(record, tags: state.tags)]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice("Canceled " + format.recordLine(record, tags: state.tags, now: result.now))
        }
    }
}

/// `stint split`.
struct SplitVerb: Verb {
    static let spec = VerbSpec(
        path: ["split"],
        abstract: "Cut a record in two at a time inside it (same tag and comment).",
        arguments: [ArgumentSpec(name: "RECORD_ID", help: "The record's id or a unique prefix.")],
        options: [OptionSpec.value("at", "TIME", "Where to cut (strictly inside the record).").required()],
        discussion:
            "The later part keeps the record's id (so a running timer keeps running); the earlier part gets a new one.",
        examples: [("stint split 3f2a --at 12:00", "Makes 09:00–12:00 and 12:00–17:00 of 09:00–17:00.")]
    )
    .changingLog()

    let reference: String
    let at: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals[0]
        at = arguments.value("at") ?? ""
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            let ref = try context.recordRef(reference)
            // A bare HH:MM names a time on the record's own day: the first of its days where the time is inside it.
            let calendar = state.calendar
            var day: CivilDate?
            let matching = state.records(matching: ref)
            if matching.count == 1, let record = matching.first {
                let end = record.end ?? context.now
                let days = [calendar.date(of: record.start), calendar.date(of: end)]
                day =
                    days.first { date in
                        guard let inside = try? TimeArgument.parse(at, now: context.now, calendar: calendar, day: date)
                        else { return false }
                        return inside.instant > record.start && inside.instant < end
                    } ?? days[0]
            }
            return .split(record: ref, at: try context.parsedTime(at, calendar: calendar, option: "--at", day: day))
        }
        guard case .split(let earlier, let later) = result.decision.outcome else { return }
        if context.globals.json {
            context.printJSON(
                .object([
                    "earlier": TextFormat.json(earlier, tags: state.tags),
                    "later": TextFormat.json(later, tags: state.tags),
                ]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice("Split \(TextFormat.short(later.id)) at \(format.time(later.start)):")
            context.notice("  " + format.recordLine(earlier, tags: state.tags, now: result.now))
            context.notice("  " + format.recordLine(later, tags: state.tags, now: result.now))
            // The earlier part is the record the split created.
            context.print(earlier.id.uuidString)
        }
    }
}

/// `stint join`.
struct JoinVerb: Verb {
    static let spec = VerbSpec(
        path: ["join"],
        abstract: "Make one record of two adjacent records with the same tag and comment.",
        arguments: [
            ArgumentSpec(name: "RECORD_ID", help: "The first record."),
            ArgumentSpec(name: "RECORD_ID", help: "The second record (touching or overlapping the first)."),
        ],
        options: [SharedOptions.force],
        examples: [("stint join 3f2a 9b0c", "Joins 09:00–12:00 and 12:00–17:00 into 09:00–17:00.")]
    )
    .changingLog()

    let first: String
    let second: String
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        first = arguments.positionals[0]
        second = arguments.positionals[1]
        force = arguments.force
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (_, context) throws(CLIError) in
            .join(first: try context.recordRef(first), second: try context.recordRef(second), force: force)
        }
        guard case .joined(let record, let removed) = result.decision.outcome else { return }
        if context.globals.json {
            context.printJSON(
                .object([
                    "record": TextFormat.json(record, tags: state.tags), "removed": .string(removed.id.uuidString),
                ]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice(
                "Joined \(TextFormat.short(removed.id)) into "
                    + format.recordLine(record, tags: state.tags, now: result.now))
        }
    }
}
