import StintCore

/// What a report of one range reads from the day-and-tag totals (`ReadModel+DayTotals.swift`; days are local
/// days since 1970-01-01), and how it adds them up into the report's totals. With a tag filter, only that
/// tag's rows and records are read (untagged time: the records without a tag or on a deleted one).
///
/// Whole on the start day, a record belongs to the range (and the period) it starts in. A period's tags are
/// the sum of its days' cells (`day_tag_totals`); a day the range cuts in two is read record by record, and the
/// running records are added at `now`. Its wall clock (the union of its records' spans) is the sum of its days'
/// stored unions (`day_wall`, or the tag's `day_tag_time.wall_clock`) over the days that no record of an
/// earlier period reaches and no running record covers; those days (and, for untagged time, a day that holds
/// it under several stored tags) are computed again from the period's records, and the part of its records
/// past its last day is the union of the parts of those that cross its end. Records that cross an edge cross a
/// midnight: they are found through the days whose cells count such records, a few queries and no scan.
///
/// Split at midnight, every record's part inside the range counts on the day it falls on: a day's tags are
/// `day_tag_time.milliseconds` and its wall clock the stored union, both of which add up over days; the days
/// the range cuts and those a running record reaches in part are computed again from the records' parts.
///
/// Either way, the days a running record covers wholly are whole on the wall clock and are added a run at a
/// time (``WholeDayRuns``), and only the days with stored rows are read: a report costs the days with time,
/// not the days of its range, so a timer left running for years (or a range of centuries) stays cheap.
struct ReportTotalsRead {
    typealias Span = (start: Int64, end: Int64)

    /// A record's span (or its part in a window) and its tag as a report shows it.
    struct Tagged {
        var span: Span
        var tag: EntityID?
    }

    let model: ReadModel
    let head: ModelHead
    let now: Instant
    let range: TimeInterval64
    let attribution: TimeReport.Attribution
    /// Only this tag's time (`.some(nil)` for untagged time); nil for all.
    let filter: EntityID??
    /// No completed record is longer.
    let longest: Int64
    let firstDay: Int64
    let lastDay: Int64
    /// The running records whose time the report counts, up to `now`: whole on the start day those that start in
    /// the range, split those with time inside it.
    let running: [Tagged]
    /// The report's records that cross a midnight, once its totals are read.
    var crossingMidnight = 0
    /// Per day the range touches, its records (those that start on it and in the range), by tag.
    private(set) var cells: [Int64: [EntityID?: DayTotalsSweep.Cell]] = [:]
    /// `day_wall` of the days wholly in the range (without a tag filter).
    private var dayWall: [Int64: Int64] = [:]
    /// `day_tag_time` of the days wholly in the range, by tag.
    private(set) var dayTagTime: [Int64: [(tag: EntityID?, time: DayTotalsSweep.TagTime)]] = [:]
    /// The days of `dayTagTime` that hold the report's time under several stored tags (untagged time: none
    /// and deleted ones), whose union is computed again.
    private var severalTagDays: [Int64] = []
    /// Whole on the start day: the completed records that start from `longest` before the range to its end
    /// and cross a midnight.
    private var crossers: [Tagged] = []
    /// The days with a stored union of the report's time (`dayWall`'s, or with a tag filter `dayTagTime`'s),
    /// and those with a stored time per tag (`dayTagTime`'s), in order.
    private var wallDays: [Int64] = []
    private(set) var tagTimeDays: [Int64] = []

    var runningCount: Int { running.count }

    init(model: ReadModel, head: ModelHead, now: Instant, query: ReportTotalsView.Query) throws(ReadModelError) {
        self.model = model
        self.head = head
        self.now = now
        range = query.range
        attribution = query.attribution
        filter = query.tagFilter
        longest = try model.longestRecord()
        let calendar = head.calendar
        firstDay = calendar.date(of: range.start).daysSinceEpoch
        lastDay = calendar.date(of: range.end.adding(milliseconds: -1)).daysSinceEpoch
        let (from, to) = (query.range.start.milliseconds, query.range.end.milliseconds)
        running = head.running.compactMap { [filter] record in
            let tag = record.tagId.flatMap { head.tags[$0]?.isDeleted == false ? $0 : nil }
            let span = (record.start.milliseconds, max(now, record.start).milliseconds)
            guard filter.map({ $0 == tag }) ?? true else { return nil }
            switch query.attribution {
            case .wholeOnStartDay: guard span.0 >= from && span.0 < to else { return nil }
            case .splitAtMidnight: guard max(span.0, from) < min(span.1, to) else { return nil }
            }
            return Tagged(span: span, tag: tag)
        }
    }

    /// A deleted or unknown tag's time is untagged, as in a report of the records.
    func shown(_ tag: EntityID?) -> EntityID? {
        tag.flatMap { head.tags[$0]?.isDeleted == false ? $0 : nil }
    }

