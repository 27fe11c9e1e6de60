import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Log format 2 written by the real writer (docs/decisions/0007 §2, docs/log-format.md §2.3): the `format`
/// file, the pair on every event, one `hlc` per batch, readings that increase whatever the clock does, the
/// clock carried across reopenings, and the reader's rules reported with their place.
@Suite struct Format2Tests {
    static let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!
    static let otherDevice = DeviceID("7c1d03aa0b1d4c6e9f005a7b8c9d0e1f")!

    /// Batches of 1–3 events under a clock that jumps ahead, goes back, stands still and catches up.
    static let clockSteps: [Int64] = [1500, 0, 0, -10_000, 86_400_000, -86_400_000, 1, 0, -1, 2000, -5, 30_000]

    private func deviceLog() throws -> (LogFixture, [LogBatch]) {
        let fixture = LogFixture(sealThreshold: 2000, sealedFrameTarget: 700)
        fixture.device = Self.device
        let writer = try fixture.create()
        var batches = [LogBatch(events: [writer.lastEvent!])]
        for (index, step) in Self.clockSteps.enumerated() {
            fixture.clock.advance(milliseconds: step)
            let drafts = (0...(index % 3)).map { LogFixture.draft(index * 3 + $0) }
            batches.append(LogBatch(events: try writer.append(drafts)))
        }
        writer.close()
        return (fixture, batches)
    }

    /// Every event carries the device; a batch shares one reading; readings strictly increase between batches
    /// and are never behind `at`.
    private func expectStampedAsWritten(_ batches: [LogBatch], device: DeviceID = device) throws {
        var previous: HLC?
        for batch in batches {
            let hlc = try #require(batch.events[0].hlc, "seq \(batch.firstSeq)")
            for event in batch.events {
                #expect(event.device == device, "seq \(event.seq)")
                #expect(event.hlc == hlc, "seq \(event.seq)")
                #expect(hlc.milliseconds >= event.at.milliseconds, "seq \(event.seq)")
            }
            if let previous { #expect(previous < hlc, "seq \(batch.firstSeq): \(previous) then \(hlc)") }
            previous = hlc
        }
    }

    private func readBatches(_ fixture: LogFixture) throws -> ([LogBatch], LogProblem?) {
        let cursor = try fixture.reader().batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return (batches, cursor.warning)
    }

    @Test func aDeviceLogIsFormat2AndEveryBatchCarriesOneIncreasingReading() throws {
        let (fixture, written) = try deviceLog()
        #expect(try fixture.bytes(of: "format") == Array("stint-log 2\n".utf8))
        #expect(try fixture.segmentNames().count > 1)
        let (read, warning) = try readBatches(fixture)
        #expect(warning == nil)
        #expect(read == written)
        try expectStampedAsWritten(read)
        let report = try fixture.reader().verify()
        #expect(report.problems == [])
        #expect(report.eventCount == Int64(written.map(\.events.count).reduce(0, +)))
    }

    @Test func theClockGoingBackOrStandingStillStillAdvancesTheCounter() throws {
        let (_, written) = try deviceLog()
        // Steps 0 and 0: the same instant; the counter advances.
        #expect(written[2].events[0].hlc!.milliseconds == written[1].events[0].hlc!.milliseconds)
        #expect(written[2].events[0].hlc!.counter == written[1].events[0].hlc!.counter + 1)
        // A day ahead, then back: the readings stay at the day-ahead millisecond.
        let ahead = written[5].events[0].hlc!
        #expect(written[6].events[0].hlc! == HLC(milliseconds: ahead.milliseconds, counter: ahead.counter + 1)!)
    }

    @Test func reopeningContinuesTheClockFromTheLastEvent() throws {
        let (fixture, written) = try deviceLog()
        let last = try #require(written.last?.events.last?.hlc)
        fixture.clock.advance(milliseconds: -3_600_000)
        let writer = try fixture.open()
        let events = try writer.append([LogFixture.draft(1000), LogFixture.draft(1001)])
        writer.close()
        #expect(events[0].hlc! > last)
        #expect(events[0].hlc == events[1].hlc)
        let (read, warning) = try readBatches(fixture)
        #expect(warning == nil)
        try expectStampedAsWritten(read)
    }

    @Test func aFormat1LogOpenedWithADeviceBecomesFormat2AndKeepsItsLines() throws {
        let fixture = LogFixture()
        let old = try fixture.populate(batches: 4, sizes: { $0 + 1 })
        fixture.clock.advance(milliseconds: -60_000)  // behind the last `at`: the reading implied by it rules
        fixture.device = Self.device
        let writer = try fixture.open()
        let new = try writer.append([LogFixture.draft(50), LogFixture.draft(51)])
        writer.close()
        #expect(try fixture.bytes(of: "format") == Array("stint-log 2\n".utf8))
        #expect(!(try fixture.allFileNames().contains("format.tmp")))
        #expect(new[0].hlc! > HLC(impliedBy: old.last!.at))
        let (events, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(Array(events.prefix(old.count)) == old)
        #expect(events.prefix(old.count).allSatisfy { $0.device == nil && $0.hlc == nil })
        #expect(Array(events.suffix(2)) == new)
        #expect(try fixture.reader().verify().problems == [])
    }

    /// The conversion writes `format` through `format.tmp` and a rename: if that fails, the log stays of
    /// format 1, opens as before, and converts on the next try.
    @Test(arguments: ["pwrite", "fsync", "rename"])
    func aFailedConversionLeavesAFormat1Log(failing operation: String) throws {
        let fixture = LogFixture()
        let old = try fixture.populate(batches: 2)
        let faults = FaultInjectingFileSystem()
        faults.failing = [operation]
        fixture.fileSystem = faults
        fixture.device = Self.device
        #expect(logError { try fixture.open() }?.code == .io)
        fixture.fileSystem = POSIXFileSystem()
        #expect(try fixture.bytes(of: "format") == Array("stint-log 1\n".utf8))
        fixture.device = nil
        let writer = try fixture.open()
        #expect(writer.lastEvent == old.last)
        writer.close()
        #expect(!(try fixture.allFileNames().contains("format.tmp")))
        fixture.device = Self.device
        let converted = try fixture.open()
        #expect(try converted.append([LogFixture.draft(9)])[0].device == Self.device)
        converted.close()
        #expect(try fixture.bytes(of: "format") == Array("stint-log 2\n".utf8))
        #expect(try fixture.reader().verify().problems == [])
    }

    @Test func aFormat1WriterWritesExactlyAsBefore() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 3, sizes: { $0 + 1 })
        #expect(try fixture.bytes(of: "format") == Array("stint-log 1\n".utf8))
        #expect(events.allSatisfy { $0.device == nil && $0.hlc == nil })
    }

