import Testing

@testable import StintCore

@Suite struct WidgetPeriodTests {
    typealias F = ProjectionFixtures
    static let hour: Int64 = 3_600_000

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var calendar: LogCalendar
        var period: WidgetPeriod
        var now: String
        var start: String
        var end: String
        var hours: Int64
        var testDescription: String { label }
    }

    @Test(arguments: [
        Case(
            label: "New York spring-forward day", calendar: F.newYorkSunday, period: .today,
            now: "2026-03-08T12:00-04:00", start: "2026-03-08T00:00-05:00", end: "2026-03-09T00:00-04:00", hours: 23),
        Case(
            label: "New York fall-back day", calendar: F.newYorkSunday, period: .today,
            now: "2026-11-01T01:30-05:00", start: "2026-11-01T00:00-04:00", end: "2026-11-02T00:00-05:00", hours: 25),
        Case(
            label: "Berlin spring-forward day", calendar: F.berlinMonday, period: .today,
            now: "2026-03-29T01:59+01:00", start: "2026-03-29T00:00+01:00", end: "2026-03-30T00:00+02:00", hours: 23),
        Case(
            label: "Santiago day whose midnight is skipped", calendar: F.santiagoMonday, period: .today,
            now: "2026-09-06T12:00-03:00", start: "2026-09-06T01:00-03:00", end: "2026-09-07T00:00-03:00", hours: 23),
        Case(
            label: "Sunday-first week holding the fall-back day", calendar: F.newYorkSunday, period: .thisWeek,
            now: "2026-11-04T12:00-05:00", start: "2026-11-01T00:00-04:00", end: "2026-11-08T00:00-05:00",
            hours: 169),
        Case(
            label: "Sunday-first week, now on its first day", calendar: F.newYorkSunday, period: .thisWeek,
            now: "2026-11-29T00:00-05:00", start: "2026-11-29T00:00-05:00", end: "2026-12-06T00:00-05:00",
            hours: 168),
        Case(
            label: "Monday-first week ending on the spring-forward Sunday", calendar: F.berlinMonday,
            period: .thisWeek, now: "2026-03-29T23:59:59.999+02:00", start: "2026-03-23T00:00+01:00",
            end: "2026-03-30T00:00+02:00", hours: 167),
        Case(
            label: "Monday-first week across a month boundary", calendar: F.berlinMonday, period: .thisWeek,
            now: "2026-12-02T09:00+01:00", start: "2026-11-30T00:00+01:00", end: "2026-12-07T00:00+01:00",
            hours: 168),
        Case(
            label: "New York March", calendar: F.newYorkSunday, period: .thisMonth, now: "2026-03-31T23:59-04:00",
            start: "2026-03-01T00:00-05:00", end: "2026-04-01T00:00-04:00", hours: 31 * 24 - 1),
        Case(
            label: "Berlin October", calendar: F.berlinMonday, period: .thisMonth, now: "2026-10-01T00:00+02:00",
            start: "2026-10-01T00:00+02:00", end: "2026-11-01T00:00+01:00", hours: 31 * 24 + 1),
    ])
    func intervalsFollowTheLogCalendar(_ test: Case) {
        let interval = test.period.interval(containing: F.instant(test.now), calendar: test.calendar)
        #expect(interval.start == F.instant(test.start))
        #expect(interval.end == F.instant(test.end))
        #expect(interval.milliseconds == test.hours * Self.hour)
    }

    @Test func theWindowRunsFromTheEarlierStartToTheLaterEnd() {
        // Week Mon 30 Nov – Mon 7 Dec starts before December.
        let december = F.instant("2026-12-02T09:00+01:00")
        #expect(
            WidgetPeriod.earliestStart(at: december, calendar: F.berlinMonday) == F.instant("2026-11-30T00:00+01:00"))
        #expect(WidgetPeriod.latestEnd(at: december, calendar: F.berlinMonday) == F.instant("2027-01-01T00:00+01:00"))
        // Week Mon 30 Nov – Mon 7 Dec ends after November.
        let lastOfNovember = F.instant("2026-11-30T09:00+01:00")
        #expect(
            WidgetPeriod.earliestStart(at: lastOfNovember, calendar: F.berlinMonday)
                == F.instant("2026-11-01T00:00+01:00"))
        #expect(
            WidgetPeriod.latestEnd(at: lastOfNovember, calendar: F.berlinMonday) == F.instant("2026-12-07T00:00+01:00"))
        // Sunday-first: week Sun 27 Sep – Sun 4 Oct, month October.
        let firstOfOctober = F.instant("2026-10-01T08:00-04:00")
        #expect(
            WidgetPeriod.earliestStart(at: firstOfOctober, calendar: F.newYorkSunday)
                == F.instant("2026-09-27T00:00-04:00"))
        #expect(
            WidgetPeriod.latestEnd(at: firstOfOctober, calendar: F.newYorkSunday) == F.instant("2026-11-01T00:00-04:00")
        )
    }

    @Test func theSameInstantFallsInDifferentWeeksByFirstWeekday() {
        let sunday = F.instant("2026-11-29T12:00Z")
        let sundayFirst = LogCalendar(timeZone: "UTC", firstWeekday: 1)!
        #expect(
            WidgetPeriod.thisWeek.interval(containing: sunday, calendar: sundayFirst).start
                == F.instant("2026-11-29T00:00Z"))
        #expect(
            WidgetPeriod.thisWeek.interval(containing: sunday, calendar: F.utcMonday).start
                == F.instant("2026-11-23T00:00Z"))
    }

    @Test(arguments: [(WidgetPeriod.today, "today"), (.thisWeek, "week"), (.thisMonth, "month")])
    func periodsHaveCommandLineNames(period: WidgetPeriod, name: String) {
        #expect(period.name == name)
        #expect(WidgetPeriod(name: name) == period)
    }

    @Test(arguments: ["", "year", "Week", "thisWeek"])
    func unknownPeriodNamesAreRefused(name: String) {
        #expect(WidgetPeriod(name: name) == nil)
    }
}