    /// Whether the report counts time of `tag` (as shown).
    func matches(_ tag: EntityID?) -> Bool {
        filter.map { $0 == tag } ?? true
    }

    func start(of day: Int64) -> Int64 {
        head.calendar.startOfDay(CivilDate(daysSinceEpoch: day)).milliseconds
    }

    /// Whether `day` lies wholly in `[from, to)`.
    func isWhole(_ day: Int64, in from: Int64, _ to: Int64) -> Bool {
        start(of: day) >= from && start(of: day + 1) <= to
    }

    /// The days `[from, to)` cuts in two: its first and last, when it does not start or end at their midnights
    /// (every other day it touches lies wholly in it; asking the calendar only about these two is what keeps
    /// a report of decades cheap).
    func cutDays(from: Int64, to: Int64) -> Set<Int64> {
        let calendar = head.calendar
        let first = calendar.date(of: Instant(milliseconds: from)).daysSinceEpoch
        let last = calendar.date(of: Instant(milliseconds: to - 1)).daysSinceEpoch
        return Set([first, last].filter { !isWhole($0, in: from, to) })
    }

    /// Calls `body` with the day, the tag as shown and the row of each row of a per-day-and-tag table
    /// (`day, tag_id`, then `columns`) in the days `[first, last]` whose tag the report counts. One tag's rows
    /// are asked for by its id; untagged time may be stored under several.
    private func forEachDayTagRow(
        of table: String, _ columns: String, _ first: Int64, _ last: Int64,
        _ body: (Int64, EntityID?, SQLiteDatabase.Statement) -> Void
    ) throws(ReadModelError) {
        let oneTag = filter.flatMap { $0 }
        let rows = try model.database.statement(
            "SELECT day, tag_id, \(columns) FROM \(table) WHERE day >= ? AND day <= ?"
                + (oneTag == nil ? "" : " AND tag_id = ?"))
        try rows.bind(.integer(first), .integer(last))
        if let oneTag { try rows.bind(at: 3, .text(oneTag.uuidString)) }
        while try rows.step() {
            let tag = shown(rows.entityID(1))
            if matches(tag) { body(rows.integer(0), tag, rows) }
        }
    }

    /// The report's totals over the range and, unless grouping by tag, per period with time in it.
    mutating func totals(_ grouping: TimeReport.Grouping) throws(ReadModelError)
        -> (TimeReport.Totals, [CivilDate: TimeReport.Totals])
    {
        try load()
        switch attribution {
        case .wholeOnStartDay: return try wholeOnStartDay(grouping)
        case .splitAtMidnight: return try splitAtMidnight(grouping)
        }
    }

    /// The rows of the days wholly in the range, the records of the days it cuts, and (whole on the start day)
    /// the records that cross a midnight near it.
    private mutating func load() throws(ReadModelError) {
        let (from, to) = (range.start.milliseconds, range.end.milliseconds)
        let cut = cutDays(from: from, to: to)
        let firstWhole = cut.contains(firstDay) ? firstDay + 1 : firstDay
        let lastWhole = cut.contains(lastDay) ? lastDay - 1 : lastDay
        if firstWhole <= lastWhole {
            try forEachDayTagRow(of: "day_tag_totals", "records, crossing, empty, milliseconds", firstWhole, lastWhole)
            {
                day, tag, row in
                let cell = DayTotalsSweep.Cell(
                    records: Int(row.integer(2)), crossing: Int(row.integer(3)), empty: Int(row.integer(4)),
                    milliseconds: row.integer(5))
                cells[day, default: [:]][tag, default: .init()].add(cell)
            }
            if filter == nil {
                let walls = try model.database.statement(
                    "SELECT day, milliseconds FROM day_wall WHERE day >= ? AND day <= ?")
                try walls.bind(.integer(firstWhole), .integer(lastWhole))
                while try walls.step() { dayWall[walls.integer(0)] = walls.integer(1) }
            }
            if filter != nil || attribution == .splitAtMidnight {
                try forEachDayTagRow(of: "day_tag_time", "milliseconds, wall_clock", firstWhole, lastWhole) {
                    day, tag, row in
                    dayTagTime[day, default: []].append(
                        (tag, .init(milliseconds: row.integer(2), wallClock: row.integer(3))))
                }
            }
        }
        for day in cut {
            let dayEnd = start(of: day + 1)
            let starting = try model.database.statement(
                """
                SELECT start_ms, end_ms, tag_id FROM records
                WHERE start_ms >= ? AND start_ms < ? AND end_ms IS NOT NULL
                """)
            try starting.bind(.integer(max(from, start(of: day))), .integer(min(to, dayEnd)))
            while try starting.step() {
                let tag = shown(starting.entityID(2))
                guard matches(tag) else { continue }
                cells[day, default: [:]][tag, default: .init()].add(
                    start: starting.integer(0), end: starting.integer(1), dayEnd: dayEnd)
            }
        }
        for record in running where record.span.start >= from && record.span.start < to {
            let day = head.calendar.date(of: Instant(milliseconds: record.span.start)).daysSinceEpoch
            cells[day, default: [:]][record.tag, default: .init()].add(
                start: record.span.start, end: record.span.end, dayEnd: start(of: day + 1))
        }
        if filter != nil { severalTagDays = dayTagTime.filter { $0.value.count > 1 }.keys.sorted() }
        tagTimeDays = dayTagTime.keys.sorted()
        wallDays = filter == nil ? dayWall.keys.sorted() : tagTimeDays
        if attribution == .wholeOnStartDay { try readCrossers() }
    }

