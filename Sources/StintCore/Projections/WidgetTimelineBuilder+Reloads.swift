/// A widget reload: the moment WidgetKit asks for a new timeline, and why.
public struct WidgetReload: Hashable, Sendable {
    /// Why the widget reloaded.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The app wrote a changed snapshot and reloaded its widgets.
        case write
        /// A running timer's timeline ended after its 60 minute entries (about one an hour).
        case hourly
        /// An idle timeline ended at its midnight entry (one a day).
        case midnight
    }

    /// When the widget reloads.
    public var date: Instant
    public var kind: Kind

    public init(date: Instant, kind: Kind) {
        self.date = date
        self.kind = kind
    }
}

extension WidgetTimelineBuilder {
    /// When a widget that built its timeline for `data` at `builtAt` asks for the next one.
    ///
    /// The policy is ``WidgetTimeline/ReloadPolicy/atEnd``: the widget reloads at its last entry's date,
    /// the 60th minute boundary after `builtAt` while a timer runs (``WidgetReload/Kind/hourly``), the
    /// next local midnight otherwise (``WidgetReload/Kind/midnight``). Each costs a unit of the widget's
    /// daily reload budget. Always later than `builtAt`.
    public static func nextReload(for data: WidgetData, builtAt: Instant, calendar: LogCalendar) -> WidgetReload {
        let date = entryDates(for: data, now: builtAt, calendar: calendar).last ?? builtAt
        return WidgetReload(date: date, kind: data.runningTimers.isEmpty ? .midnight : .hourly)
    }

    /// How many days after publication ``timeline(for:publishedAt:showingAt:calendar:)`` follows the widget's
    /// reloads one by one.
    static let walkedDays = 400

    /// The reloads the widget's own timelines ask for after `data` was published at `publishedAt`, while no
    /// newer snapshot is written: each timeline is built at the previous reload and ends at the next.
    ///
    /// - Parameter end: only reloads before this instant are returned.
    public static func scheduledReloads(
        for data: WidgetData, publishedAt: Instant, before end: Instant, calendar: LogCalendar
    ) -> [WidgetReload] {
        var reloads: [WidgetReload] = []
        var builtAt = publishedAt
        while true {
            let next = nextReload(for: data, builtAt: builtAt, calendar: calendar)
            guard next.date < end, next.date > builtAt else { return reloads }
            reloads.append(next)
            builtAt = next.date
        }
    }

    /// The timeline a widget shows at `instant` for the snapshot `data` published at `publishedAt`: the one
    /// it built at its last reload at or before `instant` (at publication, or at the end of the timeline
    /// before, see ``scheduledReloads(for:publishedAt:before:calendar:)``).
    ///
    /// - Returns: nil when `instant` is before `publishedAt` (the snapshot did not exist yet).
    public static func timeline(
        for data: WidgetData, publishedAt: Instant, showingAt instant: Instant, calendar: LogCalendar
    ) -> WidgetTimeline? {
        guard instant >= publishedAt else { return nil }
        var builtAt = publishedAt
        // Long after publication (a widget left alone for a year, or a clock at 9999-12-31) the walk starts
        // at the midnight two days before `instant` instead of at publication: after the first reload, an
        // idle widget reloads at midnights and a running timer's on the hour, so the walk from there meets
        // the same reloads.
        let farAfter = calendar.startOfDay(calendar.date(of: publishedAt).adding(days: Self.walkedDays))
        if instant > farAfter {
            builtAt = max(builtAt, calendar.startOfDay(calendar.date(of: instant).adding(days: -2)))
        }
        while true {
            let next = nextReload(for: data, builtAt: builtAt, calendar: calendar).date
            guard next <= instant, next > builtAt else { break }
            builtAt = next
        }
        return timeline(for: data, now: builtAt, calendar: calendar)
    }
}
