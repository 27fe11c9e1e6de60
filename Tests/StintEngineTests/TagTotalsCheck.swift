import StintCore
import Testing

@testable import StintEngine

/// What the differential tests check of ``TagTotalsView``: it gives `report --all --by tag` exactly as a report
/// of every record does, with the footer's counts and the range's ends.
enum TagTotalsCheck {
    static func expect(
        _ totals: TagTotalsView, matches source: ProjectionSource, _ note: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let now = totals.now
        let calendar = source.calendar
        let first = source.records.first?.start
        let last = source.records.map { max($0.end ?? now, $0.start) }.max()
        #expect(totals.firstStart == first, note, sourceLocation: sourceLocation)
        #expect(totals.lastEnd == last, note, sourceLocation: sourceLocation)
        let range = TimeInterval64(
            start: calendar.startOfDay(containing: first ?? now),
            end: calendar.startOfNextDay(after: max(last ?? now, now)))
        let expected = TimeReport(source: source, range: range, grouping: .tag, attribution: .wholeOnStartDay, now: now)
        let summed = TimeReport(
            everyRecordBy: totals.perTag.mapValues(\.milliseconds), tags: totals.tags, range: range,
            wallClock: totals.wallClock, recordCount: totals.recordCount)
        #expect(summed == expected, note, sourceLocation: sourceLocation)
        var records: [EntityID?: Int] = [:]
        var running = 0
        var crossing = 0
        for record in source.records {
            records[record.tagId.flatMap { source.tags[$0]?.isDeleted == false ? $0 : nil }, default: 0] += 1
            if record.isRunning { running += 1 }
            let end = record.end ?? max(now, record.start)
            if end > record.start, calendar.date(of: record.start) != calendar.date(of: end.adding(milliseconds: -1)) {
                crossing += 1
            }
        }
        #expect(totals.perTag.mapValues(\.records) == records, note, sourceLocation: sourceLocation)
        #expect(totals.running == running, note, sourceLocation: sourceLocation)
        #expect(totals.crossingMidnight == crossing, note, sourceLocation: sourceLocation)
        #expect(totals.tags == source.tags, note, sourceLocation: sourceLocation)
    }
}

extension ReadModel {
    /// Every row of the day-and-tag totals and their sums, in key order, as text: to compare what the writes kept
    /// with a rebuild.
    func dayTotalRows() throws -> [String] {
        var rows: [String] = []
        let cells = try database.statement(
            "SELECT day, tag_id, records, crossing, milliseconds FROM day_tag_totals ORDER BY day, tag_id")
        while try cells.step() {
            rows.append(
                "\(cells.integer(0)) \(cells.text(1) ?? "") \(cells.integer(2)) \(cells.integer(3)) \(cells.integer(4))"
            )
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
