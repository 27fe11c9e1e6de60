import Foundation
import Glibc
import StintCore
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintLog

@Suite struct LogWriterTests {
    @Test func batchesRoundTripThroughReopenWithContinuingSeqAndChain() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        #expect(writer.lastSeq == 1)
        fixture.clock.advance(milliseconds: 1000)
        let single = try writer.append([LogFixture.draft(1)])
        #expect(single.map(\.seq) == [2])
        #expect(single[0].tx == nil)
        fixture.clock.advance(milliseconds: 1000)
        let multi = try writer.append([LogFixture.draft(2), LogFixture.draft(3), LogFixture.draft(4)])
        #expect(multi.map(\.seq) == [3, 4, 5])
        #expect(multi.allSatisfy { $0.tx == 3 && $0.at == multi[0].at })
        let headBefore = writer.head
        writer.close()

        let reopened = try fixture.open()
        #expect(reopened.lastSeq == 5)
        #expect(reopened.head == headBefore)
        #expect(reopened.lastEvent == multi.last)
        fixture.clock.advance(milliseconds: 1000)
        let next = try reopened.append([LogFixture.draft(5)])
        #expect(next[0].seq == 6)
        reopened.close()

        let (events, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(events.map(\.seq) == Array(1...6))
        #expect(Array(events[1...4]) == single + multi)
        #expect(events[5] == next[0])
        let report = try fixture.reader().verify()
        #expect(report.problems == [])
        #expect(report.eventCount == 6)
        #expect(report.head == (try fixture.reader().head()))
        #expect(report.head?.seq == 6)
    }

