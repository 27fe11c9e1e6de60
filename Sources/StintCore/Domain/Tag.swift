/// A tag as the projections see it: a name and a color that records point to by id.
public struct Tag: Hashable, Sendable {
    public var id: EntityID
    /// 1–64 characters, unique case-insensitively among tags that are not deleted.
    public var name: String
    /// `#RRGGBB`, uppercase hex.
    public var color: String
    /// Archived tags still name past time but are not offered for new timers (not in recent tags).
    public var isArchived: Bool
    /// Deleted tags are kept so history can name them; their records count as untagged.
    public var isDeleted: Bool

    public init(id: EntityID, name: String, color: String, isArchived: Bool = false, isDeleted: Bool = false) {
        self.id = id
        self.name = name
        self.color = color
        self.isArchived = isArchived
        self.isDeleted = isDeleted
    }
}

extension Tag {
    /// The tag of `tags` that is not deleted and whose name equals `name` case-insensitively.
    public static func live(named name: String, in tags: [EntityID: Tag]) -> Tag? {
        let key = InputLimits.nameKey(name)
        return tags.values.first { !$0.isDeleted && InputLimits.nameKey($0.name) == key }
    }
}
