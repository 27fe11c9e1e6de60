/// A precomputed widget timeline: the entries to show and when to ask for the next timeline.
public struct WidgetTimeline: Hashable, Sendable {
    /// When the widget asks for a new timeline.
    public enum ReloadPolicy: String, Hashable, Sendable {
        /// After the last entry's date.
        case atEnd
    }

    public var policy: ReloadPolicy
    /// In date order.
    public var entries: [WidgetTimelineEntry]

    public init(policy: ReloadPolicy, entries: [WidgetTimelineEntry]) {
        self.policy = policy
        self.entries = entries
    }

    /// `{"policy","entries":[{"date","rolledOver","todayTotal","timers":[{"id","elapsed"}]}]}`.
    public var json: JSON {
        .object([
            JSONField("policy", .string(policy.rawValue)),
            JSONField("entries", .array(entries.map(\.json))),
        ])
    }
}

/// One moment of a widget timeline and everything the widget shows at it, computed for that moment.
public struct WidgetTimelineEntry: Hashable, Sendable {
    /// A running timer's elapsed time at the entry's date.
    public struct TimerElapsed: Hashable, Sendable {
        public var id: EntityID
        public var milliseconds: Int64

        public init(id: EntityID, milliseconds: Int64) {
            self.id = id
            self.milliseconds = milliseconds
        }

        /// `H:MM`, as the widgets show it.
        public var text: String { DurationFormatter.hoursMinutes(milliseconds: milliseconds) }
    }

    /// When the widget starts showing this entry.
    public var date: Instant
    /// Whether ``data`` is the snapshot with today's counters zeroed (the entry is on the next day).
    public var isRolledOver: Bool
    /// The snapshot this entry renders: the published one, or its ``WidgetData/rolledOver()`` form.
    public var data: WidgetData
    /// ``WidgetData/todayTotal(at:calendar:)`` of ``data`` at ``date``, in milliseconds.
    public var todayTotal: Int64
    /// Each running timer's elapsed time at ``date``, in the snapshot's timer order.
    public var timers: [TimerElapsed]

    public init(date: Instant, isRolledOver: Bool, data: WidgetData, todayTotal: Int64, timers: [TimerElapsed]) {
        self.date = date
        self.isRolledOver = isRolledOver
        self.data = data
        self.todayTotal = todayTotal
        self.timers = timers
    }

    /// The entry for `date`, computed from `data` (already rolled over when `isRolledOver`).
    public init(date: Instant, isRolledOver: Bool, data: WidgetData, calendar: LogCalendar) {
        self.init(
            date: date, isRolledOver: isRolledOver, data: data,
            todayTotal: data.todayTotal(at: date, calendar: calendar),
            timers: data.runningTimers.map { TimerElapsed(id: $0.id, milliseconds: $0.duration(at: date)) })
    }

    /// `timer`'s elapsed time at this entry's date as `H:MM`.
    public func elapsed(_ timer: WidgetTimer) -> String {
        DurationFormatter.hoursMinutes(milliseconds: timer.duration(at: date))
    }

    /// The time by tag in `period` around this entry's date.
    public func summary(for period: WidgetPeriod, calendar: LogCalendar) -> WidgetPeriodSummary {
        data.summary(for: period, at: date, calendar: calendar)
    }

    /// `{"date","rolledOver","todayTotal","timers":[{"id","elapsed"}]}`, in that key order.
    public var json: JSON {
        .object([
            JSONField("date", .string(date.iso8601)),
            JSONField("rolledOver", .bool(isRolledOver)),
            JSONField("todayTotal", JSON.seconds(milliseconds: todayTotal)),
            JSONField(
                "timers",
                .array(
                    timers.map {
                        .object([JSONField("id", .string($0.id.uuidString)), JSONField("elapsed", .string($0.text))])
                    })),
        ])
    }
}
