import Testing

@testable import StintCore

@Suite struct TimeArgumentTests {
    static let newYork = LogCalendar(timeZone: "America/New_York", firstWeekday: 1)!
    static let berlin = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!

    func parse(_ text: String, now: String, _ calendar: LogCalendar) throws(DomainError) -> ParsedTime {
        try TimeArgument.parse(text, now: instant(now), calendar: calendar)
    }

    /// (text, now, zone, expected instant, expected notice)
    static let accepted: [(String, String, String, String, Notice.Code?)] = [
        ("now", "2026-11-29T13:07:09.123Z", "America/New_York", "2026-11-29T13:07:09.123Z", nil),
        (" NOW ", "2026-11-29T13:07:09.123Z", "Europe/Berlin", "2026-11-29T13:07:09.123Z", nil),
        ("09:30", "2026-11-29T15:00:00.000Z", "America/New_York", "2026-11-29T14:30:00.000Z", nil),
        ("9:30", "2026-11-29T15:00:00.000Z", "America/New_York", "2026-11-29T14:30:00.000Z", nil),
        ("09:30:15", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T08:30:15.000Z", nil),
        // Today is the log-zone date of now: 02:00Z on the 30th is still the 29th in New York.
        ("20:00", "2026-11-30T02:00:00.000Z", "America/New_York", "2026-11-30T01:00:00.000Z", nil),
        ("yesterday 23:15", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-28T22:15:00.000Z", nil),
        ("Today 08:00", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T07:00:00.000Z", nil),
        ("15m ago", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T14:45:00.000Z", nil),
        ("2h ago", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T13:00:00.000Z", nil),
        ("1h30m ago", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T13:30:00.000Z", nil),
        ("90s ago", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T14:58:30.000Z", nil),
        ("1d2h ago", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-28T13:00:00.000Z", nil),
        // Days keep the wall-clock time: across the spring change, 1d is 23 hours.
        ("1d ago", "2026-03-08T14:00:00.000Z", "America/New_York", "2026-03-07T15:00:00.000Z", nil),
        ("3d ago", "2026-03-30T10:00:00.000Z", "Europe/Berlin", "2026-03-27T11:00:00.000Z", nil),
        // Plain durations are elapsed time: 2h before 03:30 EDT is 00:30 EST.
        ("2h ago", "2026-03-08T07:30:00.000Z", "America/New_York", "2026-03-08T05:30:00.000Z", nil),
        // A day count landing in the gap moves forward by the gap's length.
        ("1d ago", "2026-03-09T06:30:00.000Z", "America/New_York", "2026-03-08T07:30:00.000Z", .shiftedOverGap),
        // A day count landing in the overlap takes the first occurrence.
        ("1d ago", "2026-11-02T06:30:00.000Z", "America/New_York", "2026-11-01T05:30:00.000Z", .ambiguousLocalTime),
        // ISO 8601 with a zone is an instant; without one it is local in the log's zone.
        ("2026-11-29T14:07:09+01:00", "2026-11-29T15:00:00.000Z", "America/New_York", "2026-11-29T13:07:09.000Z", nil),
        ("2026-11-29T13:07:09.5Z", "2026-11-29T15:00:00.000Z", "America/New_York", "2026-11-29T13:07:09.500Z", nil),
        ("2026-11-29T09:30", "2026-11-29T15:00:00.000Z", "America/New_York", "2026-11-29T14:30:00.000Z", nil),
        ("2026-11-29 09:30", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T08:30:00.000Z", nil),
        ("2026-11-29", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-28T23:00:00.000Z", nil),
        // A day and a time, or a day alone for its midnight (2026-11-29 is a Sunday).
        ("monday 09:00", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-23T08:00:00.000Z", nil),
        ("Mon 9:00", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-23T08:00:00.000Z", nil),
        ("sunday 09:00", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-29T08:00:00.000Z", nil),
        ("fri 17:30", "2026-11-30T10:00:00.000Z", "America/New_York", "2026-11-27T22:30:00.000Z", nil),
        ("Monday", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-22T23:00:00.000Z", nil),
        ("yesterday", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-27T23:00:00.000Z", nil),
        ("today", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-28T23:00:00.000Z", nil),
        ("tomorrow 08:00", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-30T07:00:00.000Z", nil),
        ("2026-11-20 9:15", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-20T08:15:00.000Z", nil),
        ("yesterday  23:30", "2026-11-29T15:00:00.000Z", "Europe/Berlin", "2026-11-28T22:30:00.000Z", nil),
        // A day alone starts at its first instant; on a 23-hour day, the day after starts 23 hours later.
        ("2026-03-08", "2026-03-10T12:00:00.000Z", "America/New_York", "2026-03-08T05:00:00.000Z", nil),
        ("2026-03-09", "2026-03-10T12:00:00.000Z", "America/New_York", "2026-03-09T04:00:00.000Z", nil),
        // DST overlap days: the first occurrence, with a notice.
        (
            "2026-11-01T01:30", "2026-11-02T00:00:00.000Z", "America/New_York", "2026-11-01T05:30:00.000Z",
            .ambiguousLocalTime
        ),
        ("01:30", "2026-11-01T12:00:00.000Z", "America/New_York", "2026-11-01T05:30:00.000Z", .ambiguousLocalTime),
        ("02:30", "2026-10-25T12:00:00.000Z", "Europe/Berlin", "2026-10-25T00:30:00.000Z", .ambiguousLocalTime),
        // The explicit offset picks the second occurrence.
        ("2026-11-01T01:30-05:00", "2026-11-02T00:00:00.000Z", "America/New_York", "2026-11-01T06:30:00.000Z", nil),
        // Next to the gap, times exist.
        ("01:59", "2026-03-08T12:00:00.000Z", "America/New_York", "2026-03-08T06:59:00.000Z", nil),
        ("03:00", "2026-03-08T12:00:00.000Z", "America/New_York", "2026-03-08T07:00:00.000Z", nil),
        ("03:00", "2026-03-29T12:00:00.000Z", "Europe/Berlin", "2026-03-29T01:00:00.000Z", nil),
    ]

    @Test(arguments: accepted)
    func acceptedForms(text: String, now: String, zone: String, expected: String, notice: Notice.Code?) throws {
        let calendar = LogCalendar(timeZone: zone, firstWeekday: 2)!
        let parsed = try parse(text, now: now, calendar)
        #expect(parsed.instant == instant(expected))
        #expect(parsed.notice?.code == notice)
        #expect(parsed.text == InputLimits.trimmed(text))
    }

    /// (text, now, zone, expected code)
    static let refused: [(String, String, String, DomainError.Code)] = [
        ("02:30", "2026-03-08T12:00:00.000Z", "America/New_York", .nonexistentLocalTime),
        ("2026-03-08T02:30", "2026-03-09T12:00:00.000Z", "America/New_York", .nonexistentLocalTime),
        ("02:30", "2026-03-29T12:00:00.000Z", "Europe/Berlin", .nonexistentLocalTime),
        ("yesterday 02:00", "2026-03-30T12:00:00.000Z", "Europe/Berlin", .nonexistentLocalTime),
        ("", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("tomorrowish", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("24:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("12:60", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("123:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("12:5", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        (" ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("15 ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("m ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("30m1h ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("1h1h ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("1w ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("1h 30m ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("9999999h ago", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("someday 09:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("monday 25:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("mon tue", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("mo 09:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("2026-11-29 09:30 extra", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("yesterday 25:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("2026-02-30T10:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
        ("2026-11-29T10:00+25:00", "2026-11-29T12:00:00.000Z", "Europe/Berlin", .invalidTime),
    ]

    @Test(arguments: refused)
    func refusedForms(text: String, now: String, zone: String, code: DomainError.Code) {
        let calendar = LogCalendar(timeZone: zone, firstWeekday: 2)!
        let error = domainError { () throws(DomainError) in try parse(text, now: now, calendar) }
        #expect(error?.code == code)
        #expect(error?.category == (code == .invalidTime ? .usage : .refused))
    }

    @Test func theGapMessageNamesTheJumpAndASuggestion() throws {
        let error = try #require(
            domainError { () throws(DomainError) in try parse("02:30", now: "2026-03-08T12:00:00.000Z", Self.newYork) })
        #expect(
            error.message
                == "2026-03-08 02:30 does not exist in America/New_York: clocks jump from 02:00 to 03:00; use 03:30 "
                + "or an explicit offset")
        let berlin = try #require(
            domainError { () throws(DomainError) in try parse("02:15", now: "2026-03-29T12:00:00.000Z", Self.berlin) })
        #expect(berlin.message.contains("clocks jump from 02:00 to 03:00; use 03:15"))
    }

    @Test func theOverlapNoticeNamesBothOccurrences() throws {
        let parsed = try parse("02:30", now: "2026-10-25T12:00:00.000Z", Self.berlin)
        let message = try #require(parsed.notice?.message)
        #expect(message.contains("2026-10-25T02:30:00+02:00"))
        #expect(message.contains("2026-10-25T02:30:00+01:00"))
    }
}
