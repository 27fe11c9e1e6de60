import StintCore

/// The read of ``TagTotalsView``: the completed records' sums per tag and of the wall clock
/// (`ReadModel+DayTotals.swift`), and the running records added at the read's `now` (the days they cover get
/// their wall clock computed again with them), in one read transaction with the check that the models
/// reflect the head: a few dozen rows whatever the length of the history.
extension ReadModel {
    /// ``TagTotalsView`` from the read models in `directory` when they reflect `subject` as it is now and the
    /// clock is not behind the last event; nil otherwise.
    static func tagTotals(in directory: String, of subject: ModelSubject, options: EngineOptions) -> TagTotalsView? {
        guard options.usesReadModels, let model = ReadModel.openForReading(inLogDirectory: directory) else {
            return nil
        }
        defer { model.close() }
        return try? model.database.reading { () throws(ReadModelError) -> TagTotalsView? in
            try model.tagTotals(of: subject, now: options.clock())
        }
    }

    private func tagTotals(of subject: ModelSubject, now: Instant) throws(ReadModelError) -> TagTotalsView? {
        guard let head = try head(of: subject), now >= head.lastAt else { return nil }
        let calendar = head.calendar
        // A deleted or unknown tag's time is untagged, as in a report of the records.
        func shown(_ tag: EntityID?) -> EntityID? { tag.flatMap { head.tags[$0]?.isDeleted == false ? $0 : nil } }
        var perTag: [EntityID?: TagTotalsView.Tagged] = [:]
        func add(_ tag: EntityID?, records: Int, milliseconds: Int64) {
            perTag[tag, default: .init(records: 0, milliseconds: 0)].records += records
            perTag[tag, default: .init(records: 0, milliseconds: 0)].milliseconds += milliseconds
        }
        var recordCount = 0
        var crossing = 0
        let sums = try database.statement(
            "SELECT tag_id, records, crossing, milliseconds FROM tag_totals")
        while try sums.step() {
            let records = Int(sums.integer(1))
            add(shown(sums.entityID(0)), records: records, milliseconds: sums.integer(3))
            recordCount += records
            crossing += Int(sums.integer(2))
        }
        // The running records count up to now; the days they cover have their wall clock computed with them.
        var running: [(Int64, Int64)] = []
        var runningDays = Set<Int64>()
        for record in head.running {
            let span = (record.start.milliseconds, max(now, record.start).milliseconds)
            running.append(span)
            add(shown(record.tagId), records: 1, milliseconds: span.1 - span.0)
            recordCount += 1
            let days = Self.days(from: span.0, to: span.1, calendar: calendar)
            if days.count > 1 { crossing += 1 }
            runningDays.formUnion(days)
        }
        let total = try database.statement("SELECT milliseconds FROM wall_total")
        guard try total.step() else { throw ReadModelError("the wall_total row is missing") }
        var wallClock = total.integer(0)
        let longest = try longestRecord()
        for day in runningDays {
            let stored = try database.statement("SELECT milliseconds FROM day_wall WHERE day = ?")
            try stored.bind(.integer(day))
            if try stored.step() { wallClock -= stored.integer(0) }
            let date = CivilDate(daysSinceEpoch: day)
            wallClock += try self.wallClock(
                from: calendar.startOfDay(date).milliseconds,
                to: calendar.startOfDay(date.adding(days: 1)).milliseconds, longest: longest, adding: running)
        }
        // One aggregate a query, so that each is one step into its index rather than a scan of the table.
        let firstStart = try instant("SELECT MIN(start_ms) FROM records")
        var lastEnd = try instant("SELECT MAX(end_ms) FROM records")
        if !head.running.isEmpty { lastEnd = max(lastEnd ?? now, head.running.map { max(now, $0.start) }.max()!) }
        return TagTotalsView(
            calendar: calendar, tags: head.tags, now: now, perTag: perTag, wallClock: wallClock,
            recordCount: recordCount, running: head.running.count, crossingMidnight: crossing,
            firstStart: firstStart, lastEnd: lastEnd)
    }

    /// The instant a query of one value gives; nil for NULL.
    private func instant(_ query: String) throws(ReadModelError) -> Instant? {
        let row = try database.statement(query)
        guard try row.step(), !row.isNull(0) else { return nil }
        return Instant(milliseconds: row.integer(0))
    }
}
