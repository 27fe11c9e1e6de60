import StintCore

extension WidgetContent {
    /// What `family` shows at `entry`: the entry's snapshot, its date, and for the Time by Tag widgets
    /// `period` (the large home widget always sums today).
    ///
    /// - Home widgets: the first timer and "+N" (small, medium), up to three timers and "+N more" with
    ///   "Stop All" when two or more run (large); today's total and record count; quick-start buttons for
    ///   the recent tags, or an untagged "Timer" button when there are none (medium, large); today's time
    ///   by tag, four rows (large).
    /// - Lock screen: the first timer and "+N" (circular, inline); three timers, or two and "+N more"
    ///   (rectangular); with none running, today's total.
    /// - Time by Tag: the period's title and total, and 4 (medium) or 10 (large) rows, the last folding
    ///   the rest into "Other".
    /// - Live Activity: the ``LiveActivityContent`` for the entry's timers, up to three rows and "+N
    ///   more", "Stop All" when two or more run.
    ///
    /// On a stale snapshot (``WidgetData/isStale(at:)`` at the entry's date) the families that show
    /// staleness (``showsStaleness(_:)``) replace their caption with ``WidgetWording/staleSnapshot``.
    init(family: WidgetFamily, entry: WidgetTimelineEntry, calendar: LogCalendar, period: WidgetPeriod) {
        let data = entry.data
        let isStale = data.isStale(at: entry.date)
        let timers = data.runningTimers.map { timer in
            Timer(
                id: timer.id, name: timer.tagName ?? WidgetWording.untaggedTimer,
                color: WidgetColor.tag(timer.tagColor),
                comment: timer.comment, elapsedMilliseconds: timer.duration(at: entry.date))
        }
        let staleCaption = isStale && WidgetContent.showsStaleness(family)

        var caption = staleCaption ? WidgetWording.staleSnapshot : WidgetWording.today
        var list = WidgetTimerList.first(of: timers)
        var showsStopAll = false
        var quickStart: [QuickStart] = []
        var summary: Summary?

        switch family {
        case .systemSmall, .accessoryCircular, .accessoryInline:
            break
        case .systemMedium:
            quickStart = WidgetContent.quickStart(data.recentTags)
        case .systemLarge:
            list = .prefix(WidgetContent.listedTimerLimit, of: timers)
            showsStopAll = timers.count > 1
            quickStart = WidgetContent.quickStart(data.recentTags)
            summary = WidgetContent.summary(
                entry.summary(for: .today, calendar: calendar), title: WidgetWording.timeByTag,
                limit: WidgetContent.largeSummaryRowLimit)
        case .accessoryRectangular:
            list = .fitting(lines: WidgetContent.rectangularLines, of: timers)
        case .summaryMedium, .summaryLarge:
            let title = WidgetWording.title(of: period)
            caption = staleCaption ? WidgetWording.staleSnapshot : title
            list = .prefix(0, of: [])
            summary = WidgetContent.summary(
                entry.summary(for: period, calendar: calendar), title: title, limit: family.summaryRowLimit ?? 1)
        case .liveActivity, .dynamicIslandCompact, .dynamicIslandExpanded:
            let activity = LiveActivityContent(runningTimers: data.runningTimers)
            let shown = activity.timers.prefix(WidgetContent.listedTimerLimit).map { timer in
                Timer(
                    id: timer.id, name: timer.tagName ?? WidgetWording.untaggedTimer,
                    color: WidgetColor.tag(timer.tagColor), comment: timer.comment,
                    elapsedMilliseconds: timer.duration(at: entry.date))
            }
            list = WidgetTimerList(shown: shown, moreCount: activity.runningCount - shown.count)
            showsStopAll = activity.runningCount > 1
            caption = WidgetWording.noLiveActivity
        }

        self.init(
            family: family, date: entry.date, isStale: isStale, caption: caption, timers: list,
            showsStopAll: showsStopAll, todayTotal: DurationFormatter.hoursMinutes(milliseconds: entry.todayTotal),
            todayRecords: WidgetWording.records(data.todayRecordsCount), quickStart: quickStart, summary: summary)
    }

    /// The quick-start buttons for `recentTags` (at most four), or one untagged "Timer" button.
    static func quickStart(_ recentTags: [WidgetTag]) -> [QuickStart] {
        let tags = recentTags.prefix(WidgetDataConstants.maxRecentTags).map {
            QuickStart(tagId: $0.id, name: $0.name, color: WidgetColor.tag($0.color))
        }
        return tags.isEmpty ? [QuickStart(tagId: nil, name: WidgetWording.untaggedTimer, color: .untagged)] : tags
    }

    /// `summary` as a section titled `title`, its rows folded to `limit` by `WidgetPeriodSummary.rows(limit:)`.
    static func summary(_ summary: WidgetPeriodSummary, title: String, limit: Int) -> Summary {
        Summary(
            title: title, total: DurationFormatter.compact(milliseconds: summary.total),
            rows: summary.rows(limit: limit).map { row in
                Summary.Row(
                    name: row.name, color: WidgetColor.tag(row.color),
                    time: DurationFormatter.compact(milliseconds: row.milliseconds))
            })
    }
}