    /// The completed records of the report's tags that start from `longest` before the range to its end and
    /// cross a midnight, found through the days whose cells count such records.
    private mutating func readCrossers() throws(ReadModelError) {
        let days = try model.database.statement(
            "SELECT DISTINCT day FROM day_tag_totals WHERE day >= ? AND day <= ? AND crossing > 0 ORDER BY day")
        let earliest = head.calendar.date(of: range.start.adding(milliseconds: -longest)).daysSinceEpoch
        try days.bind(.integer(earliest), .integer(lastDay))
        var crossingDays: [Int64] = []
        while try days.step() { crossingDays.append(days.integer(0)) }
        for day in crossingDays {
            let rows = try model.database.statement(
                "SELECT start_ms, end_ms, tag_id FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?")
            try rows.bind(.integer(start(of: day)), .integer(start(of: day + 1)), .integer(start(of: day + 1)))
            while try rows.step() {
                let tag = shown(rows.entityID(2))
                if matches(tag) { crossers.append(Tagged(span: (rows.integer(0), rows.integer(1)), tag: tag)) }
            }
        }
    }

    /// The stored union of `day`'s time of the report's tags; nil when it must be computed again (untagged
    /// time stored under several tags).
    func storedWall(of day: Int64) -> Int64? {
        guard filter != nil else { return dayWall[day] ?? 0 }
        let times = dayTagTime[day] ?? []
        return times.count <= 1 ? times.first?.time.wallClock ?? 0 : nil
    }

    /// The completed records of the report's tags that start in `starts` and overlap `window`.
    func records(overlapping window: Span, startingIn starts: Span) throws(ReadModelError) -> [Tagged] {
        let overlapping = try model.database.statement(
            "SELECT start_ms, end_ms, tag_id FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?")
        try overlapping.bind(
            .integer(max(starts.start, window.start - longest)), .integer(min(starts.end, window.end)),
            .integer(window.start))
        var records: [Tagged] = []
        while try overlapping.step() {
            let tag = shown(overlapping.entityID(2))
            guard matches(tag) else { continue }
            records.append(Tagged(span: (overlapping.integer(0), overlapping.integer(1)), tag: tag))
        }
        return records
    }

    /// The parts inside `window` of the completed records of the report's tags that start in `starts`.
    func parts(of window: Span, startingIn starts: Span) throws(ReadModelError) -> [Tagged] {
        Self.cut(try records(overlapping: window, startingIn: starts), to: window)
    }

    /// `spans` cut to `window`, those with time inside it.
    static func cut(_ spans: [Tagged], to window: Span) -> [Tagged] {
        spans.compactMap { record in
            let span = (max(record.span.start, window.start), min(record.span.end, window.end))
            return span.0 < span.1 ? Tagged(span: span, tag: record.tag) : nil
        }
    }

    static func union(_ spans: [Tagged]) -> Int64 {
        TimeReport.unionLength(of: spans.map { ($0.span.start, $0.span.end) })
    }

