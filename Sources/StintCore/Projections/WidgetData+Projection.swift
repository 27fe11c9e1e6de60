extension WidgetData {
    /// Projects a log's state at `now` into a widget snapshot.
    ///
    /// - `todayRecordsCount` and `todayCompletedMilliseconds` count the records that started on the
    ///   day of `now` in the log's calendar (the completed ones for the duration).
    /// - `dailyTotals` cover the completed records that started in
    ///   `[WidgetPeriod.earliestStart, WidgetPeriod.latestEnd)` around `now`.
    /// - `recentTags` are the most recently used tags that are neither archived nor deleted.
    /// - A deleted tag's (or an unknown tag id's) time and timers count as untagged; an archived tag
    ///   still names past time and running timers.
    /// - `lastUpdated` is `now`.
    public init(source: ProjectionSource, now: Instant) {
        let calendar = source.calendar
        let today = calendar.dayInterval(containing: now)
        var count = 0
        var completed: Int64 = 0
        for record in source.records where today.contains(record.start) {
            count += 1
            completed += record.durationMilliseconds ?? 0
        }
        let timers = WidgetTimer.make(runningTimers: source.records, tags: source.tags)
        let totals = WidgetData.dailyTotals(from: source.records, tags: source.tags, calendar: calendar, at: now)
        self.init(
            runningTimers: timers, todayRecordsCount: count, todayCompletedMilliseconds: completed,
            recentTags: WidgetData.recentTags(ids: source.recentTagIds, tags: source.tags),
            dailyTotals: totals,
            summaryTags: WidgetData.summaryTags(dailyTotals: totals, runningTimers: timers, tags: source.tags),
            lastUpdated: now)
    }

    /// Completed time by start day and tag for the records that started in the summary window around
    /// `now` (from ``WidgetPeriod/earliestStart(at:calendar:)`` up to ``WidgetPeriod/latestEnd(at:calendar:)``).
    ///
    /// A record counts whole on the day it started, even when it ran past midnight. Running records are
    /// left out (the summary adds their elapsed time itself). Time of a deleted tag, or of a tag id
    /// `tags` does not know, is untagged. The order is fixed — by day, then tag id with untagged first —
    /// so an unchanged state encodes to the same bytes.
    public static func dailyTotals(
        from records: some Sequence<Record>, tags: [EntityID: Tag], calendar: LogCalendar, at now: Instant
    ) -> [WidgetDayTotal] {
        let window = TimeInterval64(
            start: WidgetPeriod.earliestStart(at: now, calendar: calendar),
            end: WidgetPeriod.latestEnd(at: now, calendar: calendar))
        var sums: [DayTagKey: Int64] = [:]
        // Many records start on the same few days; remember each local date's start.
        var dayStarts: [CivilDate: Instant] = [:]
        for record in records where window.contains(record.start) {
            guard let duration = record.durationMilliseconds else { continue }
            let date = calendar.date(of: record.start)
            let day: Instant
            if let known = dayStarts[date] {
                day = known
            } else {
                day = calendar.startOfDay(date)
                dayStarts[date] = day
            }
            sums[DayTagKey(day: day, tagId: namedTagId(record.tagId, tags: tags)), default: 0] += duration
        }
        return sums.map { WidgetDayTotal(day: $0.key.day, tagId: $0.key.tagId, milliseconds: $0.value) }
            .sorted(by: WidgetDayTotal.precedes)
    }

    /// The tags in `ids` (newest use first) that are neither archived nor deleted, without repeats,
    /// at most ``WidgetDataConstants/maxRecentTags``.
    public static func recentTags(ids: [EntityID], tags: [EntityID: Tag]) -> [WidgetTag] {
        var seen = Set<EntityID>()
        var result: [WidgetTag] = []
        for id in ids where result.count < WidgetDataConstants.maxRecentTags && seen.insert(id).inserted {
            guard let tag = tags[id], !tag.isArchived, !tag.isDeleted else { continue }
            result.append(WidgetTag(tag))
        }
        return result
    }

    /// The tags named by `dailyTotals` and `runningTimers`, ordered by id.
    package static func summaryTags(
        dailyTotals: [WidgetDayTotal], runningTimers: [WidgetTimer], tags: [EntityID: Tag]
    ) -> [WidgetTag] {
        let ids = Set(dailyTotals.compactMap(\.tagId)).union(runningTimers.compactMap(\.tagId))
        return ids.sorted().compactMap { id in tags[id].map(WidgetTag.init) }
    }

    /// `id` when it names a tag that is not deleted; nil otherwise (the time counts as untagged).
    package static func namedTagId(_ id: EntityID?, tags: [EntityID: Tag]) -> EntityID? {
        guard let id, let tag = tags[id], !tag.isDeleted else { return nil }
        return id
    }
}

/// A (day, tag) pair that daily totals are summed under.
private struct DayTagKey: Hashable {
    var day: Instant
    var tagId: EntityID?
}
