/// What every projection is computed from: the folded state of a log at some point, without the
/// bookkeeping (undo stacks, ids of deleted records) that only decisions need.
public struct ProjectionSource: Sendable {
    /// The calendar days, weeks and months are computed in.
    public var calendar: LogCalendar
    /// Every tag ever created, archived and deleted ones included, by id.
    public var tags: [EntityID: Tag]
    /// Every record that is not deleted, running or completed, in no particular order.
    public var records: [Record]
    /// Tag ids by their most recent use in a start or a track, newest first, without repeats. May name
    /// archived or deleted tags; projections leave those out where the rules say so.
    public var recentTagIds: [EntityID]

    public init(calendar: LogCalendar, tags: [EntityID: Tag], records: [Record], recentTagIds: [EntityID]) {
        self.calendar = calendar
        self.tags = tags
        self.records = records
        self.recentTagIds = recentTagIds
    }
}
