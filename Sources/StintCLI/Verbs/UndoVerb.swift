import StintCore
import StintEngine

/// `stint undo`.
struct UndoVerb: Verb {
    static let spec = VerbSpec(
        path: ["undo"],
        abstract: "Revert the last command by appending events that compensate for it.",
        discussion: """
            History is never rewritten: undo appends the inverse of the last command as a new batch. Undo
            again reverts the command before it (an undo is never undone by undo; use 'stint redo').
            The last 100 commands can be undone.
            """,
        examples: [("stint undo", "Reverts the last command."), ("stint undo && stint redo", "Changes nothing.")]
    )
    .changingLog()

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        try UndoVerb.run(.undo, context: context)
    }

    static func run(_ command: Command, context: CommandContext) throws(CLIError) {
        let log = try context.openForWriting()
        defer { log.close() }
        // What the summary reads of the state before (tags the undo deletes keep their names): only that, since
        // holding the whole state would make the command copy every record to change it.
        let (calendar, tags) = (log.state.calendar, log.state.tags)
        let result: TimeLog.Result
        do {
            result = try log.execute(command)
        } catch {
            throw CLIError(error)
        }
        let events: [DomainEvent]
        let tx: Int64
        switch result.decision.outcome {
        case .undone(let batch, let compensations), .redone(let batch, let compensations):
            events = compensations
            tx = batch
        default: return
        }
        let summary = EventSummary(format: TextFormat(calendar: calendar), tags: tags)
        if context.globals.json {
            context.printJSON(
                .object([
                    "command": .string(command == .undo ? "undo" : "redo"), "tx": .int(tx),
                    "seq": .int(result.events.first?.seq ?? 0),
                    "events": .array(events.map { .string(summary.describe($0)) }),
                ]))
        } else {
            let verb = command == .undo ? "Undid" : "Redid"
            context.notice("\(verb) the command at seq \(tx):")
            // A large batch (an import) is summarised: its first events, then a count.
            let shown = events.count > 20 ? 10 : events.count
            for event in events.prefix(shown) { context.notice("  " + summary.describe(event)) }
            if events.count > shown {
                context.notice("  … and \(events.count - shown) more events ('stint history --since' lists them)")
            }
        }
    }
}
