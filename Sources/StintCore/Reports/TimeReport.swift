/// Totals of tracked time over a range, per period and per tag, as `stint report` prints them.
///
/// Two totals are always given, because they answer different questions when timers overlap:
/// `tagSum` adds every record's time (two timers running for an hour count two hours, as the per-tag
/// rows do), `wallClock` counts each instant once (the union of the records' spans, one hour).
public struct TimeReport: Hashable, Sendable {
    /// How records are grouped into rows.
    public enum Grouping: String, Sendable, CaseIterable {
        case day, week, month, tag
    }

    /// How a record that crosses midnight is counted.
    public enum Attribution: Hashable, Sendable {
        /// Whole on the day it started (the app's rule, and the default).
        case wholeOnStartDay
        /// Apportioned to the days (and to the range) it actually covers.
        case splitAtMidnight
    }

    /// One tag's time inside a period or the whole range.
    public struct TagTotal: Hashable, Sendable {
        /// nil for untagged time (and time on deleted tags).
        public var tagId: EntityID?
        public var name: String
        public var milliseconds: Int64
    }

    /// A period (day, week or month) with its per-tag rows.
    public struct Period: Hashable, Sendable {
        public var start: Instant
        public var end: Instant
        /// The period's first local date.
        public var firstDay: CivilDate
        public var tags: [TagTotal]
        public var tagSum: Int64
        public var wallClock: Int64
    }

    public var range: TimeInterval64
    public var grouping: Grouping
    public var attribution: Attribution
    /// Periods with time in them, oldest first; empty when grouping by tag.
    public var periods: [Period]
    /// Per-tag totals over the whole range, longest first, then by name.
    public var tags: [TagTotal]
    public var tagSum: Int64
    public var wallClock: Int64
    /// Records that contributed time (running ones included).
    public var recordCount: Int
}

extension TimeReport {
    /// Builds a report.
    ///
    /// - Parameters:
    ///   - source: the folded log.
    ///   - range: `[start, end)`; with `wholeOnStartDay` a record belongs to it when it starts inside it,
    ///     with `splitAtMidnight` the part of every record inside it counts.
    ///   - grouping: rows per day, week, month (of the log's calendar) or per tag only.
    ///   - attribution: how records across midnight count.
    ///   - tagFilter: only this tag's time (`.some(nil)` for untagged time); nil for all.
    ///   - now: running timers count up to this instant.
    public init(
        source: ProjectionSource, range: TimeInterval64, grouping: Grouping, attribution: Attribution,
        tagFilter: EntityID?? = nil, now: Instant
    ) {
        let calendar = source.calendar
        var pieces: [Piece] = []
        var contributing = Set<EntityID>()
        for record in source.records {
            let end = record.end ?? max(now, record.start)
            let tagId = record.tagId.flatMap { source.tags[$0]?.isDeleted == false ? $0 : nil }
            if let tagFilter, tagFilter != tagId { continue }
            switch attribution {
            case .wholeOnStartDay:
                guard range.contains(record.start) else { continue }
                pieces.append(Piece(day: calendar.date(of: record.start), start: record.start, end: end, tagId: tagId))
                contributing.insert(record.id)
            case .splitAtMidnight:
                let start = max(record.start, range.start)
                let stop = min(end, range.end)
                guard start < stop else { continue }
                contributing.insert(record.id)
                // Cut at the periods' midnights only (by tag, not at all): the pieces of one period add up and
                // unite as its days' would, and a timer running for years is a piece a period, not a day.
                var cursor = start
                var day = calendar.date(of: cursor)
                repeat {
                    let pieceDay = day
                    var pieceEnd = stop
                    if grouping != .tag {
                        let first = TimeReport.periodStart(of: day, grouping: grouping, calendar: calendar)
                        day = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
                        pieceEnd = min(calendar.startOfDay(day), stop)
                    }
                    pieces.append(Piece(day: pieceDay, start: cursor, end: pieceEnd, tagId: tagId))
                    cursor = pieceEnd
                } while cursor < stop
            }
        }
        self.range = range
        self.grouping = grouping
        self.attribution = attribution
        self.recordCount = contributing.count
        self.tags = TimeReport.tagTotals(pieces, source: source)
        self.tagSum = pieces.reduce(0) { $0 + $1.milliseconds }
        self.wallClock = TimeReport.union(pieces)
        guard grouping != .tag else {
            self.periods = []
            return
        }
        var byPeriod: [CivilDate: [Piece]] = [:]
        for piece in pieces {
            byPeriod[TimeReport.periodStart(of: piece.day, grouping: grouping, calendar: calendar), default: []]
                .append(piece)
        }
        self.periods = byPeriod.keys.sorted().map { first in
            let group = byPeriod[first]!
            let next = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
            return Period(
                start: calendar.startOfDay(first), end: calendar.startOfDay(next), firstDay: first,
                tags: TimeReport.tagTotals(group, source: source), tagSum: group.reduce(0) { $0 + $1.milliseconds },
                wallClock: TimeReport.union(group))
        }
    }

