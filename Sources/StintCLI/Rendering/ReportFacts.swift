import StintCore
import StintEngine

/// What a report's footer says besides the totals: how many records ran and crossed midnight.
struct ReportFacts {
    /// Records that contributed time and are running.
    var running = 0
    /// Records that contributed time and cross a midnight.
    var crossingMidnight = 0

    init(running: Int, crossingMidnight: Int) {
        self.running = running
        self.crossingMidnight = crossingMidnight
    }

    init(
        source: ProjectionSource, range: TimeInterval64, attribution: TimeReport.Attribution, tagFilter: EntityID??,
        now: Instant
    ) {
        let calendar = source.calendar
        for record in source.records {
            let tagId = record.tagId.flatMap { source.tags[$0]?.isDeleted == false ? $0 : nil }
            if let tagFilter, tagFilter != tagId { continue }
            let end = record.end ?? max(now, record.start)
            let contributes =
                switch attribution {
                case .wholeOnStartDay: range.contains(record.start)
                case .splitAtMidnight: max(record.start, range.start) < min(end, range.end)
                }
            guard contributes else { continue }
            if record.isRunning { running += 1 }
            if end > record.start, calendar.date(of: record.start) != calendar.date(of: end.adding(milliseconds: -1)) {
                crossingMidnight += 1
            }
        }
    }
}
