import StintCore

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
        force = arguments[SharedOptions.force]
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
