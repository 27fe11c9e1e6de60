import StintCore

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
