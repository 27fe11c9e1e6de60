import StintCore

/// The read of ``ReportTotalsView``: a report of any range from the day-and-tag totals
/// (`ReadModel+DayTotals.swift`), in one read transaction with the check that the models reflect the head.
///
/// A record belongs to the range (and to a period) it starts in and counts whole. The tags' time of a period
/// is the sum of its days' cells; the days a range cuts in two are read record by record, and the running
/// records are added at `now`. The wall clock of a period (the union of its records' spans) is the sum of its
/// days' `day_wall` — each the union of every completed span cut to the day — for every day that no record of
/// another period reaches (one that started before the period and runs into it) and no running record
/// covers; those days are computed again from the records that belong to the period, and the time the
/// period's records run on after its last day is the union of the parts of those that cross its end (they
/// cross a midnight, so they are found through the days whose cells count records crossing one).
extension ReadModel {
    /// ``ReportTotalsView`` from the read models in `directory` when they reflect `subject` as it is now and the
    /// clock is not behind the last event; nil otherwise and when `query` gives nil.
    static func reportTotals(
        in directory: String, of subject: ModelSubject, options: EngineOptions,
        query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?
    ) -> ReportTotalsView? {
        guard options.usesReadModels, let model = ReadModel.openForReading(inLogDirectory: directory) else {
            return nil
        }
        defer { model.close() }
        return try? model.database.reading { () throws(ReadModelError) -> ReportTotalsView? in
            try model.reportTotals(of: subject, now: options.clock(), query: query)
        }
    }

    private func reportTotals(
        of subject: ModelSubject, now: Instant, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?
    ) throws(ReadModelError) -> ReportTotalsView? {
        guard let head = try head(of: subject), now >= head.lastAt else { return nil }
        // One aggregate a query, so that each is one step into its index rather than a scan of the table.
        let firstStart = try instant("SELECT MIN(start_ms) FROM records")
        var lastEnd = try instant("SELECT MAX(end_ms) FROM records")
        if !head.running.isEmpty { lastEnd = max(lastEnd ?? now, head.running.map { max(now, $0.start) }.max()!) }
        let basis = ReportTotalsView.Basis(calendar: head.calendar, now: now, firstStart: firstStart, lastEnd: lastEnd)
        guard let query = query(basis) else { return nil }
        var read = try RangeTotalsRead(model: self, head: head, now: now, range: query.range)
        let lastStart = try instant("SELECT MAX(start_ms) FROM records")
        let everyRecord =
            query.grouping == .tag && firstStart.map { query.range.start <= $0 && lastStart! < query.range.end } ?? true
        if !everyRecord { try read.load() }
        let (whole, crossing) = everyRecord ? try read.everyRecord() : try read.whole()
        let periods = query.grouping == .tag ? [:] : try read.periods(query.grouping)
        return ReportTotalsView(
            basis: basis, tags: head.tags,
            report: TimeReport(
                range: query.range, grouping: query.grouping, whole: whole, periods: periods, tags: head.tags,
                calendar: head.calendar),
            running: read.running.count, crossingMidnight: crossing)
    }

    /// The instant a query of one value gives; nil for NULL.
    private func instant(_ query: String) throws(ReadModelError) -> Instant? {
        let row = try database.statement(query)
        guard try row.step(), !row.isNull(0) else { return nil }
        return Instant(milliseconds: row.integer(0))
    }
}

/// What a report of one range reads (days are local days since 1970-01-01): the cells of the days it covers,
/// their wall clocks, its running records and the completed records that cross a midnight near it.
private struct RangeTotalsRead {
    typealias Span = (start: Int64, end: Int64)

    let model: ReadModel
    let head: ModelHead
    let now: Instant
    let range: TimeInterval64
    /// No completed record is longer.
    let longest: Int64
    let firstDay: Int64
    let lastDay: Int64
    /// The running records that start in the range, counted up to `now`, with their tags as shown.
    let running: [(span: Span, tag: EntityID?)]
    /// After ``load()``: per day the range touches, the records that start on it and in the range, by tag as shown.
    private(set) var cells: [Int64: [EntityID?: DayTotalsSweep.Cell]] = [:]
    /// After ``load()``: `day_wall` of the days wholly in the range.
    private var dayWall: [Int64: Int64] = [:]
    /// After ``load()``: the completed records that start from `longest` before the range to its end and end on a later day.
    private var crossers: [Span] = []

    init(model: ReadModel, head: ModelHead, now: Instant, range: TimeInterval64) throws(ReadModelError) {
        self.model = model
        self.head = head
        self.now = now
        self.range = range
        longest = try model.longestRecord()
        let calendar = head.calendar
        firstDay = calendar.date(of: range.start).daysSinceEpoch
        lastDay = calendar.date(of: range.end.adding(milliseconds: -1)).daysSinceEpoch
        running = head.running.filter { range.contains($0.start) }.map { record in
            ((record.start.milliseconds, max(now, record.start).milliseconds), Self.shown(record.tagId, in: head))
        }
    }

