extension WidgetData {
    /// The time by tag in `period` around `now`: the daily totals of the days in the period, plus the
    /// elapsed time at `now` of each running timer that started in the period.
    ///
    /// A timer that started before the period (yesterday's timer in today's summary) adds nothing.
    /// Rows are named by ``summaryTags``, then by the timers' tag names; time whose tag id neither names
    /// (a snapshot written without summary tags) counts as untagged. Because each call sums the period
    /// around its own `now`, a timeline entry after midnight shows the new day, week or month even when
    /// the snapshot was written the day before.
    public func summary(for period: WidgetPeriod, at now: Instant, calendar: LogCalendar) -> WidgetPeriodSummary {
        let interval = period.interval(containing: now, calendar: calendar)
        var labels: [EntityID: (name: String, color: String?)] = [:]
        for timer in runningTimers {
            if let id = timer.tagId, let name = timer.tagName { labels[id] = (name, timer.tagColor) }
        }
        for tag in summaryTags { labels[tag.id] = (tag.name, tag.color) }

        var sums: [EntityID?: Int64] = [:]
        func add(_ milliseconds: Int64, to tagId: EntityID?) {
            sums[tagId.flatMap { labels[$0] == nil ? nil : $0 }, default: 0] += milliseconds
        }
        for total in dailyTotals where interval.contains(total.day) {
            add(total.milliseconds, to: total.tagId)
        }
        for timer in runningTimers where interval.contains(timer.startTime) {
            add(timer.duration(at: now), to: timer.tagId)
        }
        let rows = sums.map { tagId, milliseconds in
            guard let tagId, let label = labels[tagId] else {
                return WidgetPeriodSummary.Row(name: WidgetPeriodSummary.untaggedName, milliseconds: milliseconds)
            }
            return WidgetPeriodSummary.Row(
                name: label.name, milliseconds: milliseconds, tagId: tagId, color: label.color)
        }
        return WidgetPeriodSummary(
            period: period, start: interval.start, end: interval.end,
            total: rows.reduce(0) { $0 + $1.milliseconds },
            rows: rows.sorted(by: WidgetPeriodSummary.Row.precedes))
    }
}
