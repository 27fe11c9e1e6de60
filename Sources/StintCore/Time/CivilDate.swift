/// A proleptic Gregorian calendar date with no time zone, and the day-count arithmetic behind it.
///
/// Used to format and parse ISO 8601 text without Foundation's formatters, whose output depends on the
/// platform. Days are counted from 1970-01-01.
public struct CivilDate: Hashable, Comparable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whether `year` is a leap year of the Gregorian calendar.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether the fields name a real date.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01 (negative before it).
    ///
    /// Counts in 400-year eras of 146 097 days, with the year starting in March so that the leap day
    /// is the last day of the counting year.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: Int(year), month: Int(month), day: Int(day))
    }

    /// The weekday, 1 = Sunday … 7 = Saturday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (5).
        let offset = (daysSinceEpoch + 4) % 7
        return Int(offset < 0 ? offset + 7 : offset) + 1
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    /// `YYYY-MM-DD`.
    public var iso8601: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
    }

    /// `value` in decimal, zero-padded to `width` digits.
    public static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}
