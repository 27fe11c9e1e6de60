import StintCore
import Testing

@testable import StintCLI

/// The content rules every format draws: which timers show, "+N more", Stop All, the stale caption,
/// quick start and the summary rows.
@Suite struct WidgetContentTests {
    typealias F = WidgetFixtures
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    /// `count` running untagged timers started a minute apart, the oldest two hours before `now`.
    static func data(runningTimers count: Int, now: Instant, lastUpdated: Instant? = nil) -> WidgetData {
        WidgetData(
            runningTimers: (0..<count).map { index in
                WidgetTimer(
                    id: F.recordId(UInt64(index + 1)),
                    startTime: now.adding(milliseconds: -2 * hour + Int64(index) * minute))
            },
            todayRecordsCount: count, lastUpdated: lastUpdated ?? now)
    }

    static func content(
        _ family: WidgetFamily, _ data: WidgetData, at date: Instant, period: WidgetPeriod = .thisWeek
    ) -> WidgetContent {
        WidgetContent(
            family: family,
            entry: WidgetTimelineEntry(date: date, isRolledOver: false, data: data, calendar: F.calendar),
            calendar: F.calendar, period: period)
    }

    // MARK: Timers and "+N more"

    @Test(arguments: 0...6)
    func firstTimerAndACountOfTheOthers(count: Int) {
        let data = Self.data(runningTimers: count, now: F.publishedAt)
        for family in [WidgetFamily.systemSmall, .systemMedium, .accessoryCircular, .accessoryInline] {
            let list = Self.content(family, data, at: F.publishedAt).timers
            #expect(list.shown.count == min(count, 1), "\(family)")
            #expect(list.moreCount == max(0, count - 1), "\(family)")
            #expect(list.runningCount == count)
        }
    }

    @Test(arguments: [(0, 0, 0), (1, 1, 0), (2, 2, 0), (3, 3, 0), (4, 2, 2), (5, 2, 3), (9, 2, 7)])
    func rectangularShowsThreeTimersOrTwoAndMore(count: Int, shown: Int, more: Int) {
        let content = Self.content(
            .accessoryRectangular, Self.data(runningTimers: count, now: F.publishedAt), at: F.publishedAt)
        #expect(content.timers.shown.count == shown)
        #expect(content.timers.moreCount == more)
        let text = WidgetRenderer.render(content, format: .text)
        #expect(text.contains("+\(more) more") == (more > 0))
    }

    @Test(arguments: [(0, 0, 0), (1, 1, 0), (3, 3, 0), (4, 3, 1), (8, 3, 5), (11, 3, 8)])
    func largeAndLiveActivityShowThreeRowsThenMore(count: Int, shown: Int, more: Int) {
        let data = Self.data(runningTimers: count, now: F.publishedAt)
        for family in [WidgetFamily.systemLarge, .liveActivity, .dynamicIslandExpanded] {
            let content = Self.content(family, data, at: F.publishedAt)
            #expect(content.timers.shown.count == shown, "\(family)")
            #expect(content.timers.moreCount == more, "\(family)")
            #expect(content.showsStopAll == (count >= 2), "\(family)")
            for format in WidgetRenderFormat.allCases {
                let rendered = WidgetRenderer.render(content, format: format)
                #expect(rendered.contains("+\(more) more") == (more > 0), "\(family) \(format)")
                #expect(rendered.contains(WidgetWording.stopAll) == (count >= 2), "\(family) \(format)")
            }
        }
    }

