import StintCore
import Testing

@testable import StintEngine

/// What the differential tests check of ``ReportTotalsView``: a report of any range, grouping, attribution and
/// tag filter from the day-and-tag totals is the report of the records (``TimeReport`` of them), with the
/// footer's counts and the bounds the range is resolved from.
enum ReportTotalsCheck {
    /// Asks `source` for `report --all` by tag (the sums over every day), by day, week and month, split at
    /// midnight and of untagged time, and for `count` random ranges (cut mid-day or at midnight, from an hour
    /// to a few months, around the records) with a random grouping, attribution and tag filter (from `seed`),
    /// and compares each with the report of `expected`'s records. Returns whether the views came from the
    /// models: `[true]` when every one did, `[false]` when none did (the caller knows when they must).
    @discardableResult
    static func expect(
        _ source: LogSource, options: EngineOptions, matches expected: ProjectionSource,
        seed: UInt64, count: Int = 3, _ note: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Set<Bool> {
        var random = SplitMix64(seed: seed)
        let wholeHistory: [(TimeReport.Grouping, TimeReport.Attribution, EntityID??)] =
            TimeReport.Grouping.allCases.map { ($0, .wholeOnStartDay, nil) } + [
                (.day, .splitAtMidnight, nil), (.tag, .splitAtMidnight, nil), (.week, .wholeOnStartDay, .some(nil)),
            ]
        var queries: [(ReportTotalsView.Basis) -> ReportTotalsView.Query] = wholeHistory.map {
            grouping, attribution, filter in
            { basis in
                let calendar = basis.calendar
                return ReportTotalsView.Query(
                    range: TimeInterval64(
                        start: calendar.startOfDay(containing: basis.firstStart ?? basis.now),
                        end: calendar.startOfNextDay(after: max(basis.lastEnd ?? basis.now, basis.now))),
                    grouping: grouping, attribution: attribution, tagFilter: filter)
            }
        }
        let tagIds = expected.tags.keys.sorted()
        for _ in 0..<count {
            let records = expected.records
            let anchor = records.isEmpty ? nil : records[Int(random.next() % UInt64(records.count))].start
            let before = Int64(random.next() % 3_000_000_000)
            let length = Int64(random.next() % 8_000_000_000) + 3_600_000
            let atMidnight = random.next() % 2 == 0
            let grouping = TimeReport.Grouping.allCases[Int(random.next() % 4)]
            let attribution: TimeReport.Attribution = random.next() % 2 == 0 ? .wholeOnStartDay : .splitAtMidnight
            let filter: EntityID?? =
                switch random.next() % 4 {
                case 0: .some(nil)
                case 1 where !tagIds.isEmpty: .some(tagIds[Int(random.next() % UInt64(tagIds.count))])
                default: nil
                }
            queries.append { basis in
                let calendar = basis.calendar
                var start = (anchor ?? basis.now).adding(milliseconds: -before)
                var end = start.adding(milliseconds: length)
                if atMidnight {
                    start = calendar.startOfDay(containing: start)
                    end = calendar.startOfNextDay(after: end)
                }
                return ReportTotalsView.Query(
                    range: TimeInterval64(start: start, end: end), grouping: grouping, attribution: attribution,
                    tagFilter: filter)
            }
        }
        var fromModels = Set<Bool>()
        for query in queries {
            var asked: ReportTotalsView.Query?
            let view = source.reportTotalsAtHead(options: options) { basis in
                asked = query(basis)
                return asked
            }
            fromModels.insert(view != nil)
            guard let view, let asked else { continue }
            check(view, asked: asked, matches: expected, note, sourceLocation: sourceLocation)
        }
        return fromModels
    }

    private static func check(
        _ view: ReportTotalsView, asked: ReportTotalsView.Query, matches source: ProjectionSource, _ note: Comment,
        sourceLocation: SourceLocation
    ) {
        let now = view.basis.now
        let calendar = source.calendar
        #expect(view.basis.firstStart == source.records.first?.start, note, sourceLocation: sourceLocation)
        #expect(
            view.basis.lastEnd == source.records.map { max($0.end ?? now, $0.start) }.max(), note,
            sourceLocation: sourceLocation)
        let expected = TimeReport(
            source: source, range: asked.range, grouping: asked.grouping, attribution: asked.attribution,
            tagFilter: asked.tagFilter, now: now)
        #expect(
            view.report == expected,
            "\(note), \(asked.grouping) \(asked.attribution) \(String(describing: asked.tagFilter)) \(asked.range)",
            sourceLocation: sourceLocation)
        var running = 0
        var crossing = 0
        for record in source.records {
            let tag = record.tagId.flatMap { source.tags[$0]?.isDeleted == false ? $0 : nil }
            if let filter = asked.tagFilter, filter != tag { continue }
            let end = record.end ?? max(now, record.start)
            switch asked.attribution {
            case .wholeOnStartDay: guard asked.range.contains(record.start) else { continue }
            case .splitAtMidnight:
                guard max(record.start, asked.range.start) < min(end, asked.range.end) else { continue }
            }
            if record.isRunning { running += 1 }
            if end > record.start, calendar.date(of: record.start) != calendar.date(of: end.adding(milliseconds: -1)) {
                crossing += 1
            }
        }
        #expect(view.running == running, note, sourceLocation: sourceLocation)
        #expect(view.crossingMidnight == crossing, note, sourceLocation: sourceLocation)
        #expect(view.tags == source.tags, note, sourceLocation: sourceLocation)
    }
}

extension ReadModel {
    /// Every row of the day-and-tag totals and their sums, in key order, as text: to compare what the writes kept
    /// with a rebuild.
    func dayTotalRows() throws -> [String] {
        var rows: [String] = []
        let cells = try database.statement(
            "SELECT day, tag_id, records, crossing, empty, milliseconds FROM day_tag_totals ORDER BY day, tag_id")
        while try cells.step() {
            let counts = "\(cells.integer(2)) \(cells.integer(3)) \(cells.integer(4))"
            rows.append("\(cells.integer(0)) \(cells.text(1) ?? "") \(counts) \(cells.integer(5))")
        }
        let times = try database.statement(
            "SELECT day, tag_id, milliseconds, wall_clock FROM day_tag_time ORDER BY day, tag_id")
        while try times.step() {
            rows.append(
                "time \(times.integer(0)) \(times.text(1) ?? "") \(times.integer(2)) \(times.integer(3))")
        }
        let walls = try database.statement("SELECT day, milliseconds FROM day_wall ORDER BY day")
        while try walls.step() { rows.append("wall \(walls.integer(0)) \(walls.integer(1))") }
        let sums = try database.statement(
            "SELECT tag_id, records, crossing, milliseconds FROM tag_totals ORDER BY tag_id")
        while try sums.step() {
            rows.append("sum \(sums.text(0) ?? "") \(sums.integer(1)) \(sums.integer(2)) \(sums.integer(3))")
        }
        let total = try database.statement("SELECT milliseconds FROM wall_total")
        while try total.step() { rows.append("wall total \(total.integer(0))") }
        return rows
    }
}
