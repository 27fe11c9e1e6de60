/// A running timer as the widgets and the Live Activity render it.
///
/// A trimmed projection of a running `Record`: its id, when it started, and its tag's id, name and
/// color when the tag can be named (neither deleted nor unknown). Everything time-dependent takes the
/// instant to render for, so precomputed timeline entries need no clock.
public struct WidgetTimer: Hashable, Sendable {
    public var id: EntityID
    public var startTime: Instant
    /// nil for an untagged timer, one whose tag was deleted, and in snapshots from before tag ids.
    public var tagId: EntityID?
    public var tagName: String?
    public var tagColor: String?
    public var comment: String?

    public init(
        id: EntityID, startTime: Instant, tagId: EntityID? = nil, tagName: String? = nil, tagColor: String? = nil,
        comment: String? = nil
    ) {
        self.id = id
        self.startTime = startTime
        self.tagId = tagId
        self.tagName = tagName
        self.tagColor = tagColor
        self.comment = comment
    }

    /// The elapsed milliseconds as of `instant`, never negative.
    public func duration(at instant: Instant) -> Int64 {
        max(0, instant.milliseconds(since: startTime))
    }

    /// The widget timers of the running records among `records`, oldest start first, then by id.
    ///
    /// Completed records are skipped. A timer whose tag is deleted, or whose tag id names no tag in
    /// `tags`, is shown untagged (no tag id, name or color); an archived tag still names it. The same
    /// builder feeds the snapshot and the Live Activity, so both show the same timers.
    public static func make(runningTimers records: some Sequence<Record>, tags: [EntityID: Tag]) -> [WidgetTimer] {
        records.filter(\.isRunning)
            .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
            .map { record in
                let tag = record.tagId.flatMap { tags[$0] }.flatMap { $0.isDeleted ? nil : $0 }
                return WidgetTimer(
                    id: record.id, startTime: record.start, tagId: tag?.id, tagName: tag?.name, tagColor: tag?.color,
                    comment: record.comment)
            }
    }

    /// The same builder for tags given as a list, which may name an id more than once.
    ///
    /// The first tag with a given id wins, so the result does not depend on which duplicate a merge
    /// happened to keep last.
    public static func make(runningTimers records: some Sequence<Record>, tags: some Sequence<Tag>) -> [WidgetTimer] {
        var byId: [EntityID: Tag] = [:]
        for tag in tags where byId[tag.id] == nil { byId[tag.id] = tag }
        return make(runningTimers: records, tags: byId)
    }
}

extension WidgetTimer {
    /// `{"comment"?,"id","startTime","tagColor"?,"tagId"?,"tagName"?}`: sorted keys, absent values omitted.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("comment", comment)
        object.add("id", id.uuidString)
        object.add("startTime", startTime.iso8601)
        object.add("tagColor", tagColor)
        object.add("tagId", tagId?.uuidString)
        object.add("tagName", tagName)
        return object.json
    }

    /// Decodes a timer; `tagId`, `tagName`, `tagColor` and `comment` may be missing (snapshots written
    /// before tag ids have none).
    ///
    /// - Throws: `ProjectionDecodingError` naming `path` and the member that is missing or wrong.
    public init(json: JSON, path: String = "") throws(ProjectionDecodingError) {
        let members = try JSONMembers(json, path: path)
        self.init(
            id: try members.entityID("id"), startTime: try members.instant("startTime"),
            tagId: try members.optionalEntityID("tagId"), tagName: try members.optionalString("tagName"),
            tagColor: try members.optionalString("tagColor"), comment: try members.optionalString("comment"))
    }
}
