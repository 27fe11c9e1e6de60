import StintCore

/// `stint delete`.
struct DeleteVerb: Verb {
    static let spec = VerbSpec(
        path: ["delete"],
        abstract: "Delete a record (running or completed); 'stint undo' brings it back.",
        arguments: [ArgumentSpec(name: "RECORD_ID", help: "The record's id or a unique prefix (4+ hex digits).")],
        examples: [("stint delete 3f2a", "Deletes record 3f2a….")]
    )
    .changingLog()

    let reference: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (_, context) throws(CLIError) in
            .delete(record: try context.recordRef(reference))
        }
        guard case .deleted(let record) = result.decision.outcome else { return }
        if context.globals.json {
            context.printJSON(.object(["deleted": TextFormat.json(record, tags: state.tags)]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice("Deleted " + format.recordLine(record, tags: state.tags, now: result.now))
        }
    }
}
