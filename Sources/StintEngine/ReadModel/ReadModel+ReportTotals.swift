import StintCore

/// The read of ``ReportTotalsView``: a report of any range from the day-and-tag totals
/// (`ReadModel+DayTotals.swift`, `ReportTotalsRead`), in one read transaction with the check that the models
/// reflect the head.
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
        let basis = ReportTotalsView.Basis(
            calendar: head.calendar, now: now, firstStart: firstStart, lastEnd: lastEnd, tags: head.tags)
        guard let query = query(basis) else { return nil }
        var read = try ReportTotalsRead(model: self, head: head, now: now, query: query)
        let lastStart = try instant("SELECT MAX(start_ms) FROM records")
        // Every record in the range, by tag alone: the sums over every day.
        let everyRecord =
            query.grouping == .tag && query.attribution == .wholeOnStartDay && query.tagFilter == nil
            && firstStart.map { query.range.start <= $0 && lastStart! < query.range.end } ?? true
        let (whole, periods) = everyRecord ? (try read.everyRecord(), [:]) : try read.totals(query.grouping)
        return ReportTotalsView(
            basis: basis, tags: head.tags,
            report: TimeReport(
                range: query.range, grouping: query.grouping, attribution: query.attribution, whole: whole,
                periods: periods, tags: head.tags, calendar: head.calendar),
            running: read.runningCount, crossingMidnight: read.crossingMidnight)
    }

    /// The instant a query of one value gives; nil for NULL.
    private func instant(_ query: String) throws(ReadModelError) -> Instant? {
        let row = try database.statement(query)
        guard try row.step(), !row.isNull(0) else { return nil }
        return Instant(milliseconds: row.integer(0))
    }
}
