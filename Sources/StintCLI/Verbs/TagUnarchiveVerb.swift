import StintCore

/// `stint tag unarchive`.
struct TagUnarchiveVerb: Verb {
    static let spec = VerbSpec(
        path: ["tag", "unarchive"],
        abstract: "Offer an archived tag again.",
        arguments: [ArgumentSpec(name: "NAME", help: "The tag's name (ignoring case).", completion: .tags)],
        examples: [("stint tag unarchive project-x", "Brings project-x back.")]
    )
    .changingLog()

    let name: String

    init(_ arguments: ParsedArguments) throws(CLIError) { name = arguments.positionals[0] }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .unarchiveTag(name: name) }
        guard case .tagUnarchived(let tag) = result.decision.outcome else { return }
        TagOutput.print(tag, "Unarchived", context)
    }
}
