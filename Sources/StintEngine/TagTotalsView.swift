public import StintCore

/// The whole history's time per tag at a log's head (a single log's or a replica's), summed from the read
/// models' day-and-tag totals (docs/read-models.md) instead of read record by record: what `report --all
/// --by tag` prints, with the same totals as a ``TimeReport`` of every record (whole on its start day), read
/// in a few hundred rows whatever the length of the history.
///
/// ```swift
/// if let totals = source.tagTotalsAtHead(options: options) { print(totals.wallClock) }
/// ```
public struct TagTotalsView: Sendable {
    /// One tag's records (running ones included) and their time.
    public struct Tagged: Hashable, Sendable {
        public var records: Int
        public var milliseconds: Int64
    }

    /// The log's calendar.
    public let calendar: LogCalendar
    /// Every tag ever created, by id (on a space, tags that share a name are told apart).
    public let tags: [EntityID: Tag]
    /// The instant running records count up to.
    public let now: Instant
    /// Per tag; nil for untagged time (records without a tag or on a deleted one).
    public let perTag: [EntityID?: Tagged]
    /// Each instant counted once.
    public let wallClock: Int64
    /// Every record, running ones included.
    public let recordCount: Int
    /// The running records.
    public let running: Int
    /// The records that end on a later day than they start (running ones at `now`).
    public let crossingMidnight: Int
    /// The first record's start; nil without records.
    public let firstStart: Instant?
    /// The latest end of a record (`now` for a running one); nil without records.
    public let lastEnd: Instant?
}

extension LogSource {
    /// ``TagTotalsView`` at the head, when the read models reflect it and the clock is not behind the log's
    /// last event; nil otherwise (read the records instead).
    public func tagTotalsAtHead(options: EngineOptions) -> TagTotalsView? {
        fold.tagTotalsAtHead(options: options)
    }
}
