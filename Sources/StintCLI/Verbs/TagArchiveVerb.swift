import StintCore

/// `stint tag archive`.
struct TagArchiveVerb: Verb {
    static let spec = VerbSpec(
        path: ["tag", "archive"],
        abstract: "Archive a tag: it keeps naming past time but is not offered for new timers.",
        arguments: [ArgumentSpec(name: "NAME", help: "The tag's name (ignoring case).", completion: .tags)],
        examples: [("stint tag archive project-x", "Hides project-x from recent tags.")]
    )
    .changingLog()

    let name: String

    init(_ arguments: ParsedArguments) throws(CLIError) { name = arguments.positionals[0] }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .archiveTag(name: name) }
        guard case .tagArchived(let tag) = result.decision.outcome else { return }
        TagOutput.print(tag, "Archived", context)
    }
}
