import StintCore

/// The day-and-tag totals (schema 10, docs/read-models.md): per local day of the log's calendar, the completed
/// records that start on it, by tag (how many, how many end on a later day, how many have no length, their
/// time), the time of each tag's completed records inside the day (their parts cut to the day, summed and as a
/// union), and the day's wall clock (the union of the completed records' spans cut to the day); and their
/// sums over every day, per tag (`tag_totals`) and of the wall clock (`wall_total`). Every write of the records
/// keeps them: the days a record's stored and new spans touch are computed again from `records` before the
/// transaction ends, the sums changed by the difference; a rebuild computes them all in one ordered scan.
/// `report` reads them (`ReadModel+ReportTotals.swift`, `ReportTotalsRead`) instead of the records.
extension ReadModel {
    static let dayTotalsSchema = """
        CREATE TABLE day_tag_totals (
            day INTEGER NOT NULL,
            tag_id TEXT NOT NULL,
            records INTEGER NOT NULL,
            crossing INTEGER NOT NULL,
            empty INTEGER NOT NULL,
            milliseconds INTEGER NOT NULL,
            PRIMARY KEY (day, tag_id)
        ) WITHOUT ROWID;
        CREATE TABLE day_tag_time (
            day INTEGER NOT NULL,
            tag_id TEXT NOT NULL,
            milliseconds INTEGER NOT NULL,
            wall_clock INTEGER NOT NULL,
            PRIMARY KEY (day, tag_id)
        ) WITHOUT ROWID;
        CREATE TABLE day_wall (day INTEGER PRIMARY KEY, milliseconds INTEGER NOT NULL);
        CREATE TABLE tag_totals (
            tag_id TEXT PRIMARY KEY,
            records INTEGER NOT NULL,
            crossing INTEGER NOT NULL,
            milliseconds INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE wall_total (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), milliseconds INTEGER NOT NULL);
        INSERT INTO wall_total (singleton, milliseconds) VALUES (1, 0);
        """

    /// Notes the span record `key` has in `records` before a write replaces or removes it (`prior`'s, when the
    /// writer knows what the tables held), and `record`'s new one: the days both touch are computed again by
    /// ``writeDayTotals(calendar:)``.
    func noteSpans(replacing key: SQLiteValue, with record: Record?, prior: PriorRow?) throws(ReadModelError) {
        if let prior {
            if let span = prior.span { touchedSpans.append(span) }
        } else {
            let stored = try database.statement(Self.storedSpan)
            try stored.bind(key)
            if try stored.step() { touchedSpans.append((stored.integer(0), stored.integer(1))) }
        }
        if let record, let end = record.end { touchedSpans.append((record.start.milliseconds, end.milliseconds)) }
    }

    /// Computes again, from `records`, the totals of every day the spans noted since the last call touch.
    func writeDayTotals(calendar: LogCalendar) throws(ReadModelError) {
        try widenBoundToWrittenRecords()
        guard !touchedSpans.isEmpty else { return }
        var days = Set<Int64>()
        for (start, end) in touchedSpans { days.formUnion(Self.days(from: start, to: end, calendar: calendar)) }
        touchedSpans = []
        let longest = try longestRecord()
        for day in days.sorted() { try writeTotals(ofDay: day, calendar: calendar, longest: longest) }
    }

    /// The local days (days since 1970-01-01) a span `[start, end)` covers: its start's, and every one up to its
    /// last instant's (a span of no length covers its start's).
    static func days(from start: Int64, to end: Int64, calendar: LogCalendar) -> ClosedRange<Int64> {
        let first = calendar.date(of: Instant(milliseconds: start)).daysSinceEpoch
        let last = end > start ? calendar.date(of: Instant(milliseconds: end - 1)).daysSinceEpoch : first
        return first...max(first, last)
    }

