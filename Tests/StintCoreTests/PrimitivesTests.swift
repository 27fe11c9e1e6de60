import Testing

@testable import StintCore

@Suite struct InstantTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00.000Z", Int64(0)),
        ("2026-11-29T13:07:09.123Z", Int64(1_795_957_629_123)),
        ("2000-02-29T23:59:59.999Z", Int64(951_868_799_999)),
        ("1969-12-31T23:59:59.999Z", Int64(-1)),
    ])
    func canonicalTextRoundTrips(text: String, milliseconds: Int64) throws {
        let instant = try #require(Instant(canonical: text))
        #expect(instant.milliseconds == milliseconds)
        #expect(instant.iso8601 == text)
    }

    @Test(arguments: ["2026-11-29T13:07:09Z", "2026-02-30T00:00:00.000Z", "2026-11-29T24:00:00.000Z", ""])
    func canonicalParserRefusesOtherForms(text: String) {
        #expect(Instant(canonical: text) == nil)
    }

    @Test func isoTimestampsWithOffsetsAndWithout() throws {
        #expect(
            ISO8601Timestamp.parse("2026-11-29T14:07:09+01:00")
                == .instant(Instant(canonical: "2026-11-29T13:07:09.000Z")!))
        #expect(
            ISO8601Timestamp.parse("2026-11-29T08:07-0500") == .instant(Instant(canonical: "2026-11-29T13:07:00.000Z")!)
        )
        #expect(
            ISO8601Timestamp.parse("2026-11-29 13:07:09.1234Z")
                == .instant(Instant(canonical: "2026-11-29T13:07:09.123Z")!))
        #expect(
            ISO8601Timestamp.parse("2026-11-29T09:30")
                == .local(LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 9, minute: 30)))
        #expect(ISO8601Timestamp.parse("2026-11-29T09:30Zjunk") == nil)
        #expect(ISO8601Timestamp.parse("tomorrow") == nil)
    }

    @Test func civilDatesCountDaysBothWays() {
        for days in Int64(-800_000)...Int64(-799_000) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        for days in stride(from: Int64(-1_000_000), through: 1_000_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(year: 2026, month: 11, day: 29).weekday == 1)
        #expect(CivilDate(year: 1970, month: 1, day: 1).weekday == 5)
    }
}

@Suite struct JSONTests {
    @Test func canonicalEncodingIsCompactAndMinimallyEscaped() {
        let value = JSON.object([
            "b": .string("quote\" slash\\ newline\n tab\t bell\u{07} é 🎉"), "a": .int(-12), "c": .double(1.5),
            "d": .array([.null, .bool(true), .double(3.0)]), "e": .object([]),
        ])
        #expect(
            value.encodedString
                == #"{"b":"quote\" slash\\ newline\n tab\t bell\u0007 é 🎉","a":-12,"c":1.5,"d":[null,true,3],"e":{}}"#)
    }

    @Test func parsingRoundTripsTheCanonicalForm() throws {
        let text = #"{"k":[1,-2,3.25,"\u00e9\ud83c\udf89",{"x":null}],"t":false}"#
        let value = try JSON.parse(text)
        #expect(value["t"] == .bool(false))
        #expect(try JSON.parse(value.encoded()) == value)
        #expect(value.encodedString == #"{"k":[1,-2,3.25,"é🎉",{"x":null}],"t":false}"#)
    }

    /// Found by the event-decoder fuzz target: `1E5` was read as a double, written back as `100000` and read
    /// again as an integer, so an event changed through encoding and decoding.
    @Test func aWholeNumberIsReadAsTheIntegerTheEncoderWrites() throws {
        #expect(try JSON.parse("1E5") == .int(100_000))
        #expect(try JSON.parse("-3.0") == .int(-3))
        #expect(try JSON.parse("-0.0") == .int(0))
        #expect(try JSON.parse("1.5") == .double(1.5))
        #expect(try JSON.parse("1e300") == .double(1e300))
        for text in ["1E5", "-3.0", "2.5e1", "1e300", "-1.25", "9007199254740993.0", "[1.0,2E0,{\"a\":3e-1}]"] {
            let value = try JSON.parse(text)
            #expect(try JSON.parse(value.encoded()) == value, "\(text)")
        }
    }

    @Test(arguments: [
        "{", #"{"a":1,"a":2}"#, "[1,]", "01", #""\ud800""#, "nul", #"{"a" 1}"#, "1 2", "\"\u{01}\"",
        "[" + String(repeating: "[", count: 80) + "]",
    ])
    func malformedJSONIsRefusedWithAnOffset(text: String) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONParseError.self) { try JSON.parse([0x22, 0xC3, 0x28, 0x22]) }
    }
}

