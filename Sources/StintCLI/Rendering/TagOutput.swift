import StintCore

enum TagOutput {
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

extension String {
    /// The text padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
