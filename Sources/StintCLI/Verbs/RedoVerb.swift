import StintCore
import StintEngine

/// `stint redo`.
struct RedoVerb: Verb {
    static let spec = VerbSpec(
        path: ["redo"],
        abstract: "Revert the last undo, if no other command came after it.",
        examples: [("stint redo", "Re-applies what the last undo reverted.")]
    )
    .changingLog()

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        try UndoVerb.run(.redo, context: context)
    }
}
