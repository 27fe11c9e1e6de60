import StintCore

/// `stint tag add`.
struct TagAddVerb: Verb {
    static let spec = VerbSpec(
        path: ["tag", "add"],
        abstract: "Create a tag.",
        arguments: [ArgumentSpec(name: "NAME", help: "1–64 characters, unique ignoring case.")],
        options: [.value("color", "#RRGGBB", "Its color (default: the next color of Stint's palette).")],
        examples: [("stint tag add writing --color #3366FF", "Creates the tag writing in blue.")]
    )
    .changingLog()

    let name: String
    let color: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        name = arguments.positionals[0]
        color = arguments.value("color")
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, _) = try context.mutate { _, _ in .addTag(name: name, color: color) }
        guard case .tagAdded(let tag) = result.decision.outcome else { return }
        TagVerbs.print(tag, "Added", context)
    }
}

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
        TagVerbs.print(after, "Renamed tag \(before.name) to", context)
    }
}

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
        TagVerbs.print(tag, "Archived", context)
    }
}

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
        TagVerbs.print(tag, "Unarchived", context)
    }
}

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
        TagVerbs.print(tag, "Deleted", context)
    }
}

enum TagVerbs {
    static func json(_ tag: Tag) -> JSON {
        var object = JSONObjectBuilder()
        object.add("id", .string(tag.id.uuidString))
        object.add("name", .string(tag.name))
        object.add("color", .string(tag.color))
        object.add("archived", .bool(tag.isArchived))
        object.add("deleted", .bool(tag.isDeleted))
        return object.json
    }

    static func print(_ tag: Tag, _ verb: String, _ context: CommandContext) {
        if context.globals.json {
            context.printJSON(json(tag))
        } else {
            context.notice(
                verb.hasPrefix("Renamed")
                    ? "\(verb) \(tag.name) (\(tag.color))" : "\(verb) tag \(tag.name) (\(tag.color))")
            // A new tag's id goes to standard output, as a new record's does.
            if verb == "Added" { context.print(tag.id.uuidString) }
        }
    }
}

/// `stint tags`.
struct TagsVerb: Verb {
    static let spec = VerbSpec(
        path: ["tags"],
        abstract: "List the tags: name, color, state and id.",
        options: [.flag("all", "Include deleted tags.")] + PointArguments.options,
        examples: [("stint tags", "Lists the tags."), ("stint tags --json", "The same as JSON.")]
    )

    let all: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        all = arguments.flag("all")
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view = try context.view(point)
        let tags = view.state.tags.values.filter { all || !$0.isDeleted }
            .sorted { ($0.name.lowercased(), $0.name, $0.id) < ($1.name.lowercased(), $1.name, $1.id) }
        if context.globals.json {
            context.printJSON(.array(tags.map(TagVerbs.json)))
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

extension String {
    /// The text padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