    /// Replaces every day's totals with those of the whole `records` table (after a bulk load, its indexes
    /// built): one scan in start order, holding a day's cells and the wall clock per day.
    func rebuildDayTotals(calendar: LogCalendar) throws(ReadModelError) {
        try widenBoundToWrittenRecords()
        touchedSpans = []
        try database.execute(
            """
            DELETE FROM day_tag_totals; DELETE FROM day_tag_time; DELETE FROM day_wall; DELETE FROM tag_totals;
            UPDATE wall_total SET milliseconds = 0
            """)
        let rows = try database.statement(
            "SELECT start_ms, end_ms, tag_id FROM records WHERE end_ms IS NOT NULL ORDER BY start_ms")
        var sweep = DayTotalsSweep(calendar: calendar)
        while try rows.step() {
            let cells = sweep.add(start: rows.integer(0), end: rows.integer(1), tag: rows.text(2) ?? "")
            if let (day, cells) = cells { try insert(cells, day: day) }
        }
        if let (day, cells) = sweep.finishDay() { try insert(cells, day: day) }
        let (wall, tagTime) = sweep.finish()
        for (day, milliseconds) in wall where milliseconds > 0 {
            try database.statement("INSERT INTO day_wall (day, milliseconds) VALUES (?, ?)").bind(
                .integer(day), .integer(milliseconds)
            ).run()
            try addToWallTotal(milliseconds)
        }
        for (day, tags) in tagTime { try insert(tags, intoTimeOf: day) }
    }

    /// One day's cells and wall clock, computed from the completed records that start on it and those that
    /// overlap it (no completed record is longer than `longest`).
    private func writeTotals(ofDay day: Int64, calendar: LogCalendar, longest: Int64) throws(ReadModelError) {
        let date = CivilDate(daysSinceEpoch: day)
        let dayStart = calendar.startOfDay(date).milliseconds
        let dayEnd = calendar.startOfDay(date.adding(days: 1)).milliseconds
        let stored = try database.statement(
            "SELECT tag_id, records, crossing, milliseconds FROM day_tag_totals WHERE day = ?")
        try stored.bind(.integer(day))
        while try stored.step() {
            try addToTagTotals(
                stored.text(0) ?? "",
                DayTotalsSweep.Cell(
                    records: -Int(stored.integer(1)), crossing: -Int(stored.integer(2)),
                    milliseconds: -stored.integer(3)))
        }
        try database.statement("DELETE FROM day_tag_totals WHERE day = ?").bind(.integer(day)).run()
        try database.statement("DELETE FROM day_tag_time WHERE day = ?").bind(.integer(day)).run()
        let starting = try database.statement(
            "SELECT start_ms, end_ms, tag_id FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms IS NOT NULL")
        try starting.bind(.integer(dayStart), .integer(dayEnd))
        var cells: [String: DayTotalsSweep.Cell] = [:]
        while try starting.step() {
            cells[starting.text(2) ?? "", default: .init()].add(
                start: starting.integer(0), end: starting.integer(1), dayEnd: dayEnd)
        }
        try insert(cells, day: day)
        try database.execute("DELETE FROM tag_totals WHERE records = 0")
        let storedWall = try database.statement("SELECT milliseconds FROM day_wall WHERE day = ?")
        try storedWall.bind(.integer(day))
        if try storedWall.step() { try addToWallTotal(-storedWall.integer(0)) }
        let parts = try completedParts(from: dayStart, to: dayEnd, longest: longest)
        let wall = TimeReport.unionLength(of: parts.map { ($0.start, $0.end) })
        try insert(DayTotalsSweep.tagTime(of: parts), intoTimeOf: day)
        try addToWallTotal(wall)
        if wall > 0 {
            try database.statement("INSERT OR REPLACE INTO day_wall (day, milliseconds) VALUES (?, ?)").bind(
                .integer(day), .integer(wall)
            ).run()
        } else {
            try database.statement("DELETE FROM day_wall WHERE day = ?").bind(.integer(day)).run()
        }
    }

    /// The union of the completed records' spans and `extra` spans, cut to `[from, to)`.
    func wallClock(from: Int64, to: Int64, longest: Int64, adding extra: [(Int64, Int64)]) throws(ReadModelError)
        -> Int64
    {
        var spans = extra.compactMap { span -> (Int64, Int64)? in
            let cut = (max(span.0, from), min(span.1, to))
            return cut.0 < cut.1 ? cut : nil
        }
        spans += try completedParts(from: from, to: to, longest: longest).map { ($0.start, $0.end) }
        return TimeReport.unionLength(of: spans)
    }

