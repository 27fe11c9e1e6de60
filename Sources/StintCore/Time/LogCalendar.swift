import Foundation

/// The calendar a log computes days and weeks in: an IANA time zone and the first day of the week.
///
/// Both come from the log's settings (its first event), never from the machine, so every projection
/// is the same wherever it runs. Day and week boundaries are computed on calendar dates and turned
/// into instants through the zone's offset, so a day lasts 23 or 25 hours across a DST change.
public struct LogCalendar: Sendable, Hashable {
    /// The IANA identifier, such as `Europe/Berlin`.
    public let timeZoneIdentifier: String
    /// 1 = Sunday … 7 = Saturday.
    public let firstWeekday: Int
    let zone: TimeZone

    /// Creates a calendar; nil when the zone is unknown or `firstWeekday` is outside 1…7.
    public init?(timeZone identifier: String, firstWeekday: Int) {
        guard (1...7).contains(firstWeekday), let zone = TimeZone(identifier: identifier) else { return nil }
        self.timeZoneIdentifier = identifier
        self.firstWeekday = firstWeekday
        self.zone = zone
    }

    public static func == (lhs: LogCalendar, rhs: LogCalendar) -> Bool {
        lhs.timeZoneIdentifier == rhs.timeZoneIdentifier && lhs.firstWeekday == rhs.firstWeekday
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timeZoneIdentifier)
        hasher.combine(firstWeekday)
    }

    /// UTC and Monday-first: handy for tests and for logs that track time in UTC.
    public static let utc = LogCalendar(timeZone: "UTC", firstWeekday: 2)!

    /// The zone's offset from UTC at `instant`, in seconds.
    public func offsetSeconds(at instant: Instant) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }

    /// The wall-clock reading of `instant` in this zone.
    public func local(_ instant: Instant) -> LocalDateTime {
        LocalDateTime(instant, offsetSeconds: offsetSeconds(at: instant))
    }

    /// The local calendar date `instant` falls on.
    public func date(of instant: Instant) -> CivilDate {
        local(instant).date
    }

    /// How a wall-clock time maps onto instants in this zone.
    public enum Resolution: Hashable, Sendable {
        /// The time occurs once.
        case unique(Instant)
        /// The time occurs twice (clocks were set back); `first` is the earlier instant.
        case ambiguous(first: Instant, second: Instant)
        /// The time does not occur (clocks jumped over it); `next` is the first instant after the gap.
        case nonexistent(next: Instant)
    }

    /// Resolves a wall-clock time to the instants it names.
    public func resolve(_ local: LocalDateTime) -> Resolution {
        let naive = local.instant(offsetSeconds: 0)
        let day: Int64 = 86_400_000
        let offsets = Set([
            offsetSeconds(at: naive.adding(milliseconds: -day)),
            offsetSeconds(at: naive),
            offsetSeconds(at: naive.adding(milliseconds: day)),
        ])
        let matches = offsets.map { local.instant(offsetSeconds: $0) }
            .filter { offsetSeconds(at: $0) == Int(naive.milliseconds - $0.milliseconds) / 1000 }
            .sorted()
        if let first = matches.first {
            return matches.count > 1 && matches.last! != first
                ? .ambiguous(first: first, second: matches.last!) : .unique(first)
        }
        // In a gap: the transition happened between the two readings of the smallest offset.
        let smallest = offsets.min()!
        let before = local.instant(offsetSeconds: offsets.max()!)
        let after = local.instant(offsetSeconds: smallest)
        return .nonexistent(next: transition(between: before, and: after))
    }

    /// The first instant in `(low, high]` at which the zone's offset differs from its offset at `low`.
    func transition(between low: Instant, and high: Instant) -> Instant {
        let initial = offsetSeconds(at: low)
        var lower = low.milliseconds
        var upper = high.milliseconds
        while upper - lower > 1 {
            let middle = lower + (upper - lower) / 2
            if offsetSeconds(at: Instant(milliseconds: middle)) == initial {
                lower = middle
            } else {
                upper = middle
            }
        }
        return Instant(milliseconds: upper)
    }

    /// The instant a local date begins: its midnight, or the first instant after a gap that swallowed it.
    public func startOfDay(_ date: CivilDate) -> Instant {
        switch resolve(LocalDateTime(date: date, millisecondOfDay: 0)) {
        case .unique(let instant): return instant
        case .ambiguous(let first, _): return first
        case .nonexistent(let next): return next
        }
    }

    /// The start of the day `instant` falls on.
    public func startOfDay(containing instant: Instant) -> Instant {
        startOfDay(date(of: instant))
    }

    /// The start of the day after the one `instant` falls on (the next midnight).
    public func startOfNextDay(after instant: Instant) -> Instant {
        startOfDay(date(of: instant).adding(days: 1))
    }

    /// The first date of the week containing `date`, by this calendar's first weekday.
    public func weekStart(of date: CivilDate) -> CivilDate {
        date.adding(days: -((date.weekday - firstWeekday + 7) % 7))
    }

    /// The first date of the month containing `date`.
    public func monthStart(of date: CivilDate) -> CivilDate {
        CivilDate(year: date.year, month: date.month, day: 1)
    }

    /// The first date of the month after the one containing `date`.
    public func nextMonthStart(of date: CivilDate) -> CivilDate {
        date.month == 12
            ? CivilDate(year: date.year + 1, month: 1, day: 1)
            : CivilDate(year: date.year, month: date.month + 1, day: 1)
    }
}

/// A half-open span of time, `[start, end)`.
public struct TimeInterval64: Hashable, Sendable {
    public var start: Instant
    public var end: Instant

    public init(start: Instant, end: Instant) {
        self.start = start
        self.end = end
    }

    public func contains(_ instant: Instant) -> Bool {
        instant >= start && instant < end
    }

    /// The length in milliseconds.
    public var milliseconds: Int64 { end.milliseconds - start.milliseconds }
}

extension LogCalendar {
    /// The local day containing `instant`.
    public func dayInterval(containing instant: Instant) -> TimeInterval64 {
        let date = date(of: instant)
        return TimeInterval64(start: startOfDay(date), end: startOfDay(date.adding(days: 1)))
    }

    /// The week containing `instant`, starting on the first weekday.
    public func weekInterval(containing instant: Instant) -> TimeInterval64 {
        let start = weekStart(of: date(of: instant))
        return TimeInterval64(start: startOfDay(start), end: startOfDay(start.adding(days: 7)))
    }

    /// The month containing `instant`.
    public func monthInterval(containing instant: Instant) -> TimeInterval64 {
        let date = date(of: instant)
        return TimeInterval64(start: startOfDay(monthStart(of: date)), end: startOfDay(nextMonthStart(of: date)))
    }
}