    /// The Dynamic Island shows the Live Activity's content: the compact island the first timer alone (its
    /// stopwatch and time in the tag's color), the expanded one the lock screen's rows.
    @Test(arguments: [0, 1, 4])
    func theDynamicIslandShowsTheLiveActivitysContent(count: Int) {
        let data = Self.data(runningTimers: count, now: F.publishedAt)
        let live = Self.content(.liveActivity, data, at: F.publishedAt)
        for family in [WidgetFamily.dynamicIslandCompact, .dynamicIslandExpanded] {
            var content = Self.content(family, data, at: F.publishedAt)
            #expect(content.family == family)
            content.family = .liveActivity
            #expect(content == live, "\(family)")
        }
        let compact = Self.content(.dynamicIslandCompact, data, at: F.publishedAt)
        let text = WidgetRenderer.render(compact, format: .text)
        let svg = WidgetRenderer.render(compact, format: .svg)
        guard let first = compact.timers.shown.first else {
            #expect(text.contains("No Live Activity"))
            #expect(svg.contains("stroke-dasharray"), "a placeholder, not an island")
            return
        }
        #expect(text.contains("◷ " + first.name) && text.contains(first.clock))
        #expect(svg.contains(">\(first.clock)</text>") && svg.contains(#"fill="\#(first.color.hex)""#))
        #expect(
            !text.contains(WidgetWording.stop) && !svg.contains(WidgetWording.stop), "no buttons in the compact island")
        for other in compact.timers.shown.dropFirst() {
            #expect(!svg.contains(">\(other.clock)</text>"), "only the first timer")
        }
    }

    @Test func theLiveActivityCountsTimersBeyondItsEightAsMore() {
        // LiveActivityContent keeps eight timers; the activity still counts every running one.
        let content = Self.content(.liveActivity, Self.data(runningTimers: 11, now: F.publishedAt), at: F.publishedAt)
        #expect(content.timers.runningCount == 11)
    }

    @Test func timersAreNamedByTheirTagOrTimerAndShowTheirElapsedTimeAtTheEntry() throws {
        let entry = F.Scenario.fourTimers.entry
        let content = WidgetContent(family: .systemLarge, entry: entry, calendar: F.calendar, period: .thisWeek)
        #expect(content.timers.shown.map(\.name) == [F.long.name, F.special.name, "Timer"])
        #expect(content.timers.shown.map(\.elapsed) == ["1:47", "1:05", "0:42"])
        #expect(content.timers.shown.map(\.color.hex) == ["#007AFF", "#5856D6", "#8E8E93"])
        let live = WidgetContent(family: .liveActivity, entry: entry, calendar: F.calendar, period: .thisWeek)
        #expect(live.timers.shown.map(\.clock) == ["1:47:20", "1:05:15", "42:20"])
    }

    @Test func withNoTimerRunningTheLockScreenShowsTodaysTotal() {
        let entry = F.Scenario.idle.entry
        for family in [WidgetFamily.accessoryCircular, .accessoryRectangular, .accessoryInline] {
            let content = WidgetContent(family: family, entry: entry, calendar: F.calendar, period: .thisWeek)
            #expect(content.timers.isEmpty)
            #expect(content.todayTotal == "3:50")
            for format in WidgetRenderFormat.allCases {
                #expect(WidgetRenderer.render(content, format: format).contains("3:50"), "\(family) \(format)")
            }
        }
    }

    // MARK: Staleness

    @Test(arguments: [
        (23 * hour + 59 * minute, false), (24 * hour, false), (24 * hour + 1, true), (24 * hour + minute, true),
    ])
    func aSnapshotIsStaleAfterTwentyFourHours(age: Int64, stale: Bool) {
        let updated = F.publishedAt
        let date = updated.adding(milliseconds: age)
        for running in [0, 1] {
            let data = Self.data(runningTimers: running, now: updated)
            for family in [WidgetFamily.systemSmall, .systemMedium, .systemLarge] {
                let content = Self.content(family, data, at: date)
                #expect(content.isStale == stale)
                #expect(content.caption == (stale ? WidgetWording.staleSnapshot : WidgetWording.today), "\(family)")
                #expect(content.staleNotice == (stale ? WidgetWording.staleSnapshot : nil), "\(family)")
                for format in WidgetRenderFormat.allCases {
                    let rendered = WidgetRenderer.render(content, format: format)
                    #expect(rendered.contains(WidgetWording.staleSnapshot) == stale, "\(family) \(format)")
                }
            }
        }
    }

    @Test(arguments: WidgetPeriod.allCases)
    func aStaleSummaryReplacesThePeriodTitle(period: WidgetPeriod) {
        let data = Self.data(runningTimers: 1, now: F.publishedAt)
        for family in [WidgetFamily.summaryMedium, .summaryLarge] {
            let fresh = Self.content(family, data, at: F.publishedAt.adding(milliseconds: Self.hour), period: period)
            #expect(fresh.caption == WidgetWording.title(of: period))
            let stale = Self.content(
                family, data, at: F.publishedAt.adding(milliseconds: 25 * Self.hour), period: period)
            #expect(stale.caption == WidgetWording.staleSnapshot)
            let text = WidgetRenderer.render(stale, format: .text)
            #expect(text.contains(WidgetWording.staleSnapshot))
            #expect(!text.contains(WidgetWording.title(of: period)))
        }
    }

    @Test func theLockScreenAndTheLiveActivityShowNoStaleness() {
        let data = Self.data(runningTimers: 1, now: F.publishedAt)
        let date = F.publishedAt.adding(milliseconds: 30 * Self.hour)
        for family in [
            WidgetFamily.accessoryCircular, .accessoryRectangular, .accessoryInline, .liveActivity,
            .dynamicIslandCompact, .dynamicIslandExpanded,
        ] {
            let content = Self.content(family, data, at: date)
            #expect(content.isStale)
            #expect(content.staleNotice == nil)
            for format in WidgetRenderFormat.allCases {
                #expect(!WidgetRenderer.render(content, format: format).contains(WidgetWording.staleSnapshot))
            }
        }
    }

    // MARK: Quick start and summaries

    @Test func quickStartOffersTheRecentTagsOrAnUntaggedTimer() {
        let recent = F.Scenario.idle.entry
        let content = WidgetContent(family: .systemMedium, entry: recent, calendar: F.calendar, period: .thisWeek)
        #expect(content.quickStart.map(\.name) == [F.work.name, F.special.name, F.gym.name, F.reading.name])
        #expect(content.quickStart.map(\.tagId) == [F.work.id, F.special.id, F.gym.id, F.reading.id])
        let empty = WidgetContent(
            family: .systemLarge, entry: F.Scenario.empty.entry, calendar: F.calendar, period: .thisWeek)
        #expect(empty.quickStart == [WidgetContent.QuickStart(tagId: nil, name: "Timer", color: .untagged)])
        let small = WidgetContent(family: .systemSmall, entry: recent, calendar: F.calendar, period: .thisWeek)
        #expect(small.quickStart.isEmpty)
    }

    @Test(arguments: [(WidgetFamily.summaryMedium, 4), (.summaryLarge, 10), (.systemLarge, 4)])
    func summaryRowsFoldTheRestIntoOther(family: WidgetFamily, limit: Int) throws {
        // Twelve tags with 12, 11, … 1 minutes today.
        let tags = (1...12).map { WidgetTag(id: F.tagId(UInt64($0)), name: "Tag \($0)", color: "#00FF00") }
        let today = F.calendar.startOfDay(containing: F.publishedAt)
        let data = WidgetData(
            dailyTotals: tags.enumerated().map { index, tag in
                WidgetDayTotal(day: today, tagId: tag.id, milliseconds: Int64(12 - index) * Self.minute)
            },
            summaryTags: tags, lastUpdated: F.publishedAt)
        let summary = try #require(Self.content(family, data, at: F.publishedAt, period: .today).summary)
        #expect(summary.rows.count == limit)
        #expect(summary.rows.dropLast().map(\.name) == tags.prefix(limit - 1).map(\.name))
        let rest = (1...(12 - limit + 1)).reduce(0, +)
        #expect(summary.rows.last == .init(name: "Other", color: .untagged, time: "\(rest)m"))
        #expect(summary.total == "1h 18m")
    }

    @Test func anEmptyPeriodShowsNoRecords() throws {
        for family in [WidgetFamily.summaryMedium, .summaryLarge, .systemLarge] {
            let content = WidgetContent(
                family: family, entry: F.Scenario.empty.entry, calendar: F.calendar, period: .thisMonth)
            let summary = try #require(content.summary)
            #expect(summary.rows.isEmpty)
            for format in WidgetRenderFormat.allCases {
                #expect(WidgetRenderer.render(content, format: format).contains("No records"), "\(family) \(format)")
            }
        }
    }

    @Test func thePeriodChoosesTheSummaryAndItsTitle() throws {
        let entry = F.Scenario.idle.entry
        let totals = try WidgetPeriod.allCases.map { period in
            let content = WidgetContent(family: .summaryMedium, entry: entry, calendar: F.calendar, period: period)
            return try #require(content.summary).total
        }
        #expect(totals == ["3h 50m", "8h 20m", "13h 20m"])
        let large = WidgetContent(family: .systemLarge, entry: entry, calendar: F.calendar, period: .thisMonth)
        #expect(try #require(large.summary).total == "3h 50m", "the large home widget always sums today")
    }
}
