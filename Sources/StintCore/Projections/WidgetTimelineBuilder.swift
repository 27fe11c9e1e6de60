/// Computes the entries a widget shows until it next asks for a timeline.
///
/// - With a timer running: an entry at `now` and one at each of the next 60 minute boundaries (61
///   entries; when `now` is itself on a boundary, the 60 boundaries after it). Elapsed times show as
///   `H:MM`, so one entry a minute is enough, and a reload an hour costs little of the widget's budget.
/// - With none: an entry at `now` and one at the next local midnight, where today's counters reset.
/// - Entries at or after the first midnight after the snapshot was published (its `lastUpdated`, or `now`
///   if that is earlier) render ``WidgetData/rolledOver()`` data: a timeline built on a later day than the
///   snapshot, as a widget's reload after midnight does, never shows yesterday's counters as today's.
///
/// The policy is always ``WidgetTimeline/ReloadPolicy/atEnd``.
///
/// ```swift
/// let timeline = WidgetTimelineBuilder.timeline(for: data, now: now, calendar: source.calendar)
/// print(timeline.json.encodedString)
/// ```
public enum WidgetTimelineBuilder {
    /// How many minute entries follow `now` while a timer runs.
    public static let minuteEntries = 60

    /// The length of a minute in milliseconds (minutes, unlike days, always have 60 seconds).
    static let minute: Int64 = 60_000

    /// The dates of the entries for `data` at `now`.
    ///
    /// Minute boundaries are whole minutes on the log zone's clock (the same instants as UTC's whole
    /// minutes in every zone whose offset is a whole number of minutes, which today is all of them).
    public static func entryDates(for data: WidgetData, now: Instant, calendar: LogCalendar) -> [Instant] {
        guard !data.runningTimers.isEmpty else {
            return [now, calendar.startOfNextDay(after: now)]
        }
        let intoMinute = calendar.local(now).millisecondOfDay % minute
        let first = now.adding(milliseconds: minute - intoMinute)
        return [now] + (0..<Int64(minuteEntries)).map { first.adding(milliseconds: $0 * minute) }
    }

    /// The timeline for `data` at `now`.
    public static func timeline(for data: WidgetData, now: Instant, calendar: LogCalendar) -> WidgetTimeline {
        let midnight = calendar.startOfNextDay(after: min(now, data.lastUpdated))
        let rolled = data.rolledOver()
        let entries = entryDates(for: data, now: now, calendar: calendar).map { date in
            date >= midnight
                ? WidgetTimelineEntry(date: date, isRolledOver: true, data: rolled, calendar: calendar)
                : WidgetTimelineEntry(date: date, isRolledOver: false, data: data, calendar: calendar)
        }
        return WidgetTimeline(policy: .atEnd, entries: entries)
    }
}
