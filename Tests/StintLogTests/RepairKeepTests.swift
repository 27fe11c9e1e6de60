import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A repair that keeps the events after its gap (docs/log-format.md §3, §5.7; decision 0008 step 2b): a flipped
/// frame in the middle of a sealed log loses only that frame's events when the `checked` file vouches for the
/// rest, and an interrupted repair is finished by the next with the same result.
@Suite struct RepairKeepTests {
    /// A sealed log of 60 single-event batches with the second frame of its third segment flipped.
    struct Flipped {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 700)
        let events: [RecordedEvent]
        /// The `seq`s of the flipped frame's events.
        let lost: ClosedRange<Int64>

        init() throws {
            events = try fixture.populate(batches: 60)
            let segment = try fixture.segmentNames()[2]
            var bytes = try fixture.bytes(of: segment)
            let frame = SegmentSurgery.frames(bytes)[1]
            let lines = SegmentSurgery.lines(frame.content!)
            lost = SegmentSurgery.event(lines[0]).seq...SegmentSurgery.event(lines.last!).seq
            bytes[frame.offset + frame.bytes.count / 2] ^= 0x10
            try fixture.write(bytes, to: segment)
        }

        var resume: ResumePoint { ResumePoint(seq: lost.upperBound + 1, link: events[Int(lost.upperBound)].prev) }

        /// Repairs the log as `stint repair` does; returns the repair and the record's `seq`.
        func repair(keeps: Bool = true) throws -> (LogRepair?, Int64?) {
            let opened = try LogWriter.openRepairing(
                at: fixture.path, configuration: fixture.configuration, keepsAfterGap: keeps)
            defer { opened.writer.close() }
            return (opened.repair, try opened.repair.map { try opened.writer.record($0) } ?? nil)
        }