    /// The parts inside `[from, to)` of the completed records that overlap it (no completed record is longer
    /// than `longest`), with their stored tag ids ("" for none).
    func completedParts(from: Int64, to: Int64, longest: Int64) throws(ReadModelError) -> [DayTotalsSweep.Part] {
        let overlapping = try database.statement(
            "SELECT start_ms, end_ms, tag_id FROM records WHERE start_ms >= ? AND start_ms < ? AND end_ms > ?")
        try overlapping.bind(.integer(from - longest), .integer(to), .integer(from))
        var parts: [DayTotalsSweep.Part] = []
        while try overlapping.step() {
            parts.append(
                .init(
                    start: max(overlapping.integer(0), from), end: min(overlapping.integer(1), to),
                    tag: overlapping.text(2) ?? ""))
        }
        return parts
    }

    private func addToTagTotals(_ tag: String, _ cell: DayTotalsSweep.Cell) throws(ReadModelError) {
        try database.statement(
            """
            INSERT INTO tag_totals (tag_id, records, crossing, milliseconds) VALUES (?, ?, ?, ?)
            ON CONFLICT (tag_id) DO UPDATE SET records = records + excluded.records,
                crossing = crossing + excluded.crossing, milliseconds = milliseconds + excluded.milliseconds
            """
        ).bind(.text(tag), .integer(Int64(cell.records)), .integer(Int64(cell.crossing)), .integer(cell.milliseconds))
            .run()
    }

    private func addToWallTotal(_ milliseconds: Int64) throws(ReadModelError) {
        guard milliseconds != 0 else { return }
        try database.statement("UPDATE wall_total SET milliseconds = milliseconds + ?").bind(.integer(milliseconds))
            .run()
    }

    /// Inserts a day's cells, adding them to the per-tag sums.
    private func insert(_ cells: [String: DayTotalsSweep.Cell], day: Int64) throws(ReadModelError) {
        for (tag, cell) in cells {
            try addToTagTotals(tag, cell)
            try database.statement(
                """
                INSERT INTO day_tag_totals (day, tag_id, records, crossing, empty, milliseconds)
                VALUES (?, ?, ?, ?, ?, ?)
                """
            ).bind(
                .integer(day), .text(tag), .integer(Int64(cell.records)), .integer(Int64(cell.crossing)),
                .integer(Int64(cell.empty)), .integer(cell.milliseconds)
            ).run()
        }
    }

    /// Inserts a day's time per tag.
    private func insert(_ tags: [String: DayTotalsSweep.TagTime], intoTimeOf day: Int64) throws(ReadModelError) {
        for (tag, time) in tags where time.milliseconds > 0 {
            try database.statement(
                "INSERT INTO day_tag_time (day, tag_id, milliseconds, wall_clock) VALUES (?, ?, ?, ?)"
            ).bind(.integer(day), .text(tag), .integer(time.milliseconds), .integer(time.wallClock)).run()
        }
    }
}

/// The day-and-tag totals of completed records given in start order: each day's cells (by tag id, "" for
/// none) once its last record went by, and the wall clock per day (the union of the spans, cut at each
/// midnight of `calendar`).
struct DayTotalsSweep {
    /// The completed records of one tag that start on one day.
    struct Cell {
        var records = 0
        /// Those that end on a later day.
        var crossing = 0
        /// Those of no length.
        var empty = 0
        var milliseconds: Int64 = 0

        mutating func add(start: Int64, end: Int64, dayEnd: Int64) {
            records += 1
            if end > dayEnd { crossing += 1 }
            if end == start { empty += 1 }
            milliseconds += end - start
        }

        mutating func add(_ other: Cell) {
            records += other.records
            crossing += other.crossing
            empty += other.empty
            milliseconds += other.milliseconds
        }
    }

    /// One tag's completed records inside one day: their parts' time, summed and as a union.
    struct TagTime {
        var milliseconds: Int64 = 0
        var wallClock: Int64 = 0
    }

    /// A part of a record inside a window, with its stored tag id.
    struct Part {
        var start: Int64
        var end: Int64
        var tag: String
    }

