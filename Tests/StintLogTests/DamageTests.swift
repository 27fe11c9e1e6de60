import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct DamageTests {
    /// Every byte of a frame before the last one, inverted: the writer refuses to open without touching any
    /// file, verify points at that frame, and a reader stops just before it with a warning.
    @Test func damageBeforeTheLastFrameIsRefusedAndReportedWhereItIs() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 6)
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(original)
        let damaged = frames[3]
        let intact = events.filter { $0.seq < Int64(4) }
        for position in damaged.offset..<(damaged.offset + damaged.bytes.count) {
            var bytes = original
            bytes[position] ^= 0xFF
            try fixture.write(bytes, to: name)
            let before = try fixture.snapshot()

            let error = logError { try fixture.open() }
            #expect(error?.code == .damaged, "byte \(position)")
            #expect(error?.location?.segment == name)
            #expect(error?.location?.offset == Int64(damaged.offset))
            #expect(error?.lastGoodSeq == 3)
            #expect(try fixture.snapshot() == before, "byte \(position)")

            let report = try fixture.reader().verify()
            let first = try #require(report.problems.first, "byte \(position)")
            #expect(first.location.segment == name)
            #expect(first.location.offset == Int64(damaged.offset))
            #expect(first.location.seq == 4)

            let (read, warning) = try fixture.readAll()
            #expect(read == intact, "byte \(position)")
            #expect(warning?.location.offset == Int64(damaged.offset))
            #expect(try fixture.snapshot() == before)
        }
    }

    @Test func anInvalidLineInAChecksumValidLastFrameIsDamageNotATornTail() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 3)
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(original)
        let last = frames.last!
        let badFrame = SegmentSurgery.frame(Array(#"{"seq":4,"this is":"not an event"}"#.utf8) + [0x0A])
        try fixture.write(Array(original[0..<last.offset]) + badFrame, to: name)
        let before = try fixture.snapshot()
        let error = logError { try fixture.open() }
        #expect(error?.code == .damaged)
        #expect(error?.location == LogLocation(segment: name, offset: Int64(last.offset), line: 1, seq: 4))
        #expect(try fixture.snapshot() == before)
        let (read, warning) = try fixture.readAll()
        #expect(read == Array(events.dropLast()))
        #expect(warning?.kind == .invalidLine)
        #expect(warning?.location == LogLocation(segment: name, offset: Int64(last.offset), line: 1, seq: 4))
    }

    @Test func damageInASealedSegmentStopsReadersAndTheWriter() throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 600)
        let events = try fixture.populate(batches: 40)
        let names = try fixture.segmentNames()
        #expect(names.count >= 3)
        let name = names[1]
        var bytes = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(bytes)
        let target = frames[1]
        bytes[target.offset + target.bytes.count / 2] ^= 0x55
        try fixture.write(bytes, to: name)
        let firstSeqOfFrame = SegmentSurgery.event(SegmentSurgery.lines(target.content!)[0]).seq

        let (read, warning) = try fixture.readAll()
        #expect(read == events.filter { $0.seq < firstSeqOfFrame })
        #expect(warning?.kind == .unreadableFrame)
        #expect(warning?.location.segment == name)
        #expect(warning?.location.offset == Int64(target.offset))
        #expect(warning?.location.seq == firstSeqOfFrame)
        let report = try fixture.reader().verify()
        #expect(report.problems.first?.kind == .unreadableFrame)
        #expect(
            report.problems.first?.location
                == LogLocation(segment: name, offset: Int64(target.offset), seq: firstSeqOfFrame))

        // Opening for write checks what changed since the last writer checked it: it refuses the log and changes
        // nothing, so that no append is acknowledged after damage a cold read stops at.
        let before = try fixture.snapshot()
        let error = logError { try fixture.open() }
        #expect(error?.code == .damaged)
        #expect(error?.location?.segment == name)
        #expect(try fixture.snapshot() == before)
    }

    @Test func aGapBetweenSegmentsIsDamage() throws {
        let fixture = LogFixture(sealThreshold: 1500)
        let events = try fixture.populate(batches: 30)
        let names = try fixture.segmentNames()
        #expect(names.count >= 3)
        try FileManager.default.removeItem(atPath: fixture.path + "/" + names[names.count - 2])
        let before = try fixture.snapshot()
        let error = logError { try fixture.open() }
        #expect(error?.code == .damaged)
        #expect(try fixture.snapshot() == before)
        let (read, warning) = try fixture.readAll()
        let missingFrom = LogDirectory.firstSeq(ofSegment: names[names.count - 2])!
        #expect(read == events.filter { $0.seq < missingFrom })
        #expect(warning?.kind == .segmentLayout)
        #expect(
            try fixture.reader().verify().problems.contains {
                $0.kind == .segmentLayout && $0.location.seq == missingFrom
            })
    }
}