        /// The events the log must hold after the repair, with its record read back.
        func expected(record: RecordedEvent) -> [RecordedEvent] {
            Array(events[..<Int(lost.lowerBound - 1)]) + [record] + Array(events[Int(lost.upperBound)...])
        }
    }

    @Test func theEventsAfterTheFlippedFrameAreKeptAfterTheGap() throws {
        let log = try Flipped()
        let damaged = try log.fixture.snapshot()
        let (repair, recordedAt) = try log.repair()
        let done = try #require(repair)
        #expect(done.resume == log.resume)
        #expect(done.firstLostSeq == log.lost.lowerBound)
        #expect(done.lastLostSeq == log.lost.upperBound)
        #expect(recordedAt == log.lost.lowerBound)
        let (read, warning) = try log.fixture.readAll()
        #expect(warning == nil)
        let record = try #require(read.first { $0.seq == log.lost.lowerBound })
        #expect(
            try DomainEvent(record)
                == .logRepaired(
                    from: log.lost.lowerBound, to: log.lost.upperBound, reason: done.reason, resume: log.resume))
        #expect(read == log.expected(record: record))
        #expect(try log.fixture.reader().verify().isIntact)
        // Every original byte is still in the directory; nothing waits under a `.kept` name.
        let names = try log.fixture.allFileNames()
        let present = try Set(names.filter { $0 != "checkpoints" }.map { try log.fixture.bytes(of: $0) })
        for (name, original) in damaged where name.hasSuffix(".jsonl.zst") {
            #expect(present.contains(original), "the bytes of \(name) are gone")
        }
        #expect(!names.contains { $0.hasSuffix(".kept") || $0 == RepairMarker.name })

        // The next write follows the kept events, and a cold read (segments alone) finds it.
        let writer = try log.fixture.open()
        let appended = try writer.append([LogFixture.draft(1000)])
        writer.close()
        #expect(appended.map(\.seq) == [log.events.last!.seq + 1])
        for name in [CheckedSegments.name, TailFile.name] {
            try? FileManager.default.removeItem(atPath: log.fixture.path + "/" + name)
        }
        #expect(try log.fixture.readAll().events == log.expected(record: record) + appended)
        #expect(try log.fixture.reader().verify().isIntact)
        try log.fixture.open().close()
    }

    @Test func withoutKeepingOrWithoutAKnownHeadEverythingAfterTheDamageGoesAside() throws {
        let log = try Flipped()
        let (repair, _) = try log.repair(keeps: false)
        #expect(repair?.resume == nil)
        #expect(try log.fixture.readAll().events.last?.seq == log.lost.lowerBound)

        let headless = try Flipped()
        try FileManager.default.removeItem(atPath: headless.fixture.path + "/" + CheckedSegments.name)
        let (cut, _) = try headless.repair()
        #expect(cut?.resume == nil)
        #expect(try headless.fixture.readAll().events.last?.seq == headless.lost.lowerBound)
    }

    /// A log repaired with a gap whose kept events then become unreadable right after the record: the next
    /// repair takes that record out with them (its record says what the old one said) and the log is
    /// writable again, instead of ending with a record that awaits events that no longer read.
    @Test func aRecordWhoseKeptEventsAreLostGoesWithThem() throws {
        let log = try Flipped()
        let (first, _) = try log.repair()
        let resume = try #require(first?.resume)
        let keptSegment = String(format: "%020lld.jsonl.zst", resume.seq)
        var bytes = try log.fixture.bytes(of: keptSegment)
        bytes[SegmentSurgery.frames(bytes)[0].bytes.count / 2] ^= 0x10
        try log.fixture.write(bytes, to: keptSegment)
        #expect(throws: LogError.self) { try log.fixture.open().close() }

        let (second, recordedAt) = try log.repair()
        let repair = try #require(second)
        #expect(repair.firstLostSeq == log.lost.lowerBound, "\(repair)")
        #expect(recordedAt == log.lost.lowerBound)
        #expect(repair.reason.contains("replaces the log.repaired of seq \(log.lost.lowerBound)"), "\(repair.reason)")
        let writer = try log.fixture.open()
        let appended = try writer.append([LogFixture.draft(1000)])
        writer.close()
        let (read, warning) = try log.fixture.readAll()
        #expect(warning == nil)
        #expect(read.last == appended.last)
        #expect(
            Array(read.prefix(Int(log.lost.lowerBound - 1))) == Array(log.events.prefix(Int(log.lost.lowerBound - 1))))
        #expect(try log.fixture.reader().verify().isIntact)
    }

    @Test func aFlippedSealLosesNothing() throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 700)
        let events = try fixture.populate(batches: 60)
        let segment = try fixture.segmentNames()[2]
        var bytes = try fixture.bytes(of: segment)
        let seal = try #require(SegmentSurgery.frames(bytes).last { $0.content == nil })
        bytes[seal.offset + seal.bytes.count / 2] ^= 0x10
        try fixture.write(bytes, to: segment)
        #expect(try fixture.readAll().warning != nil)
        let opened = try LogWriter.openRepairing(
            at: fixture.path, configuration: fixture.configuration, keepsAfterGap: true)
        let repair = try #require(opened.repair)
        #expect(!repair.lostEvents && repair.resume == nil, "\(repair)")
        #expect(try opened.writer.record(repair) == nil)
        opened.writer.close()
        let (read, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(read == events)
        #expect(try fixture.reader().verify().isIntact)
    }

    @Test func aKeepingRepairInterruptedAtAnyOperationIsFinishedByTheNextOne() throws {
        let log = try Flipped()
        let damaged = try log.fixture.snapshot()
        let probe = FaultInjectingFileSystem()
        log.fixture.fileSystem = probe
        _ = try log.repair()
        log.fixture.fileSystem = POSIXFileSystem()
        let expected = try log.fixture.readAll().events
        let operations = probe.operations.count
        #expect(operations > 10)

        for crashAt in 0..<operations {
            try log.fixture.restore(damaged)
            for name in try log.fixture.allFileNames() where damaged[name] == nil && name != "checkpoints" {
                try FileManager.default.removeItem(atPath: log.fixture.path + "/" + name)
            }
            let faults = FaultInjectingFileSystem()
            faults.crashAt = crashAt
            log.fixture.fileSystem = faults
            _ = try? log.repair()
            log.fixture.fileSystem = POSIXFileSystem()
            let place = "crash at operation \(crashAt) (\(faults.operations.last ?? "?"))"
            let (repair, _) = try log.repair()
            #expect(repair == nil || repair?.resume == log.resume, "\(place)")
            let (read, after) = try log.fixture.readAll()
            #expect(after == nil, "\(place): \(after!)")
            #expect(read == expected, "\(place): the log is not the kept events")
            #expect(try log.fixture.reader().verify().isIntact, "\(place)")
            let present = try Set(
                log.fixture.allFileNames().filter { $0 != "checkpoints" }.map { try log.fixture.bytes(of: $0) })
            for (name, original) in damaged where name.hasSuffix(".jsonl.zst") {
                #expect(present.contains(original), "\(place): the bytes of \(name) are gone")
            }
        }
    }
}
