import Testing

@testable import StintCore

@Suite struct WidgetDataProjectionTests {
    typealias F = ProjectionFixtures

    /// Berlin, Monday-first, on Tuesday 31 March 2026: the window runs from 1 March (the month starts
    /// before the week) to Monday 6 April (the week ends after the month), and holds the spring-forward
    /// Sunday 29 March.
    static let now = F.instant("2026-03-31T12:00+02:00")
    static let records: [Record] = [
        F.record(1, "2026-03-29T10:00+02:00", "2026-03-29T11:00+02:00", tag: F.workId),
        F.record(2, "2026-03-29T14:00+02:00", "2026-03-29T14:30+02:00", tag: F.workId),
        F.record(3, "2026-03-29T09:00+02:00", "2026-03-29T09:00:01.5+02:00"),
        F.record(12, "2026-03-29T16:00+02:00", "2026-03-29T16:10+02:00", tag: F.archivedId),
        // Across midnight: counts whole on Monday 30 March.
        F.record(4, "2026-03-30T23:30+02:00", "2026-03-31T01:00+02:00", tag: F.archivedId),
        F.record(5, "2026-03-30T08:00+02:00", "2026-03-30T08:45+02:00", tag: F.deletedId),
        F.record(6, "2026-03-30T09:00+02:00", "2026-03-30T09:15+02:00", tag: F.unknownId),
        // Just before the window, at its start, at its end, just before its end.
        F.record(7, "2026-02-28T23:59:59.999+01:00", "2026-03-01T01:00+01:00", tag: F.workId),
        F.record(8, "2026-03-01T00:00+01:00", "2026-03-01T00:10+01:00", tag: F.workId),
        F.record(9, "2026-04-06T00:00+02:00", "2026-04-06T01:00+02:00", tag: F.workId),
        F.record(10, "2026-04-05T23:00+02:00", "2026-04-05T23:30+02:00", tag: F.workId),
        // Running: never in the daily totals.
        F.record(11, "2026-03-31T11:00+02:00", tag: F.workId),
        F.record(13, "2026-03-31T11:30+02:00", tag: F.gymId, comment: "legs"),
        F.record(14, "2026-03-31T11:30+02:00", tag: F.deletedId),
        F.record(15, "2026-03-31T10:00+02:00", tag: F.archivedId),
    ]

    static func source(recent: [EntityID] = []) -> ProjectionSource {
        ProjectionSource(calendar: F.berlinMonday, tags: F.allTags, records: records, recentTagIds: recent)
    }

