import Testing

@testable import StintCore

@Suite struct WidgetTimelineBuilderTests {
    typealias F = ProjectionFixtures
    static let second: Int64 = 1000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    static func running(since start: String, completed: Int64 = 0, count: Int = 0) -> WidgetData {
        WidgetData(
            runningTimers: [WidgetTimer(id: F.recordId(1), startTime: F.instant(start))], todayRecordsCount: count,
            todayCompletedMilliseconds: completed)
    }

    /// The timeline of `data` published at `now` (its `lastUpdated`), as the app builds it after a write.
    static func publishedTimeline(for data: WidgetData, now: Instant, calendar: LogCalendar) -> WidgetTimeline {
        var published = data
        published.lastUpdated = now
        return WidgetTimelineBuilder.timeline(for: published, now: now, calendar: calendar)
    }

    @Test func aReloadOnALaterDayThanThePublicationShowsRolledOverData() {
        var data = WidgetData(todayRecordsCount: 3, todayCompletedMilliseconds: 2 * Self.hour)
        data.lastUpdated = F.instant("2026-11-28T20:00:00.000Z")
        let timeline = WidgetTimelineBuilder.timeline(
            for: data, now: F.instant("2026-11-29T09:00:00.000Z"), calendar: F.utcMonday)
        #expect(timeline.entries.map(\.isRolledOver) == [true, true])
        #expect(timeline.entries.map(\.todayTotal) == [0, 0])
        #expect(timeline.entries[0].data == data.rolledOver())
    }

