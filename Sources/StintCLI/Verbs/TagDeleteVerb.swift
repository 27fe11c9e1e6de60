import StintCore

/// `stint tag delete`.
struct TagDeleteVerb: Verb {
    static let spec = VerbSpec(
        path: ["tag", "delete"],
        abstract: "Delete a tag: its records stay and count as untagged; its name is free again.",
        arguments: [ArgumentSpec(name: "NAME", help: "The tag's name (ignoring case).", completion: .tags)],
        examples: [("stint tag delete tmp", "Deletes the tag tmp ('stint undo' restores it).")]
    )
    .changingLog()

    let name: String

    init(_ arguments: ParsedArguments) throws(CLIError) { name = arguments.positionals[0] }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .deleteTag(name: name) }
        guard case .tagDeleted(let tag) = result.decision.outcome else { return }
        TagOutput.print(tag, "Deleted", context)
    }
}
