import StintCore

/// `stint continue`.
struct ContinueVerb: Verb {
    static let at = Option("at", "TIME", "When the new timer started (default: now).")
    static let switching = Flag("switch", "Stop every running timer first.")

    static let spec = VerbSpec(
        path: ["continue"],
        abstract: "Start a new timer with the tag and comment of a record (by default, the one that ended last).",
        arguments: [
            ArgumentSpec(
                name: "RECORD_ID", help: "The record to continue (default: the one with the latest end).",
                arity: .optional)
        ],
        options: [at, switching, SharedOptions.force],
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
        at = arguments[Self.at]
        switching = arguments[Self.switching]
        force = arguments[SharedOptions.force]
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