    /// The totals of a range that every record starts in, by tag alone and of every tag, from the sums over
    /// every day (`tag_totals`, `wall_total`) and the running records.
    mutating func everyRecord() throws(ReadModelError) -> TimeReport.Totals {
        var totals = TimeReport.Totals()
        let sums = try model.database.statement("SELECT tag_id, records, crossing, milliseconds FROM tag_totals")
        while try sums.step() {
            totals.perTag[shown(sums.entityID(0)), default: 0] += sums.integer(3)
            totals.recordCount += Int(sums.integer(1))
            crossingMidnight += Int(sums.integer(2))
        }
        // The running records count up to now. The days they cover wholly are whole on the wall clock; the
        // others they reach (their first and last) have their wall clock computed with them.
        var partDays = Set<Int64>()
        for record in running {
            totals.perTag[record.tag, default: 0] += record.span.end - record.span.start
            totals.recordCount += 1
            let edges = WholeDayRuns.edgeDays(of: record.span, calendar: head.calendar)
            if edges[0] != edges[1] { crossingMidnight += 1 }
            partDays.formUnion(edges)
        }
        let total = try model.database.statement("SELECT milliseconds FROM wall_total")
        guard try total.step() else { throw ReadModelError("the wall_total row is missing") }
        totals.wallClock = total.integer(0)
        let whole = WholeDayRuns(running.map(\.span), within: Int64.min...Int64.max, calendar: head.calendar)
        for run in whole.runs {
            let stored = try model.database.statement(
                "SELECT coalesce(sum(milliseconds), 0) FROM day_wall WHERE day >= ? AND day <= ?")
            try stored.bind(.integer(run.lowerBound), .integer(run.upperBound))
            if try stored.step() { totals.wallClock -= stored.integer(0) }
        }
        totals.wallClock += whole.milliseconds(calendar: head.calendar)
        for day in partDays where !whole.contains(day) {
            let stored = try model.database.statement("SELECT milliseconds FROM day_wall WHERE day = ?")
            try stored.bind(.integer(day))
            if try stored.step() { totals.wallClock -= stored.integer(0) }
            totals.wallClock += try model.wallClock(
                from: start(of: day), to: start(of: day + 1), longest: longest, adding: running.map(\.span))
        }
        return totals
    }
}

// Whole on the start day.
extension ReportTotalsRead {
    private mutating func wholeOnStartDay(_ grouping: TimeReport.Grouping) throws(ReadModelError)
        -> (TimeReport.Totals, [CivilDate: TimeReport.Totals])
    {
        var whole = TimeReport.Totals()
        for day in cells.values {
            for (tag, cell) in day {
                whole.perTag[tag, default: 0] += cell.milliseconds
                whole.recordCount += cell.records
                crossingMidnight += cell.crossing
            }
        }
        whole.wallClock = try wallClock(from: range.start.milliseconds, to: range.end.milliseconds)
        guard grouping != .tag else { return (whole, [:]) }
        let calendar = head.calendar
        // Only the periods with a day that has records: a range of centuries holds few of them.
        var periods: [CivilDate: TimeReport.Totals] = [:]
        for (day, tags) in cells where day >= firstDay && day <= lastDay {
            let first = TimeReport.periodStart(
                of: CivilDate(daysSinceEpoch: day), grouping: grouping, calendar: calendar)
            for (tag, cell) in tags {
                periods[first, default: .init()].perTag[tag, default: 0] += cell.milliseconds
                periods[first, default: .init()].recordCount += cell.records
            }
        }
        for (first, totals) in periods {
            guard totals.recordCount > 0 else {
                periods[first] = nil
                continue
            }
            let next = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
            periods[first]?.wallClock = try wallClock(
                from: max(range.start, calendar.startOfDay(first)).milliseconds,
                to: min(range.end, calendar.startOfDay(next)).milliseconds)
        }
        return (whole, periods)
    }

    /// The union of the spans of the report's records that start in `[from, to)` (within the range).
    private func wallClock(from: Int64, to: Int64) throws(ReadModelError) -> Int64 {
        let calendar = head.calendar
        let first = calendar.date(of: Instant(milliseconds: from)).daysSinceEpoch
        let last = calendar.date(of: Instant(milliseconds: to - 1)).daysSinceEpoch
        let running = running.filter { $0.span.start >= from && $0.span.start < to }
        // The days a running record covers wholly: whole on the wall clock.
        let whole = WholeDayRuns(running.map(\.span), within: first...last, calendar: calendar)
        // The days a record that does not belong here reaches, or a running record reaches in part: computed
        // again.
        var computed = cutDays(from: from, to: to)
        for day in severalTagDays where day >= first && day <= last { computed.insert(day) }
        for record in crossers where record.span.start < from && record.span.end > from {
            computed.formUnion(
                ReadModel.days(from: from, to: record.span.end, calendar: calendar).filter { $0 <= last })
        }
        for record in running {
            computed.formUnion(WholeDayRuns.edgeDays(of: record.span, calendar: calendar).filter { $0 <= last })
        }
        var total = whole.milliseconds(calendar: calendar)
        for day in computed where !whole.contains(day) {
            let window = (start(of: day), start(of: day + 1))
            total += Self.union(try parts(of: window, startingIn: (from, to)) + Self.cut(running, to: window))
        }
        for day in WholeDayRuns.slice(of: wallDays, in: first...last)
        where !computed.contains(day) && !whole.contains(day) {
            total += storedWall(of: day) ?? 0
        }
        // After the last day: the parts of the records that run on past it.
        let after = start(of: last + 1)
        let beyond = crossers.filter { $0.span.start >= from && $0.span.start < to } + running
        return total + Self.union(Self.cut(beyond, to: (after, Int64.max)))
    }
}
