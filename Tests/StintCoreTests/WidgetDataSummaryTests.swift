import Testing

@testable import StintCore

@Suite struct WidgetDataSummaryTests {
    typealias F = ProjectionFixtures
    typealias Row = WidgetPeriodSummary.Row
    static let hour: Int64 = 3_600_000
    static let minute: Int64 = 60_000

    static let alphaId = F.id("00000000-0000-4000-b000-000000000001")
    static let betaId = F.id("00000000-0000-4000-b000-000000000002")
    static let zetaId = F.id("00000000-0000-4000-b000-000000000003")

    /// UTC, Monday-first, on Thursday 3 December 2026.
    static let now = F.instant("2026-12-03T12:00Z")
    static let data = WidgetData(
        runningTimers: [
            // Started Wednesday: counts in the week and the month, not today.
            WidgetTimer(
                id: F.recordId(1), startTime: F.instant("2026-12-02T22:00Z"), tagId: F.workId, tagName: "Work",
                tagColor: "#FF0000"),
            // Started today: counts everywhere.
            WidgetTimer(id: F.recordId(2), startTime: F.instant("2026-12-03T11:15Z")),
        ],
        dailyTotals: [
            // Monday 30 November: in the week, not in December.
            WidgetDayTotal(day: F.instant("2026-11-30T00:00Z"), tagId: zetaId, milliseconds: 5 * Self.hour),
            WidgetDayTotal(day: F.instant("2026-12-01T00:00Z"), tagId: F.workId, milliseconds: 2 * Self.hour),
            WidgetDayTotal(day: F.instant("2026-12-02T00:00Z"), tagId: nil, milliseconds: 15 * Self.minute),
            WidgetDayTotal(day: F.instant("2026-12-02T00:00Z"), tagId: alphaId, milliseconds: Self.hour),
            WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: nil, milliseconds: 15 * Self.minute),
            WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: betaId, milliseconds: Self.hour),
            WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: zetaId, milliseconds: Self.hour),
        ],
        summaryTags: [
            WidgetTag(id: F.workId, name: "Work", color: "#FF0000"),
            WidgetTag(id: alphaId, name: "alpha", color: "#AAAAAA"),
            WidgetTag(id: betaId, name: "Beta", color: "#BBBBBB"),
            WidgetTag(id: zetaId, name: "zeta", color: "#CCCCCC"),
        ],
        lastUpdated: now)

    @Test func todayHasTodaysTotalsAndTheTimersStartedToday() {
        let summary = Self.data.summary(for: .today, at: Self.now, calendar: F.utcMonday)
        #expect(
            summary
                == WidgetPeriodSummary(
                    period: .today, start: F.instant("2026-12-03T00:00Z"), end: F.instant("2026-12-04T00:00Z"),
                    total: 3 * Self.hour,
                    rows: [
                        // 15 min completed + 45 min of the running timer.
                        Row(name: "Beta", milliseconds: Self.hour, tagId: Self.betaId, color: "#BBBBBB"),
                        Row(name: "Untagged", milliseconds: Self.hour),
                        Row(name: "zeta", milliseconds: Self.hour, tagId: Self.zetaId, color: "#CCCCCC"),
                    ]))
    }

    @Test func theWeekIsLongestFirstThenByNameIgnoringCase() {
        let summary = Self.data.summary(for: .thisWeek, at: Self.now, calendar: F.utcMonday)
        #expect(summary.start == F.instant("2026-11-30T00:00Z"))
        #expect(summary.end == F.instant("2026-12-07T00:00Z"))
        #expect(
            summary.rows == [
                // 2 h completed + 14 h of the timer started Wednesday 22:00.
                Row(name: "Work", milliseconds: 16 * Self.hour, tagId: F.workId, color: "#FF0000"),
                Row(name: "zeta", milliseconds: 6 * Self.hour, tagId: Self.zetaId, color: "#CCCCCC"),
                // 15 + 15 min completed + 45 min running.
                Row(name: "Untagged", milliseconds: 75 * Self.minute),
                // A tie: "alpha" before "Beta" ignoring case (byte order would put "Beta" first).
                Row(name: "alpha", milliseconds: Self.hour, tagId: Self.alphaId, color: "#AAAAAA"),
                Row(name: "Beta", milliseconds: Self.hour, tagId: Self.betaId, color: "#BBBBBB"),
            ])
        #expect(summary.total == 25 * Self.hour + 15 * Self.minute)
    }

    @Test func theMonthLeavesOutDaysOfTheWeekBeforeIt() {
        let summary = Self.data.summary(for: .thisMonth, at: Self.now, calendar: F.utcMonday)
        #expect(summary.start == F.instant("2026-12-01T00:00Z"))
        #expect(summary.end == F.instant("2027-01-01T00:00Z"))
        #expect(summary.rows.first { $0.tagId == Self.zetaId }?.milliseconds == Self.hour)
        #expect(summary.total == 20 * Self.hour + 15 * Self.minute)
    }

    @Test func aTimerThatStartedBeforeThePeriodAddsNothing() {
        let data = WidgetData(runningTimers: [
            WidgetTimer(
                id: F.recordId(1), startTime: F.instant("2026-11-29T23:00Z"), tagId: F.workId, tagName: "Work",
                tagColor: "#FF0000")
        ])
        // Sunday's timer is not in Monday's week, even though it runs through it.
        let week = data.summary(for: .thisWeek, at: F.instant("2026-11-30T10:00Z"), calendar: F.utcMonday)
        #expect(week.rows.isEmpty)
        #expect(week.total == 0)
        #expect(week.isEmpty)
        let month = data.summary(for: .thisMonth, at: F.instant("2026-11-30T10:00Z"), calendar: F.utcMonday)
        #expect(month.rows == [Row(name: "Work", milliseconds: 11 * Self.hour, tagId: F.workId, color: "#FF0000")])
    }

    @Test func anOldSnapshotRollsOverIntoTheNewWeek() {
        // Written on Sunday 6 December; read on Monday 7 December, the first day of a new week.
        let monday = F.instant("2026-12-07T08:00Z")
        let week = Self.data.summary(for: .thisWeek, at: monday, calendar: F.utcMonday)
        #expect(week.rows.isEmpty)
        let month = Self.data.summary(for: .thisMonth, at: monday, calendar: F.utcMonday)
        // December's 5 h 30 min of totals plus both timers, which started in December:
        // Wednesday 22:00 → Monday 08:00 is 106 h, Thursday 11:15 → Monday 08:00 is 92 h 45 min.
        #expect(month.total == 5 * Self.hour + 30 * Self.minute + 106 * Self.hour + 92 * Self.hour + 45 * Self.minute)
    }

    @Test func tagsAreNamedBySummaryTagsThenByTimersElseUntagged() {
        let data = WidgetData(
            runningTimers: [
                WidgetTimer(
                    id: F.recordId(1), startTime: F.instant("2026-12-03T11:00Z"), tagId: F.gymId, tagName: "Gym")
            ],
            dailyTotals: [
                WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: F.unknownId, milliseconds: 2 * Self.hour)
            ])
        let summary = data.summary(for: .today, at: Self.now, calendar: F.utcMonday)
        #expect(
            summary.rows == [
                Row(name: "Untagged", milliseconds: 2 * Self.hour),
                Row(name: "Gym", milliseconds: Self.hour, tagId: F.gymId),
            ])
    }

    @Test func rowsWithTheSameTimeAndNameAreOrderedByTagIdUntaggedFirst() {
        let data = WidgetData(
            dailyTotals: [
                WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: nil, milliseconds: Self.hour),
                WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: Self.betaId, milliseconds: Self.hour),
                WidgetDayTotal(day: F.instant("2026-12-03T00:00Z"), tagId: Self.alphaId, milliseconds: Self.hour),
            ],
            summaryTags: [
                WidgetTag(id: Self.alphaId, name: "Untagged", color: "#AAAAAA"),
                WidgetTag(id: Self.betaId, name: "Untagged", color: "#BBBBBB"),
            ])
        let summary = data.summary(for: .today, at: Self.now, calendar: F.utcMonday)
        #expect(summary.rows.map(\.tagId) == [nil, Self.alphaId, Self.betaId])
    }

    static let fiveRows = WidgetPeriodSummary(
        period: .thisWeek, start: F.instant("2026-11-30T00:00Z"), end: F.instant("2026-12-07T00:00Z"),
        total: 15 * hour,
        rows: [
            Row(name: "A", milliseconds: 5 * hour, tagId: alphaId),
            Row(name: "B", milliseconds: 4 * hour, tagId: betaId),
            Row(name: "Untagged", milliseconds: 3 * hour),
            Row(name: "D", milliseconds: 2 * hour, tagId: zetaId),
            Row(name: "E", milliseconds: hour, tagId: F.workId),
        ])

    @Test func rowsBeyondTheLimitFoldIntoOther() {
        #expect(
            Self.fiveRows.rows(limit: 4) == [
                Row(name: "A", milliseconds: 5 * Self.hour, tagId: Self.alphaId),
                Row(name: "B", milliseconds: 4 * Self.hour, tagId: Self.betaId),
                Row(name: "Untagged", milliseconds: 3 * Self.hour),
                Row(name: "Other", milliseconds: 3 * Self.hour),
            ])
        #expect(Self.fiveRows.rows(limit: 1) == [Row(name: "Other", milliseconds: 15 * Self.hour)])
        #expect(Self.fiveRows.rows(limit: 5) == Self.fiveRows.rows)
        #expect(Self.fiveRows.rows(limit: 10) == Self.fiveRows.rows)
        #expect(Self.fiveRows.limited(to: 2).rows.map(\.name) == ["A", "Other"])
        #expect(Self.fiveRows.limited(to: 2).total == 15 * Self.hour)
    }

    @Test func summaryJSONKeepsTheDocumentedKeyOrder() {
        let summary = WidgetPeriodSummary(
            period: .thisWeek, start: F.instant("2026-11-30T00:00Z"), end: F.instant("2026-12-07T00:00Z"),
            total: 5_400_500,
            rows: [
                Row(name: "Work", milliseconds: 5_400_000, tagId: F.workId, color: "#FF0000"),
                Row(name: "Untagged", milliseconds: 500),
            ])
        #expect(
            summary.json.encodedString
                == #"{"period":"week","start":"2026-11-30T00:00:00.000Z","end":"2026-12-07T00:00:00.000Z","#
                + #""total":5400.5,"rows":[{"name":"Work","seconds":5400,"tagId":"00000000-0000-4000-a000-000000000002"},"#
                + #"{"name":"Untagged","seconds":0.5}]}"#)
    }

    @Test func summariesOnADSTDayUseTheLocalDay() {
        // Berlin's 23-hour Sunday 29 March starts at 23:00Z on the 28th.
        let data = WidgetData(dailyTotals: [
            WidgetDayTotal(day: F.instant("2026-03-27T23:00Z"), tagId: nil, milliseconds: Self.hour),
            WidgetDayTotal(day: F.instant("2026-03-28T23:00Z"), tagId: nil, milliseconds: 2 * Self.hour),
            WidgetDayTotal(day: F.instant("2026-03-29T22:00Z"), tagId: nil, milliseconds: 4 * Self.hour),
        ])
        let sunday = data.summary(for: .today, at: F.instant("2026-03-29T23:30+02:00"), calendar: F.berlinMonday)
        #expect(sunday.total == 2 * Self.hour)
        #expect(sunday.end.milliseconds(since: sunday.start) == 23 * Self.hour)
        let week = data.summary(for: .thisWeek, at: F.instant("2026-03-29T23:30+02:00"), calendar: F.berlinMonday)
        #expect(week.total == 3 * Self.hour)
    }
}