    /// The time per tag of `parts` (of one day).
    static func tagTime(of parts: [Part]) -> [String: TagTime] {
        var spans: [String: [(Int64, Int64)]] = [:]
        for part in parts { spans[part.tag, default: []].append((part.start, part.end)) }
        return spans.mapValues { spans in
            TagTime(milliseconds: spans.reduce(0) { $0 + $1.1 - $1.0 }, wallClock: TimeReport.unionLength(of: spans))
        }
    }

    let calendar: LogCalendar
    private var day: (number: Int64, start: Int64, end: Int64)?
    private var cells: [String: Cell] = [:]
    /// The spans merged so far whose end is not yet known.
    private var open: (start: Int64, end: Int64)?
    private var wall: [Int64: Int64] = [:]
    /// Per tag, the spans merged so far whose end is not yet known.
    private var openByTag: [String: (start: Int64, end: Int64)] = [:]
    private var tagTime: [Int64: [String: TagTime]] = [:]

    init(calendar: LogCalendar) {
        self.calendar = calendar
    }

    /// Adds a record (its start not before the last one's); returns the cells of the day it leaves behind.
    mutating func add(start: Int64, end: Int64, tag: String) -> (Int64, [String: Cell])? {
        var finished: (Int64, [String: Cell])?
        if day.map({ start < $0.start || start >= $0.end }) ?? true {
            finished = finishDay()
            let date = calendar.date(of: Instant(milliseconds: start))
            day = (
                date.daysSinceEpoch, calendar.startOfDay(date).milliseconds,
                calendar.startOfDay(date.adding(days: 1)).milliseconds
            )
        }
        cells[tag, default: Cell()].add(start: start, end: end, dayEnd: day!.end)
        if let current = open, start <= current.end {
            open = (current.start, max(current.end, end))
        } else {
            if let current = open { Self.forEachDay(of: current, calendar: calendar) { wall[$0, default: 0] += $1 } }
            open = (start, end)
        }
        Self.forEachDay(of: (start, end), calendar: calendar) {
            tagTime[$0, default: [:]][tag, default: TagTime()].milliseconds += $1
        }
        if let current = openByTag[tag], start <= current.end {
            openByTag[tag] = (current.start, max(current.end, end))
        } else {
            if let current = openByTag[tag] { addToWallClock(of: tag, current) }
            openByTag[tag] = (start, end)
        }
        return finished
    }

    /// The cells of the day being summed, if any.
    mutating func finishDay() -> (Int64, [String: Cell])? {
        defer { cells = [:] }
        guard let day, !cells.isEmpty else { return nil }
        return (day.number, cells)
    }

    /// The wall clock per day and the time per day and tag, once every record was added.
    mutating func finish() -> (wall: [Int64: Int64], tagTime: [Int64: [String: TagTime]]) {
        if let current = open { Self.forEachDay(of: current, calendar: calendar) { wall[$0, default: 0] += $1 } }
        open = nil
        for (tag, span) in openByTag { addToWallClock(of: tag, span) }
        openByTag = [:]
        return (wall, tagTime)
    }

    private mutating func addToWallClock(of tag: String, _ span: (start: Int64, end: Int64)) {
        Self.forEachDay(of: span, calendar: calendar) {
            tagTime[$0, default: [:]][tag, default: TagTime()].wallClock += $1
        }
    }

    /// Calls `body` with each day a span covers and the length of its part inside it.
    ///
    /// Static, so that a mutating caller's closure changes the sweep's tables in place: a method of the sweep
    /// would hold a copy of it while the closure writes, and every record would copy the tables whole.
    private static func forEachDay(
        of span: (start: Int64, end: Int64), calendar: LogCalendar, _ body: (Int64, Int64) -> Void
    ) {
        var cursor = span.start
        var date = calendar.date(of: Instant(milliseconds: cursor))
        while cursor < span.end {
            let next = min(calendar.startOfDay(date.adding(days: 1)).milliseconds, span.end)
            body(date.daysSinceEpoch, next - cursor)
            cursor = next
            date = date.adding(days: 1)
        }
    }
}
