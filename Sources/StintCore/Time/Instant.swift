/// A point in time with millisecond precision, counted from the Unix epoch in UTC.
///
/// Stint stores every instant at millisecond precision so that an instant always has exactly one
/// text form (`2026-11-29T13:07:09.123Z`) and durations are exact integers. Nothing in the core reads
/// the clock: instants come from the caller.
public struct Instant: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before it).
    public var milliseconds: Int64

    /// Creates an instant from milliseconds since the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Creates an instant from whole seconds since the Unix epoch.
    public init(seconds: Int64) {
        self.milliseconds = seconds * 1000
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// The instant `milliseconds` later (earlier when negative).
    public func adding(milliseconds delta: Int64) -> Instant {
        Instant(milliseconds: milliseconds + delta)
    }

    /// The milliseconds from `earlier` to `self` (negative when `earlier` is later).
    public func milliseconds(since earlier: Instant) -> Int64 {
        milliseconds - earlier.milliseconds
    }
}

extension Instant: CustomStringConvertible {
    public var description: String { iso8601 }
}
