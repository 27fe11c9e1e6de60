import Testing

@testable import StintCore

@Suite struct TimeReportTests {
    let berlin = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!
    let write = EntityID("00000000-0000-4000-8000-00000000000a")!
    let email = EntityID("00000000-0000-4000-8000-00000000000b")!

    func at(_ text: String) -> Instant { Instant(canonical: text)! }

    func record(_ n: UInt64, _ start: String, _ end: String?, _ tag: EntityID?) -> Record {
        Record(
            id: EntityID(high: 0x4000, low: 0x8000_0000_0000_0000 | n), start: at(start), end: end.map(at),
            tagId: tag)
    }

    /// Hand-computed case, all in Europe/Berlin (UTC+1 until 2026-03-29 01:00Z, then UTC+2):
    /// 1. write 2026-03-27 09:00–11:00 local (08:00Z–10:00Z): 2 h on Friday.
    /// 2. email 2026-03-27 10:00–10:30 local, overlapping (1): 0.5 h on Friday.
    /// 3. write 2026-03-28 23:00 local → 2026-03-29 04:00 local (22:00Z → 02:00Z, across midnight and the
    ///    DST change: 4 h of real time, 1 h on Saturday and 3 h on Sunday, whose night lost an hour).
    /// 4. untagged, running since 2026-03-29 10:00 local (08:00Z); now is 08:45Z: 45 min on Sunday.
    var source: ProjectionSource {
        ProjectionSource(
            calendar: berlin,
            tags: [
                write: Tag(id: write, name: "write", color: "#112233"),
                email: Tag(id: email, name: "email", color: "#445566"),
            ],
            records: [
                record(1, "2026-03-27T08:00:00.000Z", "2026-03-27T10:00:00.000Z", write),
                record(2, "2026-03-27T09:00:00.000Z", "2026-03-27T09:30:00.000Z", email),
                record(3, "2026-03-28T22:00:00.000Z", "2026-03-29T02:00:00.000Z", write),
                record(4, "2026-03-29T08:00:00.000Z", nil, nil),
            ],
            recentTagIds: [])
    }

    let now = Instant(canonical: "2026-03-29T08:45:00.000Z")!
    var week: TimeInterval64 { berlin.weekInterval(containing: now) }
    let hour: Int64 = 3_600_000

    @Test func defaultCountsARecordWholeOnItsStartDay() {
        let report = TimeReport(source: source, range: week, grouping: .day, attribution: .wholeOnStartDay, now: now)
        #expect(report.periods.map(\.firstDay.day) == [27, 28, 29])
        #expect(report.periods.map(\.tagSum) == [hour * 5 / 2, 4 * hour, hour * 3 / 4])
        #expect(report.periods.map(\.wallClock) == [2 * hour, 4 * hour, hour * 3 / 4])
        #expect(report.tagSum == 2 * hour + hour / 2 + 4 * hour + hour * 3 / 4)
        #expect(report.wallClock == 2 * hour + 4 * hour + hour * 3 / 4)
        #expect(report.tags.map(\.name) == ["write", "Untagged", "email"])
        #expect(report.tags.map(\.milliseconds) == [6 * hour, hour * 3 / 4, hour / 2])
        #expect(report.recordCount == 4)
    }

    @Test func splitAtMidnightApportionsAcrossTheDSTNight() {
        let report = TimeReport(source: source, range: week, grouping: .day, attribution: .splitAtMidnight, now: now)
        #expect(report.periods.map(\.firstDay.day) == [27, 28, 29])
        #expect(report.periods.map(\.tagSum) == [hour * 5 / 2, hour, 3 * hour + hour * 3 / 4])
        // Sunday 2026-03-29 has 23 hours.
        #expect(report.periods[2].end.milliseconds - report.periods[2].start.milliseconds == 23 * hour)
        #expect(report.tagSum == 2 * hour + hour / 2 + 4 * hour + hour * 3 / 4)
    }

