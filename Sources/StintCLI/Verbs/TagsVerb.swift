import StintCore

/// `stint tags`.
struct TagsVerb: Verb {
    static let all = Flag("all", "Include deleted tags.")

    static let spec = VerbSpec(
        path: ["tags"],
        abstract: "List the tags: name, color, state and id.",
        options: [all] + PointArguments.options,
        examples: [("stint tags", "Lists the tags."), ("stint tags --json", "The same as JSON.")]
    )

    let all: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        all = arguments[Self.all]
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        // Every tag, deleted ones included, is in the projection view: no records are read.
        let view = try context.projectionView(point)
        let tags = view.source.tags.values.filter { all || !$0.isDeleted }
            .sorted { ($0.name.lowercased(), $0.name, $0.id) < ($1.name.lowercased(), $1.name, $1.id) }
        if context.globals.json {
            context.printJSON(.array(tags.map(TagOutput.json)))
            return
        }
        guard !tags.isEmpty else {
            context.print("No tags yet. Create one with 'stint tag add NAME' or 'stint start NAME'.")
            return
        }
        let width = tags.map(\.name.count).max() ?? 0
        for tag in tags {
            let state = tag.isDeleted ? "deleted" : tag.isArchived ? "archived" : "active"
            let name = tag.name + String(repeating: " ", count: width - tag.name.count)
            context.print("\(name)  \(tag.color)  \(state.padding(8))  \(tag.id.uuidString)")
        }
    }
}
