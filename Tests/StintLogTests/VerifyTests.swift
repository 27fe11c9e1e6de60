import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct VerifyTests {
    /// A log of single-event batches in one active segment: frame i holds event i + 1.
    private func activeLog() throws -> (LogFixture, [RecordedEvent], String, [SegmentSurgery.Frame]) {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 9)
        let name = try fixture.segmentNames()[0]
        return (fixture, events, name, SegmentSurgery.frames(try fixture.bytes(of: name)))
    }

    private func rewrite(_ fixture: LogFixture, _ name: String, _ frames: [[UInt8]]) throws {
        try fixture.write(frames.flatMap { $0 }, to: name)
    }

    @Test func anEditedEventRecompressedWithAValidChecksumBreaksTheChainAtTheNextSeq() throws {
        let (fixture, events, name, frames) = try activeLog()
        var edited = events[4]
        edited.data = LogFixture.draft(1234).data
        var bytes = frames.map(\.bytes)
        bytes[4] = SegmentSurgery.frame(edited.encodedLine() + [0x0A])
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify()
        #expect(report.problems.map(\.kind) == [.chainBroken])
        #expect(report.problems.first?.location.seq == 6)
        #expect(report.problems.first?.location.segment == name)
        #expect(report.problems.first?.location.offset == Int64(bytes[0..<5].map(\.count).reduce(0, +)))
        #expect(report.eventCount == Int64(events.count))
    }

    /// A check that folds the events (the fold trusts their order) learns which ones follow the ones it was given.
    @Test func theValidatorIsToldWhichEventsFollowTheOnesBefore() throws {
        let (fixture, events, name, frames) = try activeLog()
        var bytes = frames.map(\.bytes)
        var earlier = events[4]
        earlier.at = events[3].at.adding(milliseconds: -1)
        bytes[4] = SegmentSurgery.frame(earlier.encodedLine() + [0x0A])
        bytes.remove(at: 7)
        try rewrite(fixture, name, bytes)
        var told: [Int64: Bool] = [:]
        _ = try fixture.reader().verify(validatingEach: { event, follows in
            told[event.seq] = follows
            return nil
        })
        // Seq 5 goes back in time, seq 8 is missing; the first event follows nothing.
        #expect(told == [1: false, 2: true, 3: true, 4: true, 5: false, 6: true, 7: true, 9: false, 10: true])
    }

    @Test func anEditedLastEventChangesTheHead() throws {
        let (fixture, events, name, frames) = try activeLog()
        let head = try fixture.reader().verify().head!
        #expect(head.seq == events.last!.seq)
        #expect(try fixture.reader().verify(expectingHead: head).problems == [])
        var edited = events.last!
        edited.data = LogFixture.draft(1234).data
        var bytes = frames.map(\.bytes)
        bytes[bytes.count - 1] = SegmentSurgery.frame(edited.encodedLine() + [0x0A])
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify(expectingHead: head)
        #expect(report.problems.map(\.kind) == [.headMismatch])
        #expect(report.problems.first?.location.seq == head.seq)
        let earlier = LogHead(seq: 3, hash: SHA256Digest(of: events[2].encodedLine() + [0x0A]).hex)
        #expect(try fixture.reader().verify(expectingHead: earlier).problems == [])
        let beyond = LogHead(seq: 99, hash: head.hash)
        #expect(try fixture.reader().verify(expectingHead: beyond).problems.map(\.kind) == [.headMismatch])
    }

    @Test func aDeletedEventIsReportedAtItsSeq() throws {
        let (fixture, _, name, frames) = try activeLog()
        var bytes = frames.map(\.bytes)
        bytes.remove(at: 4)
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify()
        #expect(report.problems.first?.kind == .seqDiscontinuity)
        #expect(report.problems.first?.location.seq == 5)
        #expect(report.problems.contains { $0.kind == .chainBroken && $0.location.seq == 6 })
        #expect(logError { try fixture.open() }?.location?.seq == 5)
    }

    @Test func anInsertedEventIsReportedAtItsSeq() throws {
        let (fixture, events, name, frames) = try activeLog()
        var inserted = events[5]
        inserted.data = LogFixture.draft(4321).data
        var bytes = frames.map(\.bytes)
        bytes.insert(SegmentSurgery.frame(inserted.encodedLine() + [0x0A]), at: 5)
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify()
        // The forged seq 6 links to seq 5 and passes; the real seq 6 after it repeats the seq and its link no
        // longer matches the line before it.
        #expect(report.problems.first?.kind == .seqDiscontinuity)
        #expect(report.problems.first?.location.seq == 6)
        #expect(report.problems.contains { $0.kind == .chainBroken && $0.location.seq == 6 })
    }

    @Test func twoSwappedEventsAreReportedAtTheFirstSeq() throws {
        let (fixture, _, name, frames) = try activeLog()
        var bytes = frames.map(\.bytes)
        bytes.swapAt(4, 5)
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify()
        #expect(report.problems.first?.kind == .seqDiscontinuity)
        #expect(report.problems.first?.location.seq == 5)
        #expect(report.problems.allSatisfy { [5, 6, 7].contains($0.location.seq) })
    }

    @Test func anEditInASealedSegmentWithARebuiltIndexIsFound() throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 600)
        let events = try fixture.populate(batches: 30)
        let name = try fixture.segmentNames()[0]
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        var lines = SegmentSurgery.lines(frames[1].content!)
        var edited = SegmentSurgery.event(lines[1])
        edited.type = "timer.stopped"
        lines[1] = edited.encodedLine()
        // Rebuild the segment, index included, as a careful forger would.
        var rebuilt: [UInt8] = []
        var entries: [SealIndex.Entry] = []
        for (index, frame) in frames.dropLast().enumerated() {
            let content = index == 1 ? SegmentSurgery.content(lines) : frame.content!
            entries.append(
                SealIndex.Entry(
                    offset: Int64(rebuilt.count), firstSeq: SegmentSurgery.event(SegmentSurgery.lines(content)[0]).seq))
            rebuilt += SegmentSurgery.frame(content)
        }
        let last = SegmentSurgery.event(SegmentSurgery.lines(frames[frames.count - 2].content!).last!).seq
        rebuilt += SealIndex(firstSeq: 1, lastSeq: last, entries: entries).encodedFrame()
        try fixture.write(rebuilt, to: name)
        let report = try fixture.reader().verify()
        #expect(report.problems.map(\.kind) == [.chainBroken])
        #expect(report.problems.first?.location.seq == edited.seq + 1)
        #expect(report.eventCount == Int64(events.count))
    }

    @Test func aWrongSealIndexIsReported() throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 600)
        try fixture.populate(batches: 30)
        let name = try fixture.segmentNames()[0]
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        let entries = frames.dropLast().enumerated().map { index, frame in
            SealIndex.Entry(
                offset: Int64(frame.offset),
                firstSeq: index == 1 ? 999 : SegmentSurgery.event(SegmentSurgery.lines(frame.content!)[0]).seq)
        }
        let last = SegmentSurgery.event(SegmentSurgery.lines(frames[frames.count - 2].content!).last!).seq
        let forged =
            frames.dropLast().flatMap(\.bytes) + SealIndex(firstSeq: 1, lastSeq: last, entries: entries).encodedFrame()
        try fixture.write(forged, to: name)
        let report = try fixture.reader().verify()
        #expect(report.problems.map(\.kind).contains(.invalidSeal))
        #expect(report.problems.first { $0.kind == .invalidSeal }?.location.segment == name)
    }

    @Test func nonCanonicalLinesAndRejectedEventsAreReported() throws {
        let (fixture, events, name, frames) = try activeLog()
        // The same event with its keys in another order: it decodes, but its bytes are not canonical.
        let event = events[2]
        var object = try JSON.parse(event.encodedLine()).objectFields!
        object.swapAt(0, 1)
        let reordered = JSON.object(object).encoded()
        var bytes = frames.map(\.bytes)
        bytes[2] = SegmentSurgery.frame(reordered + [0x0A])
        try rewrite(fixture, name, bytes)
        let report = try fixture.reader().verify(validatingEach: { event in
            event.type == "log.created" ? nil : (event.seq == 7 ? "unknown type \(event.type) v\(event.version)" : nil)
        })
        #expect(report.problems.contains { $0.kind == .nonCanonicalLine && $0.location.seq == 3 })
        #expect(report.problems.contains { $0.kind == .chainBroken && $0.location.seq == 4 })
        #expect(report.problems.contains { $0.kind == .rejectedEvent && $0.location.seq == 7 })
    }

    @Test func verifyReportsATornTailAndChangesNothing() throws {
        let (fixture, events, name, _) = try activeLog()
        let original = try fixture.bytes(of: name)
        try fixture.write(Array(original.dropLast(3)), to: name)
        // A torn append was never acknowledged: no `checked` file vouches for its bytes.
        try FileManager.default.removeItem(atPath: fixture.path + "/checked")
        let before = try fixture.snapshot()
        let report = try fixture.reader().verify()
        #expect(report.problems.map(\.kind) == [.tornTail])
        #expect(report.head?.seq == events[events.count - 2].seq)
        #expect(try fixture.snapshot() == before)
    }

    /// Bytes a writer acknowledged (the `checked` file) that are unreadable or gone are damage, with the lost
    /// `seq`s named, not a torn tail.
    @Test(arguments: [3, 0]) func verifyReportsAcknowledgedBytesThatAreGone(cutIntoLastFrame: Int) throws {
        let (fixture, events, name, frames) = try activeLog()
        let original = try fixture.bytes(of: name)
        let end = cutIntoLastFrame > 0 ? original.count - cutIntoLastFrame : frames[frames.count - 1].offset
        try fixture.write(Array(original.prefix(end)), to: name)
        let report = try fixture.reader().verify()
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.kind == (cutIntoLastFrame > 0 ? .unreadableFrame : .seqDiscontinuity))
        #expect(problem.message.contains("acknowledged"))
        #expect(report.head?.seq == events[events.count - 2].seq)
        if cutIntoLastFrame == 0 {
            #expect(problem.message.contains("seq \(events.last!.seq) is missing"), "\(problem.message)")
        }
    }
}
