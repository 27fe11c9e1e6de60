import StintCore

/// `stint tag add`.
struct TagAddVerb: Verb {
    static let color = Option("color", "#RRGGBB", "Its color (default: the next color of Stint's palette).")

    static let spec = VerbSpec(
        path: ["tag", "add"],
        abstract: "Create a tag.",
        arguments: [ArgumentSpec(name: "NAME", help: "1–64 characters, unique ignoring case.")],
        options: [color],
        examples: [("stint tag add writing --color #3366FF", "Creates the tag writing in blue.")]
    )
    .changingLog()

    let name: String
    let color: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        name = arguments.positionals[0]
        color = arguments[Self.color]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .addTag(name: name, color: color) }
        guard case .tagAdded(let tag) = result.decision.outcome else { return }
        TagOutput.print(tag, "Added", context)
    }
}