    /// Reads what ``whole()`` and ``periods(_:)`` sum.
    mutating func load() throws(ReadModelError) {
        try readCells()
        try readCrossers()
    }

    /// A deleted or unknown tag's time is untagged, as in a report of the records.
    static func shown(_ tag: EntityID?, in head: ModelHead) -> EntityID? {
        tag.flatMap { head.tags[$0]?.isDeleted == false ? $0 : nil }
    }

    func start(of day: Int64) -> Int64 {
        head.calendar.startOfDay(CivilDate(daysSinceEpoch: day)).milliseconds
    }

    /// Whether `day` lies wholly in `[from, to)`.
    func isWhole(_ day: Int64, in from: Int64, _ to: Int64) -> Bool {
        start(of: day) >= from && start(of: day + 1) <= to
    }

    /// The cells of the range's days: the stored ones of the days wholly in it, the records of the days it
    /// cuts, and the running records.
    private mutating func readCells() throws(ReadModelError) {
        let (from, to) = (range.start.milliseconds, range.end.milliseconds)
        let firstWhole = isWhole(firstDay, in: from, to) ? firstDay : firstDay + 1
        let lastWhole = isWhole(lastDay, in: from, to) ? lastDay : lastDay - 1
        if firstWhole <= lastWhole {
            let stored = try model.database.statement(
                "SELECT day, tag_id, records, crossing, milliseconds FROM day_tag_totals WHERE day >= ? AND day <= ?")
            try stored.bind(.integer(firstWhole), .integer(lastWhole))
            while try stored.step() {
                let cell = DayTotalsSweep.Cell(
                    records: Int(stored.integer(2)), crossing: Int(stored.integer(3)), milliseconds: stored.integer(4))
                cells[stored.integer(0), default: [:]][Self.shown(stored.entityID(1), in: head), default: .init()]
                    .add(cell)
            }
            let walls = try model.database.statement(
                "SELECT day, milliseconds FROM day_wall WHERE day >= ? AND day <= ?")
            try walls.bind(.integer(firstWhole), .integer(lastWhole))
            while try walls.step() { dayWall[walls.integer(0)] = walls.integer(1) }
        }
        for day in Set([firstDay, lastDay]) where !isWhole(day, in: from, to) {
            let starting = try model.database.statement(
                "SELECT start_ms, end_ms, tag_id FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms IS NOT NULL"
            )
            try starting.bind(.integer(max(from, start(of: day))), .integer(min(to, start(of: day + 1))))
            while try starting.step() {
                cells[day, default: [:]][Self.shown(starting.entityID(2), in: head), default: .init()].add(
                    start: starting.integer(0), end: starting.integer(1), dayEnd: start(of: day + 1))
            }
        }
        for (span, tag) in running {
            let day = head.calendar.date(of: Instant(milliseconds: span.start)).daysSinceEpoch
            cells[day, default: [:]][tag, default: .init()].add(
                start: span.start, end: span.end, dayEnd: start(of: day + 1))
        }
    }

    /// After ``load()``: the completed records that start from `longest` before the range to its end and cross a midnight, found
    /// through the days whose cells count such records.
    private mutating func readCrossers() throws(ReadModelError) {
        let days = try model.database.statement(
            "SELECT DISTINCT day FROM day_tag_totals WHERE day >= ? AND day <= ? AND crossing > 0 ORDER BY day")
        let earliest = head.calendar.date(of: range.start.adding(milliseconds: -longest)).daysSinceEpoch
        try days.bind(.integer(earliest), .integer(lastDay))
        var crossingDays: [Int64] = []
        while try days.step() { crossingDays.append(days.integer(0)) }
        for day in crossingDays {
            let rows = try model.database.statement(
                "SELECT start_ms, end_ms FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?")
            try rows.bind(.integer(start(of: day)), .integer(start(of: day + 1)), .integer(start(of: day + 1)))
            while try rows.step() { crossers.append((rows.integer(0), rows.integer(1))) }
        }
    }

    /// The whole range's totals and how many of its records cross a midnight.
    func whole() throws(ReadModelError) -> (TimeReport.Totals, Int) {
        var totals = TimeReport.Totals()
        var crossing = 0
        for day in cells.values {
            for (tag, cell) in day {
                totals.perTag[tag, default: 0] += cell.milliseconds
                totals.recordCount += cell.records
                crossing += cell.crossing
            }
        }
        totals.wallClock = try wallClock(from: range.start.milliseconds, to: range.end.milliseconds)
        return (totals, crossing)
    }

