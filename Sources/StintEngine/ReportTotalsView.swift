public import StintCore

/// A report of any range at a log's head (a single log's or a replica's), summed from the read models'
/// day-and-tag totals (docs/read-models.md) instead of read record by record: what `stint report` prints, the
/// same ``TimeReport`` as one of the records, read in a few rows per day of the range whatever the number of
/// records.
///
/// ```swift
/// let view = source.reportTotalsAtHead(options: options) { basis in
///     let start = basis.firstStart ?? basis.now
///     return ReportTotalsView.Query(range: TimeInterval64(start: start, end: basis.now), grouping: .month)
/// }
/// ```
public struct ReportTotalsView: Sendable {
    /// What a report's range can depend on, read with the totals.
    public struct Basis: Sendable {
        /// The log's calendar.
        public let calendar: LogCalendar
        /// The instant running records count up to.
        public let now: Instant
        /// The first record's start; nil without records.
        public let firstStart: Instant?
        /// The latest end of a record (`now` for a running one); nil without records.
        public let lastEnd: Instant?
        /// Every tag ever created, by id (on a space, tags that share a name are told apart).
        public let tags: [EntityID: Tag]
    }

    /// The range, the rows, how records across midnight count and whose time, as ``TimeReport`` takes them.
    public struct Query: Sendable {
        public var range: TimeInterval64
        public var grouping: TimeReport.Grouping
        public var attribution: TimeReport.Attribution
        /// Only this tag's time (`.some(nil)` for untagged time); nil for all.
        public var tagFilter: EntityID??

        public init(
            range: TimeInterval64, grouping: TimeReport.Grouping,
            attribution: TimeReport.Attribution = .wholeOnStartDay, tagFilter: EntityID?? = nil
        ) {
            self.range = range
            self.grouping = grouping
            self.attribution = attribution
            self.tagFilter = tagFilter
        }
    }

    /// What the range was resolved from.
    public let basis: Basis
    /// Every tag ever created, by id (on a space, tags that share a name are told apart).
    public let tags: [EntityID: Tag]
    /// The report of the query's range.
    public let report: TimeReport
    /// The report's records that are running.
    public let running: Int
    /// The report's records that cross a midnight (running ones at `now`).
    public let crossingMidnight: Int
}

extension LogSource {
    /// The report `query` asks for at the head (given what its range depends on), when the read models reflect
    /// the head and the clock is not behind the log's last event; nil otherwise (read the records instead), and
    /// when `query` gives nil.
    public func reportTotalsAtHead(
        options: EngineOptions, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?
    ) -> ReportTotalsView? {
        fold.reportTotalsAtHead(options: options, query: query)
    }
}
