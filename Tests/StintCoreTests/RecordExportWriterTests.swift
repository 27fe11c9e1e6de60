import Foundation
import Testing

@testable import StintCore

/// The export's byte writer (`RecordExport.RowWriter`) against the JSON value path it replaces on the hot path:
/// the same bytes for hostile comments and tag names, every kind of record, and local times in zones with DST
/// changes, half-hour and 45-minute offsets, offsets of seconds, and offsets changed outside DST.
@Suite struct RecordExportWriterTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns",
        "Europe/Moscow", "Pacific/Apia", "Africa/Monrovia", "Asia/Kolkata", "America/Sao_Paulo", "Europe/Dublin",
        "Pacific/Chatham", "Antarctica/Troll", "America/Caracas",
    ]

    static let hostileTexts: [String?] = [
        nil, "", "plain", #"say "hi""#, #"back\slash"#, "tab\there", "line\nbreak\r\nwindows", "\u{0}nul",
        "\u{1}\u{1F}\u{7F} controls", "\u{8}\u{C} backspace and form feed", "ünïcödé", "日本語のコメント",
        "emoji 👩‍💻🏳️‍🌈", "separators \u{2028}\u{2029}", "a,b;c", "=SUM(A1)", #"\"quoted\" and \\"#,
        "trailing space ", String(repeating: "long ", count: 200),
    ]

    func id(_ n: UInt64) -> EntityID { EntityID(high: 0x1234_5678_9ABC_4DEF, low: 0x8000_0000_0000_0000 | n) }

    func frame(_ zone: String, tags: [EntityID: StintCore.Tag], now: Instant) -> RecordExport.Frame {
        RecordExport.Frame(
            calendar: LogCalendar(timeZone: zone, firstWeekday: 2)!, now: now, since: nil, until: nil, tags: tags)
    }

    @Test func hostileCommentsAndTagNamesGiveTheBytesOfTheJSONValue() {
        let now = Instant(canonical: "2026-11-29T13:07:09.123Z")!
        var tags: [EntityID: StintCore.Tag] = [:]
        for (index, name) in Self.hostileTexts.compactMap({ $0 }).enumerated() {
            let tagId = id(1000 + UInt64(index))
            tags[tagId] = StintCore.Tag(id: tagId, name: name, color: "#A0B1C2", isDeleted: index % 5 == 4)
        }
        let tagIds: [EntityID?] = [nil] + tags.keys.sorted().map(Optional.some) + [id(9999)]  // the last one is unknown
        for zone in ["Europe/Berlin", "America/St_Johns"] {
            let frame = frame(zone, tags: tags, now: now)
            var writer = RecordExport.RowWriter(frame)
            for (index, comment) in Self.hostileTexts.enumerated() {
                let start = now.adding(milliseconds: -Int64(index) * 3_600_123)
                for end in [nil, start.adding(milliseconds: 5_400_250), start.adding(milliseconds: 60_000)] {
                    let record = Record(
                        id: id(UInt64(index)), start: start, end: end, tagId: tagIds[index % tagIds.count],
                        comment: comment)
                    let row = RecordExport.Row(record, tags: tags, now: now)
                    var bytes: [UInt8] = [0x5B]
                    writer.appendJSON(row, to: &bytes)
                    #expect(bytes == [0x5B] + frame.json(row), "\(zone), comment \(String(reflecting: comment))")
                }
            }
        }
    }

    @Test(arguments: zones)
    func localTimesAreTheReferenceTextAcrossOffsetChanges(zone: String) throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("RecordExportWriterTests seed \(seed) (\(zone))")
        var random = SplitMix64(seed: seed)
        let calendar = LogCalendar(timeZone: zone, firstWeekday: 2)!
        let frame = frame(zone, tags: [:], now: Instant(milliseconds: 0))
        // Every offset change from 1900 to 2040, and the milliseconds around it.
        var instants: [Instant] = []
        var date = Date(timeIntervalSince1970: -2_208_988_800)
        while let next = calendar.zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 2.2e9
        {
            let milliseconds = Int64((next.timeIntervalSince1970 * 1000).rounded())
            for delta: Int64 in [-3_600_001, -1001, -1, 0, 1, 999, 3_600_000] {
                instants.append(Instant(milliseconds: milliseconds + delta))
            }
            date = next
        }
        // Random instants from year 1 to 9999 and around the years' edges, with and without milliseconds.
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)
            instants.append(Instant(milliseconds: random.next() % 2 == 0 ? milliseconds : milliseconds / 1000 * 1000))
        }
        for edge: Int64 in [-62_135_596_800_000, 253_370_764_800_000, 253_402_300_800_000, -62_167_219_200_000] {
            for delta: Int64 in [-90_000_000, -1, 0, 1, 90_000_000] {
                instants.append(Instant(milliseconds: edge + delta))
            }
        }
        // In order (as an export asks), then shuffled (every lookup away from the remembered spans).
        for ordered in [instants.sorted(), instants.shuffled(using: &random)] {
            var writer = RecordExport.RowWriter(frame)
            for instant in ordered {
                var local: [UInt8] = []
                writer.appendLocal(instant, to: &local)
                #expect(
                    String(decoding: local, as: UTF8.self) == frame.local(instant), "\(zone) \(instant.milliseconds)")
                var utc: [UInt8] = []
                writer.appendUTC(instant, to: &utc)
                #expect(String(decoding: utc, as: UTF8.self) == instant.iso8601)
            }
        }
    }

    @Test func secondsAreTheReferenceText() {
        for milliseconds: Int64 in [
            0, 1, -1, 10, 100, 999, 1000, 5400, 5_400_250, -5_400_250, -250, 120, 3_000_001, .max, .min + 1,
        ] {
            var bytes: [UInt8] = []
            RecordExport.appendSeconds(milliseconds, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == RecordExport.seconds(milliseconds), "\(milliseconds)")
        }
    }

    @Test func idsParseFromBytesAsFromText() {
        for text in ["00000000-0000-4000-8000-00000000000a", "ABCDEF01-2345-6789-abcd-ef0123456789"] {
            #expect(EntityID(text)?.uuidString == text.lowercased())
        }
        for text in [
            "", "0000000-0000-4000-8000-00000000000ab", "00000000-0000-4000-8000-00000000000g",
            "00000000x0000-4000-8000-00000000000a", "0000000@-0000-4000-8000-00000000000a",
        ] {
            #expect(EntityID(text) == nil, "\(text)")
        }
        var bytes: [UInt8] = []
        let id = id(0xABC)
        id.appendUTF8(to: &bytes)
        #expect(bytes == id.utf8)
    }
}
