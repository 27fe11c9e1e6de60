import StintCore

extension WidgetTimeline {
    /// The entry in effect at `instant`: the last entry whose date is at or before it.
    ///
    /// nil when `instant` is before the first entry. Past the last entry the last one stays in effect;
    /// ``WidgetTimelineBuilder/entry(for:publishedAt:at:calendar:)`` follows the widget's reload instead.
    func entry(at instant: Instant) -> WidgetTimelineEntry? {
        entries.last { $0.date <= instant }
    }
}

extension WidgetTimelineBuilder {
    /// The entry a widget shows at `instant` for the snapshot `data` published at `publishedAt`.
    ///
    /// Up to the last entry of the timeline built at publication, the entry in effect at `instant`. After
    /// it, the widget has reloaded (the policy is ``WidgetTimeline/ReloadPolicy/atEnd``) and, with no newer
    /// snapshot, builds a timeline for the same data at the moment it reloads; this returns the first entry
    /// of that timeline built at `instant`. Only that path can show a stale snapshot: a timeline's own
    /// entries end 60 minutes or one midnight after publication.
    ///
    /// - Returns: nil when `instant` is before `publishedAt` (the snapshot did not exist yet).
    static func entry(
        for data: WidgetData, publishedAt: Instant, at instant: Instant, calendar: LogCalendar
    ) -> WidgetTimelineEntry? {
        let published = timeline(for: data, now: publishedAt, calendar: calendar)
        guard let last = published.entries.last, instant > last.date else { return published.entry(at: instant) }
        return timeline(for: data, now: instant, calendar: calendar).entries.first
    }
}