    @Test func aDeviceLogIsNotAppendedToWithoutItsDevice() throws {
        let (fixture, _) = try deviceLog()
        let before = try fixture.snapshot()
        fixture.device = nil
        #expect(logError { try fixture.open() }?.code == .invalidInput)
        fixture.device = Self.otherDevice
        #expect(logError { try fixture.open() }?.code == .invalidInput)
        #expect(try fixture.snapshot() == before)
        // Reading needs no device.
        #expect(try fixture.readAll().warning == nil)
    }

    // MARK: The reader's rules in a log directory

    /// A log directory of one active segment, one frame per batch, written with `BatchEncoder` so that each
    /// batch gets the stamp given (the chain stays intact): returns the segment name and frame offsets.
    private func handWrittenLog(
        format: String, _ batches: [(count: Int, stamp: (device: DeviceID, hlc: HLC)?)]
    ) throws -> (LogFixture, String, [Int64]) {
        let fixture = LogFixture()
        try FileManager.default.createDirectory(atPath: fixture.path, withIntermediateDirectories: true)
        var encoder = BatchEncoder(lastEvent: nil, lastDigest: nil)
        var segment: [UInt8] = []
        var offsets: [Int64] = []
        var n = 0
        for batch in batches {
            let drafts = (0..<batch.count).map { _ -> EventDraft in
                n += 1
                return n == 1 ? LogFixture.settings : LogFixture.draft(n)
            }
            fixture.clock.advance(milliseconds: 1000)
            let encoded = try encoder.encode(drafts, reading: fixture.clock.now, stamp: batch.stamp)
            encoder = BatchEncoder(lastEvent: encoded.events.last, lastDigest: encoded.digest)
            offsets.append(Int64(segment.count))
            segment += SegmentSurgery.frame(encoded.content)
        }
        let name = LogDirectory.segmentName(firstSeq: 1)
        try fixture.write(segment, to: name)
        try fixture.write(Array(format.utf8), to: "format")
        return (fixture, name, offsets)
    }

