import Testing

@testable import StintCore

@Suite struct DurationFormatterTests {
    @Test(arguments: [
        (Int64(0), "0:00"),
        (59_999, "0:00"),
        (60_000, "0:01"),
        (300_000, "0:05"),
        (3_900_000, "1:05"),
        (3_959_999, "1:05"),
        (35_999_999, "9:59"),
        (96_000_000, "26:40"),
        (360_000_000_000, "100000:00"),
        (-1, "0:00"),
        (-3_900_000, "0:00"),
    ])
    func hoursAndMinutes(milliseconds: Int64, text: String) {
        #expect(DurationFormatter.hoursMinutes(milliseconds: milliseconds) == text)
    }

    @Test(arguments: [
        (Int64(0), "0m"),
        (59_999, "0m"),
        (2_700_000, "45m"),
        (3_600_000, "1h"),
        (3_659_999, "1h"),
        (10_800_000, "3h"),
        (8_100_000, "2h 15m"),
        (8_159_999, "2h 15m"),
        (96_000_000, "26h 40m"),
        (-8_100_000, "0m"),
    ])
    func compact(milliseconds: Int64, text: String) {
        #expect(DurationFormatter.compact(milliseconds: milliseconds) == text)
    }
}
