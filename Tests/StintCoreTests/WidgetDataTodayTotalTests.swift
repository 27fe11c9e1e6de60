import Testing

@testable import StintCore

@Suite struct WidgetDataTodayTotalTests {
    typealias F = ProjectionFixtures
    static let hour: Int64 = 3_600_000
    static let minute: Int64 = 60_000

    @Test func elapsedTimeIsNeverNegative() {
        let timer = WidgetTimer(id: F.recordId(1), startTime: F.instant("2026-11-29T10:00Z"))
        #expect(timer.duration(at: F.instant("2026-11-29T11:30:15.5Z")) == 90 * Self.minute + 15_500)
        #expect(timer.duration(at: F.instant("2026-11-29T10:00Z")) == 0)
        #expect(timer.duration(at: F.instant("2026-11-29T09:00Z")) == 0)
    }

    @Test func aTimerRunningAcrossMidnightAddsOnlyTheTimeSinceMidnight() {
        let data = WidgetData(
            runningTimers: [
                WidgetTimer(id: F.recordId(1), startTime: F.instant("2026-11-03T23:00Z")),
                WidgetTimer(id: F.recordId(2), startTime: F.instant("2026-11-04T01:00Z")),
                WidgetTimer(id: F.recordId(3), startTime: F.instant("2026-11-04T02:00Z")),
            ],
            todayCompletedMilliseconds: Self.hour)
        // 1 h completed + 1 h 30 min since midnight + 30 min + nothing yet for the timer starting later.
        #expect(data.todayTotal(at: F.instant("2026-11-04T01:30Z"), calendar: F.utcMonday) == 3 * Self.hour)
        // At midnight itself nothing of the first timer is today's.
        #expect(data.todayTotal(at: F.instant("2026-11-04T00:00Z"), calendar: F.utcMonday) == Self.hour)
    }

    @Test func aTimerRunningIntoASpringForwardDayCountsElapsedNotWallClockTime() {
        // Started Saturday 23:00 EST; at Sunday 12:00 EDT the wall clock shows 12 hours since midnight,
        // but the 23-hour day has only had 11.
        let data = WidgetData(runningTimers: [
            WidgetTimer(id: F.recordId(1), startTime: F.instant("2026-03-07T23:00-05:00"))
        ])
        #expect(data.todayTotal(at: F.instant("2026-03-08T12:00-04:00"), calendar: F.newYorkSunday) == 11 * Self.hour)
    }

    @Test func aTimerRunningIntoAFallBackDayCountsTheRepeatedHour() {
        let data = WidgetData(
            runningTimers: [WidgetTimer(id: F.recordId(1), startTime: F.instant("2026-10-31T22:00-04:00"))],
            todayCompletedMilliseconds: 30 * Self.minute)
        #expect(
            data.todayTotal(at: F.instant("2026-11-01T12:00-05:00"), calendar: F.newYorkSunday)
                == 13 * Self.hour + 30 * Self.minute)
    }

    @Test func rollingOverZeroesTodaysCountersAndKeepsEverythingElse() {
        let data = WidgetDataJSONTests.golden
        let rolled = data.rolledOver()
        #expect(
            rolled
                == WidgetData(
                    runningTimers: data.runningTimers, todayRecordsCount: 0, todayCompletedMilliseconds: 0,
                    recentTags: data.recentTags, dailyTotals: data.dailyTotals, summaryTags: data.summaryTags,
                    lastUpdated: data.lastUpdated))
        // Timers started 08:00:00.250 and 09:30 on the 29th; at 00:30 on the 30th only the half hour counts.
        #expect(rolled.todayTotal(at: F.instant("2026-11-30T00:30Z"), calendar: F.utcMonday) == 60 * Self.minute)
    }
}