    /// The totals of each period of `grouping` that has records in the range, by its first day.
    func periods(_ grouping: TimeReport.Grouping) throws(ReadModelError) -> [CivilDate: TimeReport.Totals] {
        let calendar = head.calendar
        var periods: [CivilDate: TimeReport.Totals] = [:]
        var first = TimeReport.periodStart(
            of: CivilDate(daysSinceEpoch: firstDay), grouping: grouping, calendar: calendar)
        while first.daysSinceEpoch <= lastDay {
            let next = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
            var totals = TimeReport.Totals()
            for day in max(first.daysSinceEpoch, firstDay)..<min(next.daysSinceEpoch, lastDay + 1) {
                for (tag, cell) in cells[day] ?? [:] {
                    totals.perTag[tag, default: 0] += cell.milliseconds
                    totals.recordCount += cell.records
                }
            }
            if totals.recordCount > 0 {
                totals.wallClock = try wallClock(
                    from: max(range.start, calendar.startOfDay(first)).milliseconds,
                    to: min(range.end, calendar.startOfDay(next)).milliseconds)
                periods[first] = totals
            }
            first = next
        }
        return periods
    }

    /// The union of the spans of the records that start in `[from, to)` (within the range).
    private func wallClock(from: Int64, to: Int64) throws(ReadModelError) -> Int64 {
        let calendar = head.calendar
        let first = calendar.date(of: Instant(milliseconds: from)).daysSinceEpoch
        let last = calendar.date(of: Instant(milliseconds: to - 1)).daysSinceEpoch
        let running = running.map(\.span).filter { $0.start >= from && $0.start < to }
        // The days some record that does not belong here reaches, or a running record covers: computed again.
        var computed = Set((first...last).filter { !isWhole($0, in: from, to) })
        for span in crossers where span.start < from && span.end > from {
            computed.formUnion(ReadModel.days(from: from, to: span.end, calendar: calendar).filter { $0 <= last })
        }
        for span in running {
            computed.formUnion(ReadModel.days(from: span.start, to: span.end, calendar: calendar).filter { $0 <= last })
        }
        var total: Int64 = 0
        for day in first...last {
            if computed.contains(day) {
                total += try wallClock(ofDay: day, from: from, to: to, running: running)
            } else {
                total += dayWall[day] ?? 0
            }
        }
        // After the last day: the parts of the records that run on past it.
        let after = start(of: last + 1)
        let beyond = (crossers.filter { $0.start >= from && $0.start < to } + running).compactMap {
            span -> (Int64, Int64)? in span.end > after ? (after, span.end) : nil
        }
        return total + TimeReport.unionLength(of: beyond)
    }

    /// The union of the spans of the records that start in `[from, to)`, cut to `day`.
    private func wallClock(ofDay day: Int64, from: Int64, to: Int64, running: [Span]) throws(ReadModelError) -> Int64 {
        let (dayStart, dayEnd) = (start(of: day), start(of: day + 1))
        let overlapping = try model.database.statement(
            "SELECT start_ms, end_ms FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?")
        try overlapping.bind(.integer(max(from, dayStart - longest)), .integer(min(to, dayEnd)), .integer(dayStart))
        var spans: [(Int64, Int64)] = running.compactMap { span in
            let cut = (max(span.start, dayStart), min(span.end, dayEnd))
            return cut.0 < cut.1 ? cut : nil
        }
        while try overlapping.step() {
            spans.append((max(overlapping.integer(0), dayStart), min(overlapping.integer(1), dayEnd)))
        }
        return TimeReport.unionLength(of: spans)
    }

    /// The totals of a range that every record starts in, from the sums over every day (`tag_totals`,
    /// `wall_total`) and the running records; and how many records cross a midnight.
    func everyRecord() throws(ReadModelError) -> (TimeReport.Totals, Int) {
        var totals = TimeReport.Totals()
        var crossing = 0
        let sums = try model.database.statement("SELECT tag_id, records, crossing, milliseconds FROM tag_totals")
        while try sums.step() {
            totals.perTag[Self.shown(sums.entityID(0), in: head), default: 0] += sums.integer(3)
            totals.recordCount += Int(sums.integer(1))
            crossing += Int(sums.integer(2))
        }
        // The running records count up to now; the days they cover have their wall clock computed with them.
        var runningDays = Set<Int64>()
        for (span, tag) in running {
            totals.perTag[tag, default: 0] += span.end - span.start
            totals.recordCount += 1
            let days = ReadModel.days(from: span.start, to: span.end, calendar: head.calendar)
            if days.count > 1 { crossing += 1 }
            runningDays.formUnion(days)
        }
        let total = try model.database.statement("SELECT milliseconds FROM wall_total")
        guard try total.step() else { throw ReadModelError("the wall_total row is missing") }
        totals.wallClock = total.integer(0)
        for day in runningDays {
            let stored = try model.database.statement("SELECT milliseconds FROM day_wall WHERE day = ?")
            try stored.bind(.integer(day))
            if try stored.step() { totals.wallClock -= stored.integer(0) }
            totals.wallClock += try model.wallClock(
                from: start(of: day), to: start(of: day + 1), longest: longest, adding: running.map(\.span))
        }
        return (totals, crossing)
    }
}