    /// What a period's or the whole range's records add up to: each tag's time (nil for untagged time; whole
    /// on the start day, a tag with records of no length is there with 0), the wall clock and the number of
    /// records.
    public struct Totals: Hashable, Sendable {
        public var perTag: [EntityID?: Int64]
        public var wallClock: Int64
        public var recordCount: Int

        public init(perTag: [EntityID?: Int64] = [:], wallClock: Int64 = 0, recordCount: Int = 0) {
            self.perTag = perTag
            self.wallClock = wallClock
            self.recordCount = recordCount
        }
    }

    /// The report of `range`, from what it adds up to instead of from the records: `whole` for the range, and
    /// for each period with time in it (keyed by its first day; none when grouping by tag) its own totals. The
    /// read models' day-and-tag totals give them (`ReadModel+ReportTotals.swift`); the same report as
    /// ``init(source:range:grouping:attribution:tagFilter:now:)`` of the records.
    public init(
        range: TimeInterval64, grouping: Grouping, attribution: Attribution, whole: Totals,
        periods: [CivilDate: Totals], tags: [EntityID: Tag], calendar: LogCalendar
    ) {
        self.range = range
        self.grouping = grouping
        self.attribution = attribution
        self.tags = TimeReport.tagTotals(whole.perTag, tags: tags)
        tagSum = whole.perTag.values.reduce(0, +)
        wallClock = whole.wallClock
        recordCount = whole.recordCount
        self.periods =
            grouping == .tag
            ? []
            : periods.keys.sorted().map { first in
                let totals = periods[first]!
                let next = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
                return Period(
                    start: calendar.startOfDay(first), end: calendar.startOfDay(next), firstDay: first,
                    tags: TimeReport.tagTotals(totals.perTag, tags: tags), tagSum: totals.perTag.values.reduce(0, +),
                    wallClock: totals.wallClock)
            }
    }

    /// A span of one record attributed to the period that holds the local day it starts on.
    struct Piece {
        var day: CivilDate
        var start: Instant
        var end: Instant
        var tagId: EntityID?

        var milliseconds: Int64 { end.milliseconds - start.milliseconds }
    }

    /// The first day of the period (of `grouping`) that holds `day`.
    public static func periodStart(of day: CivilDate, grouping: Grouping, calendar: LogCalendar) -> CivilDate {
        switch grouping {
        case .day, .tag: return day
        case .week: return calendar.weekStart(of: day)
        case .month: return calendar.monthStart(of: day)
        }
    }

    /// The first day after the period that starts on `first`.
    public static func periodEnd(from first: CivilDate, grouping: Grouping, calendar: LogCalendar) -> CivilDate {
        switch grouping {
        case .day, .tag: return first.adding(days: 1)
        case .week: return first.adding(days: 7)
        case .month: return calendar.nextMonthStart(of: first)
        }
    }

    /// Per-tag sums, longest first, then by name, then untagged before tags, then by id.
    static func tagTotals(_ pieces: [Piece], source: ProjectionSource) -> [TagTotal] {
        var sums: [EntityID?: Int64] = [:]
        for piece in pieces { sums[piece.tagId, default: 0] += piece.milliseconds }
        return tagTotals(sums, tags: source.tags)
    }

    /// `sums` as rows named after `tags`, in the rows' order.
    static func tagTotals(_ sums: [EntityID?: Int64], tags: [EntityID: Tag]) -> [TagTotal] {
        sums.map { tagId, milliseconds in
            TagTotal(tagId: tagId, name: tagId.flatMap { tags[$0]?.name } ?? "Untagged", milliseconds: milliseconds)
        }
        .sorted { a, b in
            if a.milliseconds != b.milliseconds { return a.milliseconds > b.milliseconds }
            if a.name != b.name { return a.name < b.name }
            switch (a.tagId, b.tagId) {
            case (nil, _): return b.tagId != nil
            case (_, nil): return false
            case (let x?, let y?): return x < y
            }
        }
    }

    /// The length of the union of the pieces' spans: each instant counted once.
    static func union(_ pieces: [Piece]) -> Int64 {
        unionLength(of: pieces.map { ($0.start.milliseconds, $0.end.milliseconds) })
    }

    /// The length of the union of `spans` (start and end in milliseconds; spans that touch merge): the wall
    /// clock, each instant counted once.
    public static func unionLength(of spans: [(Int64, Int64)]) -> Int64 {
        let spans = spans.sorted { $0 < $1 }
        var total: Int64 = 0
        var current: (Int64, Int64)?
        for span in spans {
            guard let open = current else {
                current = span
                continue
            }
            if span.0 <= open.1 {
                current = (open.0, max(open.1, span.1))
            } else {
                total += open.1 - open.0
                current = span
            }
        }
        if let open = current { total += open.1 - open.0 }
        return total
    }
}
