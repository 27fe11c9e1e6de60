import Foundation
import Testing

@testable import StintCore

/// The canonical fast path (`CanonicalLineDecoder`, `DomainEvent.decodeCanonical`) against the general
/// decoders: on every line either both give the same result, or the fast path defers (nil); the fast path
/// never accepts a line or payload the general decoder refuses.
@Suite struct CanonicalLineDecoderTests {
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0xDEC0_DE01, UInt64.random(in: 0...UInt64.max)]
    }

    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Events")

    /// The general path: the JSON parser, then the envelope's strict reader.
    static func general(_ line: [UInt8]) -> RecordedEvent? {
        guard let json = try? JSON.parse(line) else { return nil }
        return try? RecordedEvent(json: json)
    }

    static func fast(_ line: [UInt8]) -> RecordedEvent? {
        line.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0) }
    }

    /// Checks one line both ways; returns whether the fast path decoded it.
    @discardableResult
    static func compare(_ line: [UInt8], _ note: @autoclosure () -> String) -> Bool {
        let general = general(line)
        guard let fast = fast(line) else { return false }
        #expect(general == fast, "\(note()): \(String(decoding: line, as: UTF8.self))")
        // Verification skips re-encoding a line the fast path read: it must be the event's canonical line.
        #expect(
            fast.encodedLine() == line,
            "\(note()): the fast path accepted a line that is not canonical: \(String(decoding: line, as: UTF8.self))")
        let viaPublic = try? RecordedEvent(line: line)
        #expect(viaPublic == general, "\(note())")
        if let general { comparePayload(general, note()) }
        return true
    }

    /// The payload fast path against the general payload decoder.
    static func comparePayload(_ event: RecordedEvent, _ note: @autoclosure () -> String) {
        guard let type = EventType(rawValue: event.type), event.version == type.currentVersion,
            let fast = DomainEvent.decodeCanonical(type, data: event.data)
        else { return }
        let general = try? DomainEvent(type: event.type, version: event.version, data: event.data)
        #expect(general == fast, "\(note()): \(event.data.encodedString)")
    }

    /// An event holding one member of the pair without the other (a bug of its writer) encodes to a line
    /// that both decoders refuse, not to a line that drops the member.
    @Test func anEventWithHalfThePairEncodesToARefusedLine() throws {
        let event = try #require(Self.fast(Array(Self.format2Line.utf8)))
        var withoutHLC = event
        withoutHLC.hlc = nil
        var withoutDevice = event
        withoutDevice.device = nil
        for half in [withoutHLC, withoutDevice] {
            let line = half.encodedLine()
            #expect(Self.fast(line) == nil)
            #expect(throws: EventLineError.self) { try RecordedEvent(line: line) }
        }
    }

    /// A random reading, at or near its bounds one time in two.
    static func randomHLC(using random: inout SplitMix64) -> HLC {
        let milliseconds: Int64 = [0, 1, HLC.maximumMilliseconds - 1, HLC.maximumMilliseconds].randomElement(
            using: &random)!
        let counter: UInt32 = [0, 1, UInt32.max - 1, UInt32.max].randomElement(using: &random)!
        return HLC(
            milliseconds: Bool.random(using: &random)
                ? milliseconds : Int64.random(in: 0...HLC.maximumMilliseconds, using: &random),
            counter: Bool.random(using: &random) ? counter : UInt32.random(in: 0...UInt32.max, using: &random))!
    }

    /// `event` with a random `device` and `hlc` (log format 2).
    static func stamped(_ event: RecordedEvent, using random: inout SplitMix64) -> RecordedEvent {
        var event = event
        event.device =
            Bool.random(using: &random)
            ? DeviceID(using: &random)
            : [DeviceID(high: 0, low: 0), DeviceID(high: .max, low: .max)].randomElement(using: &random)!
        event.hlc = randomHLC(using: &random)
        return event
    }

    @Test(arguments: seeds)
    func everyLineOfARandomLogDecodesTheSameBothWays(seed: UInt64) throws {
        print("CanonicalLineDecoderTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var run = RandomRun(seed: seed)
        try run.go(commands: 600)
        var decodedFast = 0
        for event in run.log.events {
            let line = event.encodedLine()
            if Self.compare(line, "seed \(seed), seq \(event.seq)") { decodedFast += 1 }
            // The canonical line of every event the domain writes takes the fast path.
            #expect(Self.fast(line) == event, "seed \(seed), seq \(event.seq)")
            if event.type != EventType.logCreated.rawValue {
                // Payloads of the known types are decoded straight from the bytes, without a JSON tree.
                #expect(Self.fast(line)?.decodedEvent == (try DomainEvent(event)), "seed \(seed), seq \(event.seq)")
                #expect(
                    DomainEvent.decodeCanonical(EventType(rawValue: event.type)!, data: event.data)
                        == (try DomainEvent(event)))
            }
        }
        #expect(decodedFast == run.log.events.count)
    }

    /// Log format 2: every event of a random log with a random `device` and `hlc` (bounds included) encodes to
    /// a line that the fast path reads, that the general decoder reads to the same event, and that is the line
    /// again; the pair sits after `clock` and before `prev`, and removing it gives the format-1 line back.
    @Test(arguments: seeds)
    func linesWithDeviceAndHLCRoundTripThroughBothDecoders(seed: UInt64) throws {
        print("CanonicalLineDecoderTests format-2 seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var run = RandomRun(seed: seed)
        try run.go(commands: 300)
        var random = SplitMix64(seed: seed ^ 0xF0_2A7)
        for original in run.log.events {
            let event = Self.stamped(original, using: &random)
            let line = event.encodedLine()
            let note = "seed \(seed), seq \(event.seq): \(String(decoding: line, as: UTF8.self))"
            #expect(Self.compare(line, note), "the fast path deferred on a canonical format-2 line: \(note)")
            let fast = try #require(Self.fast(line), "\(note)")
            #expect(fast == event, "\(note)")
            #expect(fast.device == event.device && fast.hlc == event.hlc, "\(note)")
            #expect(Self.general(line) == event, "\(note)")
            #expect(fast.encodedLine() == line, "\(note)")
            let pair = Array(
                #","device":"\#(event.device!)","hlc":[\#(event.hlc!.milliseconds),\#(event.hlc!.counter)]"#.utf8)
            let withoutPair = original.encodedLine()
            let prev = withoutPair.firstRange(of: Array(#","prev":""#.utf8))!.lowerBound
            #expect(line == Array(withoutPair[..<prev]) + pair + Array(withoutPair[prev...]), "\(note)")
            #expect(Self.fast(withoutPair) == original && Self.fast(withoutPair)?.hlc == nil, "\(note)")
        }
    }

    @Test func theExampleLogsDecodeTheSameBothWays() throws {
        let files = FileManager.default.enumerator(atPath: Self.examples.path)?.compactMap { $0 as? String } ?? []
        let logs = files.filter { $0.hasSuffix(".jsonl") }
        #expect(!logs.isEmpty)
        for path in logs {
            let text = try String(contentsOf: Self.examples.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") { Self.compare(Array(line.utf8), path) }
        }
    }

    @Test(arguments: [
        // Envelope keys out of order, whitespace, escapes, floats: all defer.
        #"{"at":"2026-11-29T09:00:00.000Z","seq":2,"type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
        #"{"seq":2, "at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
        #"{"seq":2.0,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.started","v":1,"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","comment":"caf\u00e9 \/ \u0041"}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.started","v":1,"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","n":{"x":1}}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"some.future.type","v":1,"prev":"00000000000000000000000000000000","data":{}}"#,
        // Format 2: the pair in the other order, after prev, or with a space.
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"hlc":[1,0],"device":"0123456789abcdef0123456789abcdef","prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","device":"0123456789abcdef0123456789abcdef","hlc":[1,0],"data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1, 0],"prev":"00000000000000000000000000000000","data":{"recordId":"10000000-0000-4000-8000-000000000001"}}"#,
    ])
    func nonCanonicalButValidLinesDeferToTheGeneralDecoder(line: String) throws {
        let bytes = Array(line.utf8)
        #expect(Self.fast(bytes) == nil)
        #expect(Self.general(bytes) != nil)
    }

    static let canonicalLine =
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.started","v":1,"prev":"0123456789abcdef0123456789abcdef","data":{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","comment":"a\"b\\c\u0001\u007f"}}"#

    static let futureVersionLine =
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.started","v":9,"prev":"0123456789abcdef0123456789abcdef","data":{"n":0,"m":-12,"ok":true,"s":"x"}}"#

    static let format2Line =
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.stopped","v":1,"tx":2,"clock":"2026-11-29T08:59:00.000Z","device":"3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f","hlc":[1764406800000,7],"prev":"0123456789abcdef0123456789abcdef","data":{"recordId":"10000000-0000-4000-8000-000000000001","end":"2026-11-29T09:00:00.000Z"}}"#

    @Test func theCanonicalLinesOfTheseTestsAreReadFast() throws {
        for line in [Self.canonicalLine, Self.futureVersionLine, Self.format2Line] {
            let bytes = Array(line.utf8)
            let decoded = try bytes.withUnsafeBufferPointer { (buffer) throws(EventLineError) in
                try RecordedEvent.decode(lineBytes: buffer)
            }
            #expect(decoded.isKnownCanonical)
            #expect(decoded.event.encodedLine() == bytes)
        }
    }

    /// Lines one edit away from canonical ones (`canonicalLine`, `futureVersionLine`) that the general
    /// decoder accepts: the fast path must defer, so that verification re-encodes them and reports them.
    @Test(arguments: [
        ("\"seq\":2,", "\"seq\": 2,"), ("\"v\":1,", "\"v\":1 ,"), ("{\"seq\":2,\"at\"", "{ \"seq\":2,\"at\""),
        ("\"seq\":2,", "\"seq\":2.0,"), ("\"seq\":2,", "\"seq\":2e0,"), ("\"v\":1,", "\"v\":1E0,"),
        ("\"seq\":2,", "\"seq\":02,"), ("\"comment\":\"a", "\"comment\":\"\\u0041a"),
        ("\"comment\":\"a", "\"comment\":\"\\/a"), ("\\u0001", "\\u0001\\u00e9"), ("\\u007f", "\\u007F"),
        ("\\u007f", "\u{7F}"), ("\\u0001", "\\u0001\\t\\u0009"),
        ("0123456789abcdef\",\"data", "0123456789ABCDEF\",\"data"),
        ("\"n\":0", "\"n\":-0"), ("\"m\":-12", "\"m\":-12.0"),
        ("\"m\":-12", "\"m\":-1.2e1"), ("\"ok\":true", "\"ok\":true "), ("\"s\":\"x\"", "\"s\":\"\\u0078\""),
        ("{\"seq\":2,\"at\":\"2026-11-29T09:00:00.000Z\",", "{\"at\":\"2026-11-29T09:00:00.000Z\",\"seq\":2,"),
        ("\"n\":0,\"m\":-12", "\"n\":0 ,\"m\":-12"), ("\"data\":{", "\"data\" : {"),
        // Format 2 (`format2Line`): leading zeros, `-0`, fractions, exponents, spaces, uppercase hex, order.
        ("[1764406800000,7]", "[01764406800000,7]"), ("[1764406800000,7]", "[1764406800000,07]"),
        ("[1764406800000,7]", "[1764406800000,-0]"), ("[1764406800000,7]", "[1764406800000.0,7]"),
        ("[1764406800000,7]", "[1764406800000,7e0]"), ("[1764406800000,7]", "[1.764406800000E12,7]"),
        ("[1764406800000,7]", "[ 1764406800000,7]"), ("[1764406800000,7]", "[1764406800000, 7]"),
        ("[1764406800000,7]", "[1764406800000,7 ]"), ("\"hlc\":[", "\"hlc\": ["),
        ("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f", "3F2A9C4E0B1D4C6E9F005A7B8C9D0E1F"),
        ("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f", "\\u00332a9c4e0b1d4c6e9f005a7b8c9d0e1f"),
        (
            "\"device\":\"3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f\",\"hlc\":[1764406800000,7]",
            "\"hlc\":[1764406800000,7],\"device\":\"3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f\""
        ),
        (
            "\"clock\":\"2026-11-29T08:59:00.000Z\",\"device\":\"3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f\"",
            "\"device\":\"3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f\",\"clock\":\"2026-11-29T08:59:00.000Z\""
        ),
    ])
    func nearCanonicalLinesAreNotReadFast(edit: (String, String)) throws {
        let base = [Self.canonicalLine, Self.futureVersionLine, Self.format2Line].first { $0.contains(edit.0) } ?? ""
        try #require(base.contains(edit.0))
        let line = Array(base.replacingOccurrences(of: edit.0, with: edit.1).utf8)
        #expect(line != Array(base.utf8))
        #expect(Self.fast(line) == nil, "\(String(decoding: line, as: UTF8.self))")
        if let general = Self.general(line) { #expect(general.encodedLine() != line) }
    }

    @Test(arguments: [
        // Refused by the general decoder; the fast path must not accept them either.
        #"{"seq":0,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"tx":3,"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.00Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":0,"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"0000000000000000000000000000000A","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"a":1,"a":2}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"a":01}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{}}x"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"a":"\#u{01}"}}"#,
        // Format 2: one of the pair alone, a wrong type, a value out of range.
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"hlc":[1,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789ABCDEF0123456789abcdef","hlc":[1,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcde","hlc":[1,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":7,"hlc":[1,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1,0,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[-1,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1,-1],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1,4294967296],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[253402300800000,0],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":"[1,0]","prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1,"0"],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":"0123456789abcdef0123456789abcdef","hlc":[1,0.5],"prev":"00000000000000000000000000000000","data":{}}"#,
        #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"device":null,"hlc":null,"prev":"00000000000000000000000000000000","data":{}}"#,
    ])
    func linesTheGeneralDecoderRefusesAreRefusedByTheFastPath(line: String) throws {
        let bytes = Array(line.utf8)
        #expect(Self.general(bytes) == nil)
        #expect(Self.fast(bytes) == nil)
        #expect(throws: EventLineError.self) { try RecordedEvent(line: bytes) }
    }

    @Test func invalidUTF8InAStringIsRefusedByBoth() {
        var bytes = Array(
            #"{"seq":2,"at":"2026-11-29T09:00:00.000Z","type":"timer.canceled","v":1,"prev":"00000000000000000000000000000000","data":{"a":"xx"}}"#
                .utf8)
        let index = bytes.count - 5
        bytes[index] = 0xC3
        #expect(Self.general(bytes) == nil)
        #expect(Self.fast(bytes) == nil)
    }

    @Test(arguments: [
        // Payloads the general decoder refuses: the payload fast path must defer on each.
        ("timer.started", #"{"recordId":"10000000-0000-4000-8000-00000000000A","start":"2026-11-29T09:00:00.000Z"}"#),
        ("timer.started", #"{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00Z"}"#),
        (
            "timer.started",
            #"{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","comment":""}"#
        ),
        (
            "timer.started",
            #"{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","x":1}"#
        ),
        ("timer.started", #"{"recordId":"10000000-0000-4000-8000-000000000001"}"#),
        ("tag.created", ##"{"tagId":"10000000-0000-4000-8000-000000000001","name":"a","color":"#abcdef"}"##),
        ("tag.created", ##"{"tagId":"10000000-0000-4000-8000-000000000001","name":"","color":"#ABCDEF"}"##),
        (
            "record.edited",
            #"{"recordId":"10000000-0000-4000-8000-000000000001","start":"2026-11-29T09:00:00.000Z","end":null}"#
        ),
        ("command.undone", #"{"tx":0}"#),
        ("command.undone", #"{"tx":"3"}"#),
    ])
    func payloadsTheGeneralDecoderRefusesAreNotDecodedFast(type: String, data: String) throws {
        let json = try JSON.parse(data)
        #expect(DomainEvent.decodeCanonical(EventType(rawValue: type)!, data: json) == nil)
        #expect(throws: DomainError.self) { try DomainEvent(type: type, version: 1, data: json) }
    }

    @Test func payloadMembersOutOfOrderDeferButDecodeTheSame() throws {
        let data = try JSON.parse(
            #"{"start":"2026-11-29T09:00:00.000Z","recordId":"10000000-0000-4000-8000-000000000001"}"#)
        #expect(DomainEvent.decodeCanonical(.timerStarted, data: data) == nil)
        #expect(throws: Never.self) { try DomainEvent(type: "timer.started", version: 1, data: data) }
    }

    /// Random mutations of valid lines: the fast path agrees with the general decoder or defers.
    @Test(arguments: seeds)
    func mutatedLinesNeverGetAcceptedByTheFastPathAlone(seed: UInt64) throws {
        print("CanonicalLineDecoderTests mutation seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var run = RandomRun(seed: seed)
        try run.go(commands: 150)
        var random = SplitMix64(seed: seed ^ 0xF022)
        let alphabet = Array(#"{}[]",:0123456789-.eE\ unrtfalsxyzZT"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        var fastAccepted = 0
        var fastAcceptedFormat2 = 0
        for _ in 0..<6000 {
            var event = run.log.events.randomElement(using: &random)!
            // Half the lines are format 2, so that mutations hit `device` and `hlc` too.
            if Bool.random(using: &random) { event = Self.stamped(event, using: &random) }
            var line = event.encodedLine()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: line[index] = alphabet.randomElement(using: &random)!
                case 1: line.remove(at: index)
                case 2: line.insert(alphabet.randomElement(using: &random)!, at: index)
                case 3: if index + 1 < line.count { line.swapAt(index, index + 1) }
                default:
                    let end = min(line.count, index + Int.random(in: 1...12, using: &random))
                    line.insert(contentsOf: line[index..<end], at: index)
                }
                if line.isEmpty { line = [0x7B] }
            }
            if Self.compare(line, "seed \(seed)") {
                fastAccepted += 1
                if Self.fast(line)?.hlc != nil { fastAcceptedFormat2 += 1 }
            }
        }
        // Many mutations keep the line canonical (a changed digit or letter), so the fast path is exercised.
        #expect(fastAccepted > 100)
        #expect(fastAcceptedFormat2 > 50)
    }
}
