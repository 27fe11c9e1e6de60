/// The snapshot Stint publishes for widgets: running timers, today's counters, recent tags and the
/// daily totals the period summaries are computed from.
///
/// A denormalized, widget-friendly view of a log rather than its records. Build it from a log's state
/// with ``init(source:now:)``, write it with ``encoded()``, read it back with ``init(decoding:)``.
/// Everything time-dependent takes the instant to render for, so a timeline computed now renders
/// correctly later.
///
/// ```swift
/// let data = WidgetData(source: source, now: now)  // source: the fold's ProjectionSource
/// let bytes = data.encoded()
/// ```
public struct WidgetData: Hashable, Sendable {
    /// Running timers, oldest start first, then by id.
    public var runningTimers: [WidgetTimer]
    /// Records (running or completed) that started today, in the log's calendar.
    public var todayRecordsCount: Int
    /// The summed milliseconds of the completed records that started today; running time is added by
    /// ``todayTotal(at:calendar:)``.
    public var todayCompletedMilliseconds: Int64
    /// Up to ``WidgetDataConstants/maxRecentTags`` tags, most recently used first.
    public var recentTags: [WidgetTag]
    /// Completed time by start day and tag, ordered by day, then tag id with untagged first.
    public var dailyTotals: [WidgetDayTotal]
    /// The tags named by ``dailyTotals`` and ``runningTimers``, ordered by id.
    public var summaryTags: [WidgetTag]
    /// When the snapshot was computed; the epoch for snapshots that did not record it, so they read as stale.
    public var lastUpdated: Instant

    public init(
        runningTimers: [WidgetTimer] = [], todayRecordsCount: Int = 0, todayCompletedMilliseconds: Int64 = 0,
        recentTags: [WidgetTag] = [], dailyTotals: [WidgetDayTotal] = [], summaryTags: [WidgetTag] = [],
        lastUpdated: Instant = Instant(milliseconds: 0)
    ) {
        self.runningTimers = runningTimers
        self.todayRecordsCount = todayRecordsCount
        self.todayCompletedMilliseconds = todayCompletedMilliseconds
        self.recentTags = recentTags
        self.dailyTotals = dailyTotals
        self.summaryTags = summaryTags
        self.lastUpdated = lastUpdated
    }

    /// Today's tracked milliseconds as of `instant`: the completed time plus, for each running timer,
    /// the part of `[start, instant]` that falls on `instant`'s day in `calendar`.
    ///
    /// A timer that started yesterday contributes only the time since midnight; on a DST day that is
    /// elapsed time, not wall-clock time (at 12:00 on a 23-hour day, 11 hours have passed since midnight).
    public func todayTotal(at instant: Instant, calendar: LogCalendar) -> Int64 {
        let midnight = calendar.startOfDay(containing: instant)
        return runningTimers.reduce(todayCompletedMilliseconds) { total, timer in
            total + max(0, instant.milliseconds(since: max(timer.startTime, midnight)))
        }
    }

    /// The same snapshot with today's counters zeroed, for timeline entries from the next midnight on.
    ///
    /// Timers, tags and daily totals are kept: the period summaries roll over by themselves because
    /// each entry sums the period around its own date.
    public func rolledOver() -> WidgetData {
        var copy = self
        copy.todayRecordsCount = 0
        copy.todayCompletedMilliseconds = 0
        return copy
    }

    /// Whether both snapshots show the same thing: equal in everything but ``lastUpdated``.
    ///
    /// `stint publish` rewrites the snapshot file only when the new one is not equivalent to the one on
    /// disk (or that one is stale, see ``replaces(_:at:)``), so back-to-back publishes of an unchanged
    /// state cost no widget reload.
    public func isEquivalent(to other: WidgetData) -> Bool {
        var other = other
        other.lastUpdated = lastUpdated
        return self == other
    }

    /// Whether a publisher writes this snapshot, built at `now`, over `existing`, the snapshot in the file
    /// (nil when there is none).
    ///
    /// The unchanged-snapshot rule: an equivalent snapshot (``isEquivalent(to:)``) is neither written nor
    /// reloaded, which saves widget reloads. But a stale one (``isStale(at:)`` at `now`, older than 24
    /// hours) is rewritten even when equivalent: the widget shows "refresh" on a stale snapshot, and only a
    /// new `lastUpdated` clears it. The rule exists to save reloads, not to keep stale data.
    public func replaces(_ existing: WidgetData?, at now: Instant) -> Bool {
        guard let existing else { return true }
        return !isEquivalent(to: existing) || existing.isStale(at: now)
    }

    /// Whether the snapshot is older than ``WidgetDataConstants/staleSnapshotAgeMilliseconds`` at `instant`.
    public func isStale(at instant: Instant) -> Bool {
        instant.milliseconds(since: lastUpdated) > WidgetDataConstants.staleSnapshotAgeMilliseconds
    }
}