    @Test func theWidgetReloadsHourlyWhileATimerRunsAndAtMidnightOtherwise() {
        // New York's 25-hour fall-back day: midnights are 04:00Z before it and 05:00Z after it.
        var idle = WidgetData(todayRecordsCount: 1, todayCompletedMilliseconds: Self.hour)
        idle.lastUpdated = F.instant("2026-10-31T15:00:00.000Z")
        let midnights = WidgetTimelineBuilder.scheduledReloads(
            for: idle, publishedAt: idle.lastUpdated, before: F.instant("2026-11-03T06:00:00.000Z"),
            calendar: F.newYorkSunday)
        #expect(
            midnights
                == [
                    "2026-11-01T04:00:00.000Z", "2026-11-02T05:00:00.000Z", "2026-11-03T05:00:00.000Z",
                ].map { WidgetReload(date: F.instant($0), kind: .midnight) })
        // A timer published at 09:00:30: its timeline ends at 10:00, then every hour on the minute.
        let running = Self.running(since: "2026-11-29T08:00:00.000Z")
        let hourly = WidgetTimelineBuilder.scheduledReloads(
            for: running, publishedAt: F.instant("2026-11-29T09:00:30.000Z"),
            before: F.instant("2026-11-29T12:00:00.000Z"), calendar: F.utcMonday)
        #expect(
            hourly
                == ["2026-11-29T10:00:00.000Z", "2026-11-29T11:00:00.000Z"].map {
                    WidgetReload(date: F.instant($0), kind: .hourly)
                })
    }

    /// Long after publication the walk starts two days before the moment (found by stint-cli-fuzz: with a
    /// clock at 9999-12-31 `widget` walked every hourly reload since 2026); it meets the same reload as the
    /// walk from publication, for an idle widget across DST changes and for a running timer.
    @Test func aTimelineLongAfterPublicationIsTheOneTheWholeWalkReaches() {
        var idle = WidgetData(todayRecordsCount: 1, todayCompletedMilliseconds: Self.hour)
        idle.lastUpdated = F.instant("2026-10-31T15:00:00.000Z")
        var running = Self.running(since: "2026-11-29T08:00:00.000Z")
        running.lastUpdated = F.instant("2026-11-29T09:00:30.000Z")
        for (data, calendar) in [(idle, F.newYorkSunday), (running, F.utcMonday)] {
            let later = data.lastUpdated.adding(milliseconds: 430 * 24 * Self.hour + 17 * Self.minute)
            let reloads = WidgetTimelineBuilder.scheduledReloads(
                for: data, publishedAt: data.lastUpdated, before: later.adding(milliseconds: 1), calendar: calendar)
            let exact = WidgetTimelineBuilder.timeline(
                for: data, now: reloads.last?.date ?? data.lastUpdated, calendar: calendar)
            #expect(
                WidgetTimelineBuilder.timeline(
                    for: data, publishedAt: data.lastUpdated, showingAt: later, calendar: calendar) == exact)
        }
        let farFuture = WidgetTimelineBuilder.timeline(
            for: running, publishedAt: running.lastUpdated, showingAt: F.instant("9999-12-31T23:59:59.000Z"),
            calendar: F.utcMonday)
        #expect(farFuture != nil)
    }

    @Test func withoutATimerThereIsNowAndTheNextMidnight() {
        let data = WidgetData(todayRecordsCount: 3, todayCompletedMilliseconds: 2 * Self.hour)
        let timeline = Self.publishedTimeline(
            for: data, now: F.instant("2026-11-29T13:07:09.123Z"), calendar: F.utcMonday)
        #expect(
            timeline.json.encodedString
                == #"{"policy":"atEnd","entries":[{"date":"2026-11-29T13:07:09.123Z","rolledOver":false,"#
                + #""todayTotal":7200,"timers":[]},{"date":"2026-11-30T00:00:00.000Z","rolledOver":true,"#
                + #""todayTotal":0,"timers":[]}]}"#)
        #expect(timeline.entries[0].data.isEquivalent(to: data))
        #expect(timeline.entries[1].data.isEquivalent(to: data.rolledOver()))
    }

    @Test(arguments: [
        // New York's 25-hour fall-back day, Santiago's day whose midnight is skipped (it starts at 01:00).
        (F.newYorkSunday, "2026-11-01T12:00-05:00", "2026-11-02T00:00-05:00"),
        (F.santiagoMonday, "2026-09-05T12:00-04:00", "2026-09-06T01:00-03:00"),
        (F.utcMonday, "2026-11-30T00:00Z", "2026-12-01T00:00Z"),
    ])
    func theMidnightEntryIsTheStartOfTheNextLocalDay(calendar: LogCalendar, now: String, midnight: String) {
        let timeline = Self.publishedTimeline(for: WidgetData(), now: F.instant(now), calendar: calendar)
        #expect(timeline.entries.map(\.date) == [F.instant(now), F.instant(midnight)])
        #expect(timeline.entries.map(\.isRolledOver) == [false, true])
    }

    @Test func aRunningTimerGivesNowAndSixtyMinuteBoundaries() throws {
        let data = Self.running(since: "2026-11-29T09:00Z", completed: 30 * Self.minute)
        let timeline = Self.publishedTimeline(
            for: data, now: F.instant("2026-11-29T10:15:30.250Z"), calendar: F.utcMonday)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.count == 61)
        let first = timeline.entries[0]
        #expect(first.date == F.instant("2026-11-29T10:15:30.250Z"))
        #expect(first.timers.map(\.text) == ["1:15"])
        #expect(first.todayTotal == 30 * Self.minute + 75 * Self.minute + 30_250)
        #expect(timeline.entries[1].date == F.instant("2026-11-29T10:16Z"))
        #expect(timeline.entries[1].timers.map(\.text) == ["1:16"])
        #expect(timeline.entries[1].todayTotal == 106 * Self.minute)
        let last = try #require(timeline.entries.last)
        #expect(last.date == F.instant("2026-11-29T11:15Z"))
        #expect(last.timers == [WidgetTimelineEntry.TimerElapsed(id: F.recordId(1), milliseconds: 135 * Self.minute)])
        #expect(last.timers.map(\.text) == ["2:15"])
        #expect(last.todayTotal == 165 * Self.minute)
        #expect(timeline.entries.allSatisfy { !$0.isRolledOver })
        for (earlier, later) in zip(timeline.entries.dropFirst(), timeline.entries.dropFirst(2)) {
            #expect(later.date.milliseconds(since: earlier.date) == Self.minute)
        }
    }

    @Test func nowOnABoundaryIsFollowedByTheSixtyBoundariesAfterIt() {
        let now = F.instant("2026-11-29T10:15Z")
        let dates = WidgetTimelineBuilder.entryDates(
            for: Self.running(since: "2026-11-29T09:00Z"), now: now, calendar: F.utcMonday)
        #expect(dates.count == 61)
        #expect(dates[0] == now)
        #expect(dates[1] == F.instant("2026-11-29T10:16Z"))
        #expect(dates[60] == F.instant("2026-11-29T11:15Z"))
        #expect(Set(dates).count == 61)
    }

    @Test func entriesFromMidnightOnAreRolledOver() {
        let data = Self.running(since: "2026-11-04T22:00-05:00", completed: Self.hour, count: 2)
        let timeline = Self.publishedTimeline(
            for: data, now: F.instant("2026-11-04T23:30:20-05:00"), calendar: F.newYorkSunday)
        let entries = timeline.entries
        #expect(entries.count == 61)
        #expect(entries.map(\.isRolledOver) == Array(repeating: false, count: 30) + Array(repeating: true, count: 31))
        #expect(entries[29].date == F.instant("2026-11-04T23:59-05:00"))
        #expect(entries[29].todayTotal == Self.hour + 119 * Self.minute)
        #expect(entries[29].data.todayRecordsCount == 2)
        #expect(entries[30].date == F.instant("2026-11-05T00:00-05:00"))
        #expect(entries[30].todayTotal == 0)
        #expect(entries[30].data.todayRecordsCount == 0)
        #expect(entries[30].timers.map(\.text) == ["2:00"])
        #expect(entries[60].todayTotal == 30 * Self.minute)
        #expect(entries[60].timers.map(\.text) == ["2:30"])
    }

    @Test func theSpringForwardDayEndsAfterTwentyThreeHours() {
        // Started 00:30 EST on the 23-hour Sunday; at 23:59 EDT 22 h 29 min have passed.
        let data = Self.running(since: "2026-03-08T00:30-05:00")
        let entries = Self.publishedTimeline(
            for: data, now: F.instant("2026-03-08T23:45-04:00"), calendar: F.newYorkSunday
        ).entries
        #expect(entries[14].date == F.instant("2026-03-08T23:59-04:00"))
        #expect(!entries[14].isRolledOver)
        #expect(entries[14].todayTotal == 22 * Self.hour + 29 * Self.minute)
        #expect(entries[14].timers.map(\.text) == ["22:29"])
        #expect(entries[15].date == F.instant("2026-03-09T00:00-04:00"))
        #expect(entries[15].isRolledOver)
        #expect(entries[15].todayTotal == 0)
        #expect(entries[60].todayTotal == 45 * Self.minute)
        #expect(entries[60].timers.map(\.text) == ["23:15"])
    }

    @Test func theRepeatedHourOfTheFallBackDayCountsTwice() {
        let data = Self.running(since: "2026-10-31T23:00-04:00")
        let entries = Self.publishedTimeline(
            for: data, now: F.instant("2026-11-01T01:30-04:00"), calendar: F.newYorkSunday
        ).entries
        // The last entry is the second 01:30 of the day: 2 h 30 min after midnight.
        #expect(entries[60].date == F.instant("2026-11-01T01:30-05:00"))
        #expect(entries[60].todayTotal == 2 * Self.hour + 30 * Self.minute)
        #expect(entries[60].timers.map(\.text) == ["3:30"])
        #expect(entries.allSatisfy { !$0.isRolledOver })
    }

    @Test func entriesRenderTheirOwnDate() {
        let data = WidgetData(
            runningTimers: [
                WidgetTimer(
                    id: F.recordId(1), startTime: F.instant("2026-11-29T23:50Z"), tagId: F.workId, tagName: "Work")
            ],
            dailyTotals: [
                WidgetDayTotal(day: F.instant("2026-11-29T00:00Z"), tagId: F.workId, milliseconds: Self.hour)
            ],
            summaryTags: [WidgetTag(F.work)])
        let entries = Self.publishedTimeline(
            for: data, now: F.instant("2026-11-29T23:55Z"), calendar: F.utcMonday
        ).entries
        // Before midnight the week (Monday 23 – Monday 30) holds Sunday's hour and the timer.
        #expect(entries[4].summary(for: .thisWeek, calendar: F.utcMonday).total == Self.hour + 9 * Self.minute)
        #expect(entries[4].elapsed(data.runningTimers[0]) == "0:09")
        // From midnight on, a new week: the timer started in the previous one.
        #expect(entries[5].summary(for: .thisWeek, calendar: F.utcMonday).total == 0)
        #expect(entries[5].summary(for: .thisMonth, calendar: F.utcMonday).total == Self.hour + 10 * Self.minute)
    }
}
