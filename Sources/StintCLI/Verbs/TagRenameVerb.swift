import StintCore

/// `stint tag rename`.
struct TagRenameVerb: Verb {
    static let spec = VerbSpec(
        path: ["tag", "rename"],
        abstract: "Rename a tag; its records follow it.",
        arguments: [
            ArgumentSpec(name: "NAME", help: "The tag's current name (ignoring case).", completion: .tags),
            ArgumentSpec(name: "NEW", help: "Its new name."),
        ],
        examples: [("stint tag rename mail email", "Renames mail to email.")]
    )
    .changingLog()

    let name: String
    let newName: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        name = arguments.positionals[0]
        newName = arguments.positionals[1]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .renameTag(name: name, newName: newName) }
        guard case .tagRenamed(let before, let after) = result.decision.outcome else { return }
        TagOutput.print(after, "Renamed tag \(before.name) to", context)
    }
}
