/// A period the "time by tag" summary covers: today, this week or this month, in the log's calendar.
public enum WidgetPeriod: CaseIterable, Hashable, Sendable {
    case today
    case thisWeek
    case thisMonth

    /// The name used in JSON and on the command line: `today`, `week` or `month`.
    public var name: String {
        switch self {
        case .today: return "today"
        case .thisWeek: return "week"
        case .thisMonth: return "month"
        }
    }

    /// The period named `name` (`today`, `week` or `month`); nil for any other text.
    public init?(name: String) {
        guard let period = WidgetPeriod.allCases.first(where: { $0.name == name }) else { return nil }
        self = period
    }

    /// The period around `now`: its local day, its week (starting on the calendar's first weekday) or
    /// its month, as instants.
    ///
    /// Boundaries are local midnights computed on calendar dates, so a day lasts 23 or 25 hours across
    /// a DST change and a week containing one lasts 167 or 169 hours.
    public func interval(containing now: Instant, calendar: LogCalendar) -> TimeInterval64 {
        switch self {
        case .today: return calendar.dayInterval(containing: now)
        case .thisWeek: return calendar.weekInterval(containing: now)
        case .thisMonth: return calendar.monthInterval(containing: now)
        }
    }

    /// The earlier of the current week's and the current month's start: where the snapshot's daily
    /// totals begin, so that every period's summary can be computed from them.
    public static func earliestStart(at now: Instant, calendar: LogCalendar) -> Instant {
        min(
            calendar.weekInterval(containing: now).start,
            calendar.monthInterval(containing: now).start)
    }

    /// The later of the current week's and the current month's end: where the daily totals stop.
    public static func latestEnd(at now: Instant, calendar: LogCalendar) -> Instant {
        max(
            calendar.weekInterval(containing: now).end,
            calendar.monthInterval(containing: now).end)
    }
}