@Suite struct EntityIDTests {
    @Test func textRoundTripsInLowercase() throws {
        let id = try #require(EntityID("3F2A9C1E-0B7D-4E51-9A2C-1D3E5F7A9B0C"))
        #expect(id.uuidString == "3f2a9c1e-0b7d-4e51-9a2c-1d3e5f7a9b0c")
        #expect(EntityID(id.uuidString) == id)
        #expect(EntityID("3f2a9c1e0b7d4e519a2c1d3e5f7a9b0c") == nil)
        #expect(EntityID(randomBits: .max, .max).uuidString == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }
}

@Suite struct EnvelopeTests {
    @Test func eventLinesAreCanonicalAndDecodeBack() throws {
        let event = RecordedEvent(
            seq: 12, at: Instant(canonical: "2026-11-29T13:07:09.123Z")!, type: "timer.started", version: 1, tx: 11,
            prev: "0123456789abcdef0123456789abcdef", data: .object(["recordId": .string("x")]))
        let line = String(decoding: event.encodedLine(), as: UTF8.self)
        #expect(
            line
                == #"{"seq":12,"at":"2026-11-29T13:07:09.123Z","type":"timer.started","v":1,"tx":11,"prev":"0123456789abcdef0123456789abcdef","data":{"recordId":"x"}}"#
        )
        #expect(try RecordedEvent(line: Array(line.utf8)) == event)
    }

    @Test(arguments: [
        #"{"seq":0,"at":"2026-11-29T13:07:09.123Z","type":"a.b","v":1,"prev":"0123456789abcdef0123456789abcdef","data":{}}"#,
        #"{"seq":1,"at":"2026-11-29T13:07:09Z","type":"a.b","v":1,"prev":"0123456789abcdef0123456789abcdef","data":{}}"#,
        #"{"seq":1,"at":"2026-11-29T13:07:09.123Z","type":"a.b","v":1,"prev":"0123","data":{}}"#,
        #"{"seq":1,"at":"2026-11-29T13:07:09.123Z","type":"a.b","v":1,"prev":"0123456789abcdef0123456789abcdef","data":[]}"#,
        #"{"seq":1,"at":"2026-11-29T13:07:09.123Z","type":"a.b","v":1,"prev":"0123456789abcdef0123456789abcdef","data":{},"x":1}"#,
        #"{"seq":1,"at":"2026-11-29T13:07:09.123Z","type":"a.b","prev":"0123456789abcdef0123456789abcdef","data":{}}"#,
    ])
    func invalidEnvelopesAreRefused(line: String) {
        #expect(throws: EventLineError.self) { try RecordedEvent(line: Array(line.utf8)) }
    }
}

@Suite struct LogCalendarTests {
    let newYork = LogCalendar(timeZone: "America/New_York", firstWeekday: 1)!

    @Test func dstDaysLast23And25Hours() {
        let spring = newYork.dayInterval(containing: Instant(canonical: "2026-03-08T15:00:00.000Z")!)
        #expect(spring.milliseconds == 23 * 3_600_000)
        let fall = newYork.dayInterval(containing: Instant(canonical: "2026-11-01T15:00:00.000Z")!)
        #expect(fall.milliseconds == 25 * 3_600_000)
        #expect(fall.start == Instant(canonical: "2026-11-01T04:00:00.000Z")!)
    }

    @Test func wallClockTimesInGapsAndOverlapsAreReported() {
        let date = CivilDate(year: 2026, month: 3, day: 8)
        #expect(
            newYork.resolve(LocalDateTime(date: date, hour: 2, minute: 30))
                == .nonexistent(next: Instant(canonical: "2026-03-08T07:00:00.000Z")!))
        let fallBack = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 1), hour: 1, minute: 30)
        #expect(
            newYork.resolve(fallBack)
                == .ambiguous(
                    first: Instant(canonical: "2026-11-01T05:30:00.000Z")!,
                    second: Instant(canonical: "2026-11-01T06:30:00.000Z")!))
    }

    @Test func weeksStartOnTheConfiguredWeekday() {
        let sunday = CivilDate(year: 2026, month: 11, day: 29)
        #expect(newYork.weekStart(of: sunday) == sunday)
        let monday = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!
        #expect(monday.weekStart(of: sunday) == CivilDate(year: 2026, month: 11, day: 23))
    }
}