    private static func stamp(_ ms: Int64, _ counter: UInt32 = 0, _ device: DeviceID = device) -> (DeviceID, HLC) {
        (device, HLC(milliseconds: ms, counter: counter)!)
    }

    /// Each rule, the stamp of the third batch (two events), the log's format and how many events verification
    /// reports (both events of the batch, or only the first).
    static let problemCases: [(kind: LogProblem.Kind, format: Int, third: (DeviceID, HLC)?, reported: Int)] = [
        (.envelopeDropped, 2, nil, 2),
        (.deviceMismatch, 2, stamp(2000, 0, otherDevice), 2),
        (.hlcWentBackwards, 2, stamp(999, 7), 1),
        // Format 1: the second batch carries no pair; the third and fourth do.
        (.unexpectedStamp, 1, stamp(2000), 3),
    ]

    /// Batches: an unstamped settings event, a batch of two stamped [1000, 0] (unstamped in format 1), the
    /// case's batch of two (seq 4 and 5), then a stamped batch: the reader stops before seq 4 with the problem
    /// on it (segment, frame offset, seq); verification reports it there and nothing but this rule.
    @Test(arguments: 0..<problemCases.count)
    func eachRuleIsReportedWithItsPlaceByTheReaderAndByVerify(index: Int) throws {
        let testCase = Self.problemCases[index]
        let (fixture, name, offsets) = try handWrittenLog(
            format: "stint-log \(testCase.format)\n",
            [(1, nil), (2, testCase.format == 1 ? nil : Self.stamp(1000)), (2, testCase.third), (1, Self.stamp(5000))])
        let (events, warning) = try fixture.readAll()
        let problem = try #require(warning)
        #expect(problem.kind == testCase.kind, "\(problem)")
        #expect(problem.location.segment == name)
        #expect(problem.location.offset == offsets[2])
        #expect(problem.location.seq == 4)
        #expect(events.map(\.seq) == [1, 2, 3])
        let report = try fixture.reader().verify()
        #expect(report.problems.map(\.kind) == Array(repeating: testCase.kind, count: testCase.reported))
        #expect(report.problems.first?.location == problem.location)
        #expect(report.eventCount == 6)
    }

    @Test func aBatchWithTwoReadingsIsMalformed() throws {
        let (fixture, name, offsets) = try handWrittenLog(
            format: "stint-log 2\n", [(1, nil), (2, Self.stamp(1000)), (1, Self.stamp(2000))])
        // Re-encode the second batch's second event with another reading, keeping the chain.
        var frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        var lines = SegmentSurgery.lines(frames[1].content!)
        var events = lines.map(SegmentSurgery.event)
        events[1].hlc = HLC(milliseconds: 1000, counter: 1)!
        lines[1] = SegmentSurgery.line(events[1])
        let content = SegmentSurgery.content(lines)
        var third = SegmentSurgery.event(SegmentSurgery.lines(frames[2].content!)[0])
        third.prev = (content.suffix(lines[1].count + 1)).withUnsafeBytes { SHA256Digest(of: $0) }.link
        frames[1].bytes = SegmentSurgery.frame(content)
        frames[2].bytes = SegmentSurgery.frame(SegmentSurgery.line(third) + [0x0A])
        try fixture.write(frames.flatMap(\.bytes), to: name)
        let warning = try #require(try fixture.readAll().warning)
        #expect(warning.kind == .malformedBatch)
        #expect(warning.location.seq == 3)
        #expect(warning.location.segment == name && warning.location.offset == offsets[1])
        #expect(try fixture.reader().verify().problems.map(\.kind) == [.malformedBatch])
    }
}
