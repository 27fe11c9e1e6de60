/// A wall-clock date and time with no time zone, as a person reads it off a clock.
public struct LocalDateTime: Hashable, Comparable, Sendable {
    public var date: CivilDate
    /// Milliseconds since the start of the day, 0 ..< 86 400 000.
    public var millisecondOfDay: Int64

    public init(date: CivilDate, millisecondOfDay: Int64) {
        self.date = date
        self.millisecondOfDay = millisecondOfDay
    }

    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0, millisecond: Int = 0) {
        self.date = date
        self.millisecondOfDay = Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.millisecondOfDay) < (rhs.date, rhs.millisecondOfDay)
    }

    public var hour: Int { Int(millisecondOfDay / 3_600_000) }
    public var minute: Int { Int(millisecondOfDay / 60_000 % 60) }
    public var second: Int { Int(millisecondOfDay / 1000 % 60) }
    public var millisecond: Int { Int(millisecondOfDay % 1000) }

    /// The instant this wall-clock time names at a fixed offset from UTC.
    public func instant(offsetSeconds: Int) -> Instant {
        Instant(milliseconds: date.daysSinceEpoch * 86_400_000 + millisecondOfDay - Int64(offsetSeconds) * 1000)
    }

    /// The wall-clock reading of `instant` at a fixed offset from UTC.
    public init(_ instant: Instant, offsetSeconds: Int) {
        let local = instant.milliseconds + Int64(offsetSeconds) * 1000
        let dayMs: Int64 = 86_400_000
        let days = local >= 0 ? local / dayMs : (local - dayMs + 1) / dayMs
        self.init(date: CivilDate(daysSinceEpoch: days), millisecondOfDay: local - days * dayMs)
    }

    /// `YYYY-MM-DDTHH:MM:SS` (and `.mmm` when the milliseconds are not zero).
    public var iso8601: String {
        var text = "\(date.iso8601)T\(CivilDate.pad(hour, 2)):\(CivilDate.pad(minute, 2)):\(CivilDate.pad(second, 2))"
        if millisecond != 0 { text += "." + CivilDate.pad(millisecond, 3) }
        return text
    }
}