    @Test func splitAtMidnightClipsToTheRange() {
        let sunday = berlin.dayInterval(containing: now)
        let report = TimeReport(
            source: source, range: sunday, grouping: .tag, attribution: .splitAtMidnight, now: now)
        #expect(report.periods.isEmpty)
        #expect(report.tags.map(\.milliseconds) == [3 * hour, hour * 3 / 4])
        #expect(report.wallClock == 3 * hour + hour * 3 / 4)
    }

    /// A timer running since Sat 2026-01-10 13:00 local (12:00Z), read on Wed 2026-04-15 14:00 local (12:00Z),
    /// split at midnight by month: January has 21 days and 11 hours of it, February 28 days, March 31 days
    /// less the hour the DST night lost, April 14 days and 14 hours; the whole range counts it once.
    @Test func splitAtMidnightByMonthCutsAtTheMonthsMidnights() {
        let running = ProjectionSource(
            calendar: berlin, tags: [:], records: [record(9, "2026-01-10T12:00:00.000Z", nil, nil)], recentTagIds: [])
        let later = at("2026-04-15T12:00:00.000Z")
        let range = TimeInterval64(start: at("2025-12-31T23:00:00.000Z"), end: at("2026-04-30T22:00:00.000Z"))
        let day = 24 * hour
        let expected = [21 * day + 11 * hour, 28 * day, 31 * day - hour, 14 * day + 14 * hour]
        for grouping in [TimeReport.Grouping.month, .day, .week, .tag] {
            let report = TimeReport(
                source: running, range: range, grouping: grouping, attribution: .splitAtMidnight, now: later)
            #expect(report.tagSum == later.milliseconds - at("2026-01-10T12:00:00.000Z").milliseconds)
            #expect(report.wallClock == report.tagSum)
            #expect(report.recordCount == 1)
            #expect(report.periods.map(\.tagSum).reduce(0, +) == (grouping == .tag ? 0 : report.tagSum))
            #expect(report.periods.allSatisfy { $0.wallClock == $0.tagSum }, "\(grouping)")
        }
        let months = TimeReport(
            source: running, range: range, grouping: .month, attribution: .splitAtMidnight, now: later)
        #expect(months.periods.map(\.firstDay.month) == [1, 2, 3, 4])
        #expect(months.periods.map(\.tagSum) == expected)
        let days = TimeReport(source: running, range: range, grouping: .day, attribution: .splitAtMidnight, now: later)
        #expect(days.periods.count == 22 + 28 + 31 + 15)
        #expect(days.periods.first?.tagSum == 11 * hour && days.periods.last?.tagSum == 14 * hour)
        #expect(days.periods.first { $0.firstDay == CivilDate(year: 2026, month: 3, day: 29) }?.tagSum == 23 * hour)
        let weeks = TimeReport(
            source: running, range: range, grouping: .week, attribution: .splitAtMidnight, now: later)
        // Weeks from Monday: Mon 5 January holds Sat 10 13:00 to Mon 12 00:00, 35 hours.
        #expect(weeks.periods.first?.firstDay == CivilDate(year: 2026, month: 1, day: 5))
        #expect(weeks.periods.first?.tagSum == 35 * hour)
    }

    @Test func tagFilterKeepsOneTagOrUntaggedTime() {
        let writeOnly = TimeReport(
            source: source, range: week, grouping: .week, attribution: .wholeOnStartDay, tagFilter: .some(write),
            now: now)
        #expect(writeOnly.tagSum == 6 * hour)
        #expect(writeOnly.periods.count == 1)
        let untagged = TimeReport(
            source: source, range: week, grouping: .month, attribution: .wholeOnStartDay, tagFilter: .some(nil),
            now: now)
        #expect(untagged.tagSum == hour * 3 / 4)
    }

    @Test func deletedTagsCountAsUntagged() {
        var deleted = source
        deleted.tags[email]?.isDeleted = true
        let report = TimeReport(source: deleted, range: week, grouping: .tag, attribution: .wholeOnStartDay, now: now)
        #expect(report.tags.map(\.name) == ["write", "Untagged"])
        #expect(report.tags.map(\.milliseconds) == [6 * hour, hour * 3 / 4 + hour / 2])
    }
}
