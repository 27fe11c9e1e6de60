import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct TornTailTests {
    /// Cutting the last segment anywhere inside its last two frames, as an append torn by a crash leaves it,
    /// loses exactly the frames cut into: the writer keeps the whole frames before the cut, sets the rest aside
    /// byte for byte, and goes on. The `checked` file is the one the last acknowledged append left: a torn append
    /// was never acknowledged.
    @Test func cuttingTheLastSegmentAtEveryOffsetOfItsLastTwoFramesRecoversTheWholeFrames() throws {
        let fixture = LogFixture()
        var checkedAtSize: [Int: [UInt8]] = [:]
        let events = try fixture.populate(batches: 6, sizes: { $0 == 5 ? 2 : 1 }) {
            let name = try fixture.segmentNames()[0]
            checkedAtSize[try fixture.bytes(of: name).count] = try fixture.bytes(of: "checked")
        }
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(original)
        let cutStart = frames[frames.count - 2].offset
        let pristine = try fixture.snapshot()
        for cut in cutStart..<original.count {
            try fixture.restore(pristine)
            try fixture.write(Array(original[0..<cut]), to: name)
            // The whole frames before the cut, and the events they hold.
            let kept = frames.last { $0.offset + $0.bytes.count <= cut }!
            let keptEnd = kept.offset + kept.bytes.count
            try fixture.write(try #require(checkedAtSize[keptEnd]), to: "checked")
            let keptEvents = events.filter {
                $0.seq <= (keptEnd == original.count ? Int64(events.count) : lastSeq(in: frames, upTo: keptEnd))
            }

            let writer = try fixture.open()
            #expect(writer.lastSeq == keptEvents.last!.seq, "cut at \(cut)")
            #expect(writer.lastEvent == keptEvents.last)
            #expect(try fixture.bytes(of: name) == Array(original[0..<keptEnd]))
            if cut > keptEnd {
                #expect(try fixture.bytes(of: "\(name).torn-\(keptEnd)") == Array(original[keptEnd..<cut]))
                #expect(fixture.notices.notices.last?.kind == .tornTailSetAside)
            }
            fixture.clock.advance(milliseconds: 10)
            let next = try writer.append([LogFixture.draft(99)])
            #expect(next[0].seq == keptEvents.last!.seq + 1)
            #expect(next[0].prev == SHA256Digest(of: keptEvents.last!.encodedLine() + [0x0A]).link)
            writer.close()
            let (read, warning) = try fixture.readAll()
            #expect(warning == nil)
            #expect(read == keptEvents + next)
        }
    }

    /// Cutting acknowledged bytes — the `checked` file says a writer synced them — is damage, not a torn
    /// append: the writer refuses and changes nothing, and the repair keeps the whole frames before the cut and
    /// names every acknowledged `seq` lost.
    @Test func cuttingAcknowledgedBytesIsRefusedAndTheRepairNamesTheLostSeqs() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 6, sizes: { $0 == 5 ? 2 : 1 })
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(original)
        let pristine = try fixture.snapshot()
        for cut in frames[frames.count - 2].offset..<original.count {
            try fixture.restore(pristine)
            try fixture.write(Array(original[0..<cut]), to: name)
            let keptEnd = frames.last { $0.offset + $0.bytes.count <= cut }.map { $0.offset + $0.bytes.count }!
            let keptLast = lastSeq(in: frames, upTo: keptEnd)
            let before = try fixture.snapshot()
            do {
                try fixture.open().close()
                Issue.record("cut at \(cut): the writer opened a log missing acknowledged bytes")
            } catch let error as LogError {
                #expect(error.code == .damaged, "cut at \(cut)")
                #expect(error.message.contains("acknowledged"), "cut at \(cut): \(error.message)")
            }
            #expect(try fixture.snapshot() == before, "cut at \(cut): the refusal changed the log")
            let report = try fixture.reader().verify()
            #expect(report.problems.count == 1 && report.problems[0].kind != .tornTail, "cut at \(cut)")

            let (writer, repair) = try LogWriter.openRepairing(at: fixture.path, configuration: fixture.configuration)
            writer.close()
            #expect(repair?.firstLostSeq == keptLast + 1, "cut at \(cut)")
            #expect(repair?.lastLostSeq == events.last!.seq, "cut at \(cut)")
            #expect(try fixture.readAll().events == Array(events.prefix(Int(keptLast))), "cut at \(cut)")
        }
    }

    private func lastSeq(in frames: [SegmentSurgery.Frame], upTo end: Int) -> Int64 {
        let frame = frames.last { $0.offset + $0.bytes.count <= end }!
        return SegmentSurgery.event(SegmentSurgery.lines(frame.content!).last!).seq
    }

    @Test(arguments: [TailGarbage.zeros(1), .zeros(4096), .random(seed: 1, count: 3), .random(seed: 2, count: 700)])
    func garbageAfterTheLastFrameIsSetAside(garbage: TailGarbage) throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 4)
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        let junk = garbage.bytes
        try fixture.write(original + junk, to: name)
        #expect(try fixture.reader().verify().problems.map(\.kind) == [.tornTail])
        let (read, warning) = try fixture.readAll()
        #expect(read == events)
        #expect(warning?.kind == .tornTail || warning == nil)

        let writer = try fixture.open()
        #expect(writer.lastSeq == events.last!.seq)
        #expect(try fixture.bytes(of: name) == original)
        #expect(try fixture.bytes(of: "\(name).torn-\(original.count)") == junk)
        let next = try writer.append([LogFixture.draft(7)])
        #expect(next[0].seq == events.last!.seq + 1)
        writer.close()
        #expect(try fixture.reader().verify().problems == [])
    }

    /// A new segment whose only frame is torn, or that is empty, is removed; the torn bytes are kept aside.
    @Test(arguments: [[0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x40], []] as [[UInt8]])
    func aTornFirstFrameOfANewSegmentRemovesTheSegment(torn: [UInt8]) throws {
        let fixture = LogFixture(sealThreshold: 700)
        let writer = try fixture.create()
        var events = [writer.lastEvent!]
        while writer.active != nil || events.count < 3 { events += try writer.append([LogFixture.draft(events.count)]) }
        writer.close()
        let sealedNames = try fixture.segmentNames()
        let nextName = LogDirectory.segmentName(firstSeq: events.last!.seq + 1)
        try fixture.write(torn, to: nextName)
        let reopened = try fixture.open()
        #expect(reopened.lastSeq == events.last!.seq)
        #expect(try fixture.segmentNames() == sealedNames)
        if !torn.isEmpty { #expect(try fixture.bytes(of: "\(nextName).torn-0") == torn) }
        #expect(fixture.notices.notices.map(\.kind) == [.tornTailSetAside])
        #expect(try reopened.append([LogFixture.draft(1)])[0].seq == events.last!.seq + 1)
        reopened.close()
        #expect(try fixture.reader().verify().problems == [])
    }

    @Test func anEmptyOnlySegmentIsDamageNotATornTail() throws {
        let fixture = LogFixture()
        try fixture.populate(batches: 1)
        let name = try fixture.segmentNames()[0]
        try fixture.write([], to: name)
        #expect(logError { try fixture.open() }?.code == .damaged)
        #expect(try fixture.segmentNames() == [name])
    }
}

/// Bytes appended after the last frame of an intact log.
enum TailGarbage: Sendable, CustomTestStringConvertible {
    case zeros(Int)
    case random(seed: UInt64, count: Int)

    var bytes: [UInt8] {
        switch self {
        case .zeros(let count):
            return [UInt8](repeating: 0, count: count)
        case .random(let seed, let count):
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
    }

    var testDescription: String {
        switch self {
        case .zeros(let count): return "\(count) zero bytes"
        case .random(let seed, let count): return "\(count) random bytes (seed \(seed))"
        }
    }
}
