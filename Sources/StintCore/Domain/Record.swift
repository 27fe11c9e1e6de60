/// A span of tracked time: running while it has no end.
public struct Record: Hashable, Sendable {
    public var id: EntityID
    public var start: Instant
    /// nil while the timer runs.
    public var end: Instant?
    /// nil for untagged time.
    public var tagId: EntityID?
    /// nil or a non-empty text of at most 500 characters.
    public var comment: String?

    public init(id: EntityID, start: Instant, end: Instant? = nil, tagId: EntityID? = nil, comment: String? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.tagId = tagId
        self.comment = comment
    }

    public var isRunning: Bool { end == nil }

    /// The tracked milliseconds of a completed record; nil while it runs.
    public var durationMilliseconds: Int64? {
        end.map { $0.milliseconds - start.milliseconds }
    }
}