    @Test func dailyTotalsSumByStartDayAndTagInAFixedOrder() {
        let data = WidgetData(source: Self.source(), now: Self.now)
        #expect(
            data.dailyTotals == [
                WidgetDayTotal(day: F.instant("2026-02-28T23:00Z"), tagId: F.workId, milliseconds: 600_000),
                // Sunday 29 March (23 hours) starts at 23:00Z the day before.
                WidgetDayTotal(day: F.instant("2026-03-28T23:00Z"), tagId: nil, milliseconds: 1_500),
                WidgetDayTotal(day: F.instant("2026-03-28T23:00Z"), tagId: F.archivedId, milliseconds: 600_000),
                WidgetDayTotal(day: F.instant("2026-03-28T23:00Z"), tagId: F.workId, milliseconds: 5_400_000),
                // Monday 30 March starts at 22:00Z: deleted and unknown tags are untagged.
                WidgetDayTotal(day: F.instant("2026-03-29T22:00Z"), tagId: nil, milliseconds: 3_600_000),
                WidgetDayTotal(day: F.instant("2026-03-29T22:00Z"), tagId: F.archivedId, milliseconds: 5_400_000),
                WidgetDayTotal(day: F.instant("2026-04-04T22:00Z"), tagId: F.workId, milliseconds: 1_800_000),
            ])
    }

    @Test func dailyTotalsDoNotDependOnRecordOrder() {
        var shuffled = Self.source()
        shuffled.records.reverse()
        #expect(
            WidgetData(source: shuffled, now: Self.now).encoded()
                == WidgetData(source: Self.source(), now: Self.now).encoded())
    }

    @Test func todayCountsRecordsStartedTodayAndTheCompletedTime() {
        let records = [
            F.record(1, "2026-11-04T09:00-05:00", "2026-11-04T10:30-05:00", tag: F.workId),
            F.record(2, "2026-11-04T14:00-05:00", tag: F.workId),
            F.record(3, "2026-11-03T23:00-05:00", "2026-11-04T01:00-05:00"),
            F.record(4, "2026-11-04T00:00-05:00", "2026-11-04T00:20-05:00"),
            F.record(5, "2026-11-05T00:00-05:00", "2026-11-05T00:20-05:00"),
            F.record(6, "2026-11-03T22:00-05:00"),
        ]
        let source = ProjectionSource(calendar: F.newYorkSunday, tags: F.allTags, records: records, recentTagIds: [])
        let data = WidgetData(source: source, now: F.instant("2026-11-04T15:00-05:00"))
        #expect(data.todayRecordsCount == 3)
        #expect(data.todayCompletedMilliseconds == 110 * 60_000)
        #expect(data.lastUpdated == F.instant("2026-11-04T15:00-05:00"))
    }

    @Test func runningTimersAreOldestFirstAndNameOnlyTagsThatAreNotDeleted() {
        let data = WidgetData(source: Self.source(), now: Self.now)
        #expect(
            data.runningTimers == [
                WidgetTimer(
                    id: F.recordId(15), startTime: F.instant("2026-03-31T08:00Z"), tagId: F.archivedId,
                    tagName: "Archive", tagColor: "#111111"),
                WidgetTimer(
                    id: F.recordId(11), startTime: F.instant("2026-03-31T09:00Z"), tagId: F.workId, tagName: "Work",
                    tagColor: "#FF0000"),
                WidgetTimer(
                    id: F.recordId(13), startTime: F.instant("2026-03-31T09:30Z"), tagId: F.gymId, tagName: "Gym",
                    tagColor: "#00FF00", comment: "legs"),
                WidgetTimer(id: F.recordId(14), startTime: F.instant("2026-03-31T09:30Z")),
            ])
    }

    @Test func summaryTagsAreTheTagsOfTotalsAndTimersByIdWithoutDeletedOnes() {
        let data = WidgetData(source: Self.source(), now: Self.now)
        #expect(
            data.summaryTags == [
                WidgetTag(id: F.archivedId, name: "Archive", color: "#111111"),
                WidgetTag(id: F.workId, name: "Work", color: "#FF0000"),
                WidgetTag(id: F.gymId, name: "Gym", color: "#00FF00"),
            ])
    }

    @Test func recentTagsSkipArchivedDeletedUnknownAndRepeatedTagsAndStopAtFour() {
        let recent = [
            F.deletedId, F.gymId, F.archivedId, F.workId, F.gymId, F.unknownId, F.homeId, F.readingId, F.musicId,
        ]
        let data = WidgetData(source: Self.source(recent: recent), now: Self.now)
        #expect(
            data.recentTags == [
                WidgetTag(id: F.gymId, name: "Gym", color: "#00FF00"),
                WidgetTag(id: F.workId, name: "Work", color: "#FF0000"),
                WidgetTag(id: F.homeId, name: "Home", color: "#0000FF"),
                WidgetTag(id: F.readingId, name: "Reading", color: "#666666"),
            ])
    }

    @Test func recentTagsMayBeFewerThanFour() {
        let data = WidgetData(source: Self.source(recent: [F.archivedId, F.homeId]), now: Self.now)
        #expect(data.recentTags == [WidgetTag(id: F.homeId, name: "Home", color: "#0000FF")])
        #expect(WidgetData(source: Self.source(), now: Self.now).recentTags.isEmpty)
    }

    @Test func anEmptyLogGivesAnEmptySnapshotStampedNow() {
        let source = ProjectionSource(calendar: F.utcMonday, tags: [:], records: [], recentTagIds: [])
        let now = F.instant("2026-11-29T13:07:09.123Z")
        #expect(WidgetData(source: source, now: now) == WidgetData(lastUpdated: now))
    }

    @Test func newYorkDayKeysAreLocalMidnightsAcrossTheFallBack() {
        let records = [
            F.record(1, "2026-10-31T23:30-04:00", "2026-11-01T01:30-05:00", tag: F.workId),
            F.record(2, "2026-11-01T01:30-05:00", "2026-11-01T02:00-05:00", tag: F.workId),
            F.record(3, "2026-11-02T00:00-05:00", "2026-11-02T00:01-05:00", tag: F.workId),
        ]
        // Monday-first on Sunday 1 November: the window runs from Monday 26 October to 1 December.
        let newYorkMonday = LogCalendar(timeZone: "America/New_York", firstWeekday: 2)!
        let totals = WidgetData.dailyTotals(
            from: records, tags: F.allTags, calendar: newYorkMonday, at: F.instant("2026-11-01T12:00-05:00"))
        // Saturday 31 October lasts 24 hours, Sunday 1 November 25.
        #expect(
            totals == [
                WidgetDayTotal(day: F.instant("2026-10-31T04:00Z"), tagId: F.workId, milliseconds: 3 * 3_600_000),
                WidgetDayTotal(day: F.instant("2026-11-01T04:00Z"), tagId: F.workId, milliseconds: 1_800_000),
                WidgetDayTotal(day: F.instant("2026-11-02T05:00Z"), tagId: F.workId, milliseconds: 60_000),
            ])
    }
}
