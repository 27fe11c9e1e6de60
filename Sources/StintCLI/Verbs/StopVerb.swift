import StintCore

/// `stint stop`.
struct StopVerb: Verb {
    static let all = Flag("all", "Stop every running timer.")
    static let at = Option("at", "TIME", "When the timers stopped (default: now).")

    static let spec = VerbSpec(
        path: ["stop"],
        abstract: "Stop the running timer, the given ones, or all of them.",
        arguments: [
            ArgumentSpec(
                name: "RECORD_ID", help: "A running record's id or a unique prefix (4+ hex digits).",
                arity: .zeroOrMore, completion: .runningRecords)
        ],
        options: [all, at, SharedOptions.force],
        discussion: TimeHelp.text + """


            Without an id, stops the one running timer; with several running, name them or use --all. An id
            that is no longer running is skipped with a notice (exit 0).
            """,
        examples: [
            ("stint stop", "Stops the running timer."),
            ("stint stop 3f2a --at 17:45", "Stops record 3f2a… at 17:45."),
            ("stint stop --all", "Stops every running timer."),
        ]
    )
    .changingLog()

    let references: [String]
    let all: Bool
    let at: String?
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        references = arguments.positionals
        all = arguments[Self.all]
        at = arguments[Self.at]
        force = arguments[SharedOptions.force]
        if all, !references.isEmpty {
            throw CLIError.usage("give RECORD_IDs or --all, not both", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            var refs: [RecordRef] = []
            for text in references { refs.append(try context.recordRef(text)) }
            return .stop(
                records: refs, all: all,
                at: try at.map { (text) throws(CLIError) in
                    try context.parsedTime(text, calendar: state.calendar, option: "--at")
                }, force: force)
        }
        guard case .stopped(let records) = result.decision.outcome else { return }
        let format = TextFormat(calendar: state.calendar)
        if context.globals.json {
            context.printJSON(
                .object(["stopped": .array(records.map { TextFormat.json($0, tags: state.tags) })]))
        } else {
            for record in records {
                context.notice("Stopped " + format.recordLine(record, tags: state.tags, now: result.now))
            }
        }
    }
}
