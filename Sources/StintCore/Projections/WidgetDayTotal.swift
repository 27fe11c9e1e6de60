/// The completed time of one tag (or of untagged records) on one day.
///
/// A record counts whole on the day it started, as in the history and the CSV export.
public struct WidgetDayTotal: Hashable, Sendable {
    /// The start of the day in the log's calendar (its local midnight, or the first instant after a
    /// DST gap that swallowed midnight).
    public var day: Instant
    /// nil for untagged time, including time of deleted or unknown tags.
    public var tagId: EntityID?
    public var milliseconds: Int64

    public init(day: Instant, tagId: EntityID? = nil, milliseconds: Int64) {
        self.day = day
        self.tagId = tagId
        self.milliseconds = milliseconds
    }

    /// The snapshot order: by day, then by tag id with untagged first.
    package static func precedes(_ lhs: WidgetDayTotal, _ rhs: WidgetDayTotal) -> Bool {
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        switch (lhs.tagId, rhs.tagId) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?): return left < right
        }
    }
}

extension WidgetDayTotal {
    /// `{"day","seconds","tagId"?}`.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("day", day.iso8601)
        object.add("seconds", JSON.seconds(milliseconds: milliseconds))
        object.add("tagId", tagId?.uuidString)
        return object.json
    }

    /// Decodes `{"day","seconds","tagId"?}`.
    ///
    /// - Throws: `ProjectionDecodingError` naming `path` and the member that is missing or wrong.
    public init(json: JSON, path: String = "") throws(ProjectionDecodingError) {
        let members = try JSONMembers(json, path: path)
        self.init(
            day: try members.instant("day"), tagId: try members.optionalEntityID("tagId"),
            milliseconds: try members.milliseconds(seconds: "seconds"))
    }
}