    @Test func eachBatchIsOneFrameAndTheChainLinksEveryLine() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 4, sizes: { $0 + 1 })
        let frames = SegmentSurgery.frames(try fixture.bytes(of: fixture.segmentNames()[0]))
        #expect(frames.count == 5)
        #expect(frames.map { SegmentSurgery.lines($0.content!).count } == [1, 1, 2, 3, 4])
        var previous = RecordedEvent.genesisPrev
        for event in events {
            #expect(event.prev == previous)
            previous = SHA256Digest(of: event.encodedLine() + [0x0A]).link
        }
    }

    /// Opening for write reads the active segment and the previous segment's end, never older segments once they
    /// were checked and have not changed since (the `checked` file), so the cost of an append does not grow with
    /// the log. The first open after sealed segments were written reads each of them once to check it.
    @Test func openingForWriteReadsOnlyTheEndOfTheLog() throws {
        let fixture = LogFixture(sealThreshold: 1500, sealedFrameTarget: 400)
        let events = try fixture.populate(batches: 80)
        let segments = try fixture.segmentNames()
        #expect(segments.count >= 6)
        // File times tick coarsely (a few ms on tmpfs): a segment changed in the tick of the check's start is not
        // settled and would be hashed again by the next open. Users' segments are older than that.
        usleep(50_000)
        let first = CountingFileSystem()
        fixture.fileSystem = first
        try fixture.open().close()
        #expect(Set(first.openedNames.filter { $0.hasSuffix(".jsonl.zst") }) == Set(segments))
        let counting = CountingFileSystem()
        fixture.fileSystem = counting
        let writer = try fixture.open()
        #expect(writer.lastSeq == events.last!.seq)
        #expect(Set(counting.openedNames.filter { $0.hasSuffix(".jsonl.zst") }) == Set(segments.suffix(2)))
        _ = try writer.append([LogFixture.draft(1)])
        #expect(Set(counting.openedNames.filter { $0.hasSuffix(".jsonl.zst") }) == Set(segments.suffix(2)))
    }

    @Test func aClockThatGoesBackIsClampedAndItsReadingKept() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        let first = writer.lastEvent!.at
        fixture.clock.advance(milliseconds: -5000)
        let events = try writer.append([LogFixture.draft(1), LogFixture.draft(2)])
        #expect(events.allSatisfy { $0.at == first && $0.clock == first.adding(milliseconds: -5000) })
        fixture.clock.advance(milliseconds: 10_000)
        let later = try writer.append([LogFixture.draft(3)])
        #expect(later[0].clock == nil)
        #expect(later[0].at == first.adding(milliseconds: 5000))
        writer.close()
        #expect(try fixture.reader().verify().problems == [])
    }

    @Test func emptyBatchesAndInvalidDraftsAreRefusedWithoutWriting() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        let before = try fixture.snapshot()
        #expect(logError { try writer.append([]) }?.code == .invalidInput)
        let invalid = [
            EventDraft(type: "Not A Type", version: 1, data: .object([:])),
            EventDraft(type: "timer.started", version: 0, data: .object([:])),
            EventDraft(type: "timer.started", version: 1, data: .array([])),
        ]
        for draft in invalid {
            #expect(logError { try writer.append([LogFixture.draft(1), draft]) }?.code == .invalidInput)
        }
        #expect(try fixture.snapshot() == before)
        #expect(writer.lastSeq == 1)
        #expect(try writer.append([LogFixture.draft(1)])[0].seq == 2)
    }

    @Test func aFailedSyncStopsTheWriterAndLeavesTheFileAsBefore() throws {
        let fixture = LogFixture()
        let faults = FaultInjectingFileSystem()
        fixture.fileSystem = faults
        let writer = try fixture.create()
        _ = try writer.append([LogFixture.draft(1)])
        let before = try fixture.bytes(of: fixture.segmentNames()[0])
        faults.failing = ["fdatasync"]
        let failure = logError { try writer.append([LogFixture.draft(2)]) }
        #expect(failure?.code == .io)
        #expect((failure?.cause as? SystemCallError)?.errno == EIO)
        #expect(writer.isFailStopped)
        faults.failing = []
        #expect(logError { try writer.append([LogFixture.draft(3)]) }?.code == .failStopped)
        #expect(try fixture.bytes(of: fixture.segmentNames()[0]) == before)
        writer.close()
        fixture.fileSystem = POSIXFileSystem()
        let reopened = try fixture.open()
        #expect(reopened.lastSeq == 2)
        #expect(try reopened.append([LogFixture.draft(4)])[0].seq == 3)
    }

    @Test func aFullDiskWhileCreatingASegmentLeavesNoSegment() throws {
        let fixture = LogFixture(sealThreshold: 600)
        let faults = FaultInjectingFileSystem()
        fixture.fileSystem = faults
        let writer = try fixture.create()
        while try fixture.segmentNames().count == 1 && !(writer.active == nil) {
            _ = try writer.append([LogFixture.draft(1)])
        }
        #expect(writer.active == nil)
        let names = try fixture.segmentNames()
        faults.errno = ENOSPC
        faults.failing = ["pwrite"]
        let failure = logError { try writer.append([LogFixture.draft(2)]) }
        #expect(failure?.code == .io)
        #expect((failure?.cause as? SystemCallError)?.errno == ENOSPC)
        #expect(try fixture.segmentNames() == names)
        #expect(try fixture.allFileNames().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func createRefusesAnExistingLogOrAFullDirectory() throws {
        let fixture = LogFixture()
        try fixture.create().close()
        #expect(logError { try fixture.create() }?.code == .alreadyExists)
        let other = fixture.directory.appending("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: other + "/notes.txt"))
        #expect(
            logError {
                try LogWriter.create(
                    at: other, settingsEvent: LogFixture.settings, configuration: fixture.configuration)
            }?.code == .alreadyExists)
        let missingParent = logError {
            try LogWriter.create(
                at: fixture.directory.appending("missing/log"), settingsEvent: LogFixture.settings,
                configuration: fixture.configuration)
        }
        #expect(missingParent?.code == .notFound)
    }

    /// A crash at any step of creation leaves either a whole log of one event (once `format` is in place)
    /// or a directory that is not a log and that a second `create` turns into one.
    @Test func anInterruptedCreateCanBeRunAgain() throws {
        let fixture = LogFixture()
        let probe = FaultInjectingFileSystem()
        fixture.fileSystem = probe
        try LogWriter.create(
            at: fixture.directory.appending("probe"), settingsEvent: LogFixture.settings,
            configuration: fixture.configuration
        ).close()
        let steps = probe.operations.count
        #expect(steps >= 8)
        for step in 0..<steps {
            let faults = FaultInjectingFileSystem()
            faults.crashAt = step
            fixture.fileSystem = faults
            let path = fixture.directory.appending("log-\(step)")
            let failure = logError {
                try LogWriter.create(at: path, settingsEvent: LogFixture.settings, configuration: fixture.configuration)
                    .close()
            }
            #expect(failure?.code == .io, "step \(step): \(probe.operations[step])")
            fixture.fileSystem = POSIXFileSystem()
            if FileManager.default.fileExists(atPath: path + "/format") {
                try LogWriter.open(at: path, configuration: fixture.configuration).close()
            } else {
                if FileManager.default.fileExists(atPath: path) {
                    #expect(
                        logError { try LogWriter.open(at: path, configuration: fixture.configuration) }?.code
                            == .notALog)
                }
                try LogWriter.create(at: path, settingsEvent: LogFixture.settings, configuration: fixture.configuration)
                    .close()
            }
            let reader = try LogReader(path: path)
            #expect(try reader.lastSeq() == 1)
            #expect(try reader.verify().problems == [])
        }
    }

    @Test func openingSomethingThatIsNotALogSaysSo() throws {
        let fixture = LogFixture()
        #expect(logError { try fixture.open() }?.code == .notFound)
        try FileManager.default.createDirectory(atPath: fixture.path, withIntermediateDirectories: false)
        #expect(logError { try fixture.open() }?.code == .notALog)
        try Data("something else\n".utf8).write(to: URL(fileURLWithPath: fixture.path + "/format"))
        #expect(logError { try fixture.open() }?.code == .notALog)
    }

    @Test func aWriterThatCannotGetTheLockInTimeFailsWithLocked() throws {
        let fixture = LogFixture()
        let holder = try fixture.create()
        fixture.lockTimeout = .milliseconds(60)
        #expect(logError { try fixture.open() }?.code == .locked)
        holder.close()
        let second = try fixture.open()
        #expect(second.lastSeq == 1)
    }

    /// A child process started by another thread holds a copy of every descriptor until it execs; closing
    /// the writer must still release the lock (found as a rare failure of `IOErrorTests` while other tests
    /// started processes).
    @Test func closingReleasesTheLockEvenWhileACopyOfItsDescriptorLives() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        let lockPath = fixture.path + "/lock"
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        let lock = try #require(
            descriptors.first { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == lockPath
            })
        let copy = dup(lock)  // what a child process inherits
        defer { close(copy) }
        writer.close()
        fixture.lockTimeout = .zero
        let next = try fixture.open()
        #expect(next.lastSeq == 1)
        next.close()
    }
}
