/// A tag as the widgets render it: its id, name and color, nothing else.
public struct WidgetTag: Hashable, Sendable {
    public var id: EntityID
    public var name: String
    /// `#RRGGBB`.
    public var color: String

    public init(id: EntityID, name: String, color: String) {
        self.id = id
        self.name = name
        self.color = color
    }

    /// The trimmed projection of a domain tag.
    public init(_ tag: Tag) {
        self.init(id: tag.id, name: tag.name, color: tag.color)
    }
}

extension WidgetTag {
    /// `{"color","id","name"}`.
    public var json: JSON {
        .object([
            JSONField("color", .string(color)),
            JSONField("id", .string(id.uuidString)),
            JSONField("name", .string(name)),
        ])
    }

    /// Decodes `{"color","id","name"}`.
    ///
    /// - Throws: `ProjectionDecodingError` naming `path` and the member that is missing or wrong.
    public init(json: JSON, path: String = "") throws(ProjectionDecodingError) {
        let members = try JSONMembers(json, path: path)
        self.init(id: try members.entityID("id"), name: try members.string("name"), color: try members.string("color"))
    }
}
