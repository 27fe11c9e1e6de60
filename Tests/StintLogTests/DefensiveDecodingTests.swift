import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct DefensiveDecodingTests {
    /// Frame headers that ask for more than the limits are refused from the header alone, before anything is
    /// allocated or decompressed.
    @Test(
        arguments: [
            // Single segment, checksum, 4-byte content size 0xFFFF_FFFF (4 GiB).
            [0x28, 0xB5, 0x2F, 0xFD, 0xA4, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00],
            // 8-byte content size of 2^40.
            [0x28, 0xB5, 0x2F, 0xFD, 0xE4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00],
            // No content size, a window of 2^31 bytes (window descriptor 0xA8).
            [0x28, 0xB5, 0x2F, 0xFD, 0x04, 0xA8, 0x01, 0x00, 0x00],
        ] as [[UInt8]])
    func framesClaimingGigabytesAreRefusedFromTheirHeader(header: [UInt8]) throws {
        let probe = header.withUnsafeBytes { FrameProbe($0) }
        guard case .invalid(_, let oversized) = probe else {
            Issue.record("accepted \(probe)")
            return
        }
        #expect(oversized)
        let cursor = try LogReader(bytes: header + [UInt8](repeating: 0, count: 64)).events()
        #expect(try cursor.next() == nil)
        #expect(cursor.warning?.kind == .oversizedFrame)
        #expect(cursor.warning?.location.offset == 0)
    }

    /// A frame that does not declare its size stops being decompressed once its content passes 256 MiB.
    @Test func contentPastTheLimitIsRefusedWhileStreaming() throws {
        // Frame header: no content size, checksum flag, 128 KiB window (descriptor 0x38).
        var frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x04, 0x38]
        // 2049 RLE blocks of 128 KiB each: 256 MiB + 128 KiB of the byte 0x7B.
        let blocks = 2049
        for index in 0..<blocks {
            let header = UInt32(128 << 10) << 3 | 1 << 1 | (index == blocks - 1 ? 1 : 0)
            frame += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF), 0x7B]
        }
        frame += [0, 0, 0, 0]
        let cursor = try LogReader(bytes: frame).events()
        #expect(try cursor.next() == nil)
        #expect(cursor.warning?.kind == .oversizedFrame)
    }

    @Test func invalidLinesAreReportedWithTheirPosition() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 2)
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(original)
        let last = frames.last!
        let good = events.last!.encodedLine()
        let badLines: [[UInt8]] = [
            Array("{}".utf8), Array("[]".utf8), Array(#"{"seq":"three"}"#.utf8), [0xFF, 0xFE, 0x7B],
            Array(String(repeating: "[", count: 100).utf8), [], Array("not json at all".utf8),
            Array(#"{"seq":4,"at":"2026-11-29T13:07:09.123Z","type":"x","v":1,"prev":"00","data":{}}"#.utf8),
        ]
        for bad in badLines {
            // The last frame now holds a batch of two lines: the last event, then the bad line.
            let frame = SegmentSurgery.frame(SegmentSurgery.content([good, bad]))
            try fixture.write(Array(original[0..<last.offset]) + frame, to: name)
            let expected = LogLocation(segment: name, offset: Int64(last.offset), line: 2, seq: events.last!.seq + 1)
            // The batch before the bad line is whole and released; nothing after it is.
            let (read, warning) = try fixture.readAll()
            #expect(read.map(\.seq) == events.map(\.seq))
            #expect(warning?.kind == .invalidLine)
            #expect(warning?.location == expected)
            let report = try fixture.reader().verify()
            #expect(report.problems.first { $0.kind == .invalidLine }?.location == expected)
            let error = logError { try fixture.open() }
            #expect(error?.code == .damaged)
            #expect(error?.location == expected)
        }
        // In a plain file, the position is the line's byte offset and number in the file.
        let lines = events.map { $0.encodedLine() }
        let text = SegmentSurgery.content([lines[0], lines[1], Array("{oops".utf8), lines[2]])
        let cursor = try LogReader(bytes: text, name: "events.jsonl").events()
        while try cursor.next() != nil {}
        #expect(cursor.lastSeq == 2)
        #expect(cursor.warning?.kind == .invalidLine)
        #expect(
            cursor.warning?.location
                == LogLocation(
                    segment: "events.jsonl", offset: Int64(lines[0].count + lines[1].count + 2), line: 3, seq: 3))
    }

    @Test func aLogOfANewerFormatIsRefused() throws {
        let fixture = LogFixture()
        try fixture.populate(batches: 1)
        try fixture.write(Array("stint-log 3\n".utf8), to: "format")
        #expect(logError { try fixture.reader() }?.code == .newerFormat)
        #expect(logError { try fixture.open() }?.code == .newerFormat)
    }
}
