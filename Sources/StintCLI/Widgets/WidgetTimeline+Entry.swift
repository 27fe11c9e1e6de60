import StintCore

extension WidgetTimeline {
    /// The entry in effect at `instant`: the last entry whose date is at or before it.
    ///
    /// nil when `instant` is before the first entry. Past the last entry the last one stays in effect;
    /// ``WidgetTimelineBuilder/entry(for:publishedAt:at:calendar:)`` follows the widget's reloads instead.
    func entry(at instant: Instant) -> WidgetTimelineEntry? {
        entries.last { $0.date <= instant }
    }
}

extension WidgetTimelineBuilder {
    /// The entry a widget shows at `instant` for the snapshot `data` published at `publishedAt`: the entry
    /// in effect at `instant` of the timeline it built at its last reload at or before `instant`
    /// (``timeline(for:publishedAt:showingAt:calendar:)``). A timeline's entries end 60 minutes or one
    /// midnight after it was built, so only a later reload can show a stale snapshot.
    ///
    /// - Returns: nil when `instant` is before `publishedAt` (the snapshot did not exist yet).
    static func entry(
        for data: WidgetData, publishedAt: Instant, at instant: Instant, calendar: LogCalendar
    ) -> WidgetTimelineEntry? {
        timeline(for: data, publishedAt: publishedAt, showingAt: instant, calendar: calendar)?.entry(at: instant)
    }
}
