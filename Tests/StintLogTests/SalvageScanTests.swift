import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// The salvage's scan of what still reads after the damage: runs of chained events, and the one a salvage may
/// keep after its gap when a known head vouches for it (docs/decisions/0008-damage-is-contained.md, step 2b).
@Suite struct SalvageScanTests {
    /// A sealed log of 60 single-event batches in several segments of several frames each.
    struct Damaged {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 700)
        let events: [RecordedEvent]
        let segments: [String]

        init() throws {
            events = try fixture.populate(batches: 60)
            segments = try fixture.segmentNames()
        }

        /// The data frames of a segment with the `seq`s of their first and last events.
        func frames(of segment: Int) throws -> [(frame: SegmentSurgery.Frame, first: Int64, last: Int64)] {
            try SegmentSurgery.frames(fixture.bytes(of: segments[segment])).compactMap { frame in
                guard let content = frame.content else { return nil }
                let lines = SegmentSurgery.lines(content)
                return (frame, SegmentSurgery.event(lines[0]).seq, SegmentSurgery.event(lines.last!).seq)
            }
        }

        /// Flips one bit in the middle of a frame; returns that frame's `seq`s.
        @discardableResult
        func flip(segment: Int, frame index: Int) throws -> (first: Int64, last: Int64) {
            let frame = try frames(of: segment)[index]
            var bytes = try fixture.bytes(of: segments[segment])
            bytes[frame.frame.offset + frame.frame.bytes.count / 2] ^= 0x10
            try fixture.write(bytes, to: segments[segment])
            return (frame.first, frame.last)
        }

        /// The heads the `checked` file remembers: each segment's last `seq` and the digest of its line.
        var checkedHeads: [Int64: SHA256Digest] {
            let entries = CheckedSegments.read(in: LogDirectory(path: fixture.path, fileSystem: POSIXFileSystem()))
            return Dictionary(
                uniqueKeysWithValues: (entries?.entries ?? [:]).values.map { ($0.lastSeq, $0.lastLineDigest) })
        }

        func scan(after: Int64, heads: [Int64: SHA256Digest]) throws -> SalvageScan {
            try SalvageScan(
                segments: segments, in: LogDirectory(path: fixture.path, fileSystem: POSIXFileSystem()), after: after,
                heads: heads, fileSystem: POSIXFileSystem(), decompressor: ZstdDecompressor(), chunkSize: 4096)
        }
    }

    @Test func aFlippedFrameLeavesARunFromTheNextFrameThatTheCheckedFileVouchesFor() throws {
        let log = try Damaged()
        #expect(try log.frames(of: 2).count >= 3)
        let lost = try log.flip(segment: 2, frame: 1)
        let scan = try log.scan(after: lost.first - 1, heads: log.checkedHeads)
        let run = try #require(scan.keptRun(recordSeq: lost.first, lastKnown: log.events.last!.seq))
        #expect(run.firstSeq == lost.last + 1)
        #expect(run.firstLink == log.events[Int(lost.last)].prev)
        #expect(run.lastSeq == log.events.last!.seq)
        #expect(run.lastDigest == SHA256Digest(of: log.events.last!.encodedLine() + [0x0A]))
        #expect(scan.runs.count == 1)
    }

    @Test func withoutAKnownHeadNothingIsKept() throws {
        let log = try Damaged()
        let lost = try log.flip(segment: 2, frame: 1)
        let scan = try log.scan(after: lost.first - 1, heads: [:])
        #expect(scan.runs.count == 1)
        #expect(scan.keptRun(recordSeq: lost.first, lastKnown: 0) == nil)
        // A head whose digest is not its line's vouches for nothing.
        let wrong = Dictionary(uniqueKeysWithValues: log.checkedHeads.map { ($0.key, SHA256Digest(of: [0x41])) })
        #expect(try log.scan(after: lost.first - 1, heads: wrong).keptRun(recordSeq: lost.first, lastKnown: 0) == nil)
    }

    @Test func aHeadInTheMiddleOfAFrameVouchesThroughTheNextLink() throws {
        let log = try Damaged()
        let lost = try log.flip(segment: 2, frame: 1)
        // The event after the lost frame's is in the middle of the next frame (several single-event batches).
        let event = log.events[Int(lost.last + 1)]
        let heads = [event.seq: SHA256Digest(of: event.encodedLine() + [0x0A])]
        let run = try #require(
            try log.scan(after: lost.first - 1, heads: heads).keptRun(recordSeq: lost.first, lastKnown: 0))
        #expect(run.firstSeq == lost.last + 1)
    }

    @Test func aSecondFlipLeavesOnlyTheLastRunToKeep() throws {
        let log = try Damaged()
        let lost = try log.flip(segment: 1, frame: 1)
        let second = try log.flip(segment: 3, frame: 1)
        let scan = try log.scan(after: lost.first - 1, heads: log.checkedHeads)
        #expect(scan.runs.count == 2)
        let run = try #require(scan.keptRun(recordSeq: lost.first, lastKnown: log.events.last!.seq))
        #expect(run.firstSeq == second.last + 1)
    }

    @Test func damageAfterTheLastRunKeepsNothing() throws {
        let log = try Damaged()
        let lost = try log.flip(segment: 1, frame: 1)
        let lastFrames = try log.frames(of: log.segments.count - 1)
        try log.flip(segment: log.segments.count - 1, frame: lastFrames.count - 1)
        let scan = try log.scan(after: lost.first - 1, heads: log.checkedHeads)
        #expect(scan.damageAfterLastRun)
        #expect(scan.keptRun(recordSeq: lost.first, lastKnown: 0) == nil)
    }

    @Test func aRunThatDoesNotReachTheLastKnownSeqOrStartsAtTheRecordIsNotKept() throws {
        let log = try Damaged()
        let lost = try log.flip(segment: 2, frame: 1)
        let scan = try log.scan(after: lost.first - 1, heads: log.checkedHeads)
        #expect(scan.keptRun(recordSeq: lost.first, lastKnown: log.events.last!.seq + 1) == nil)
        #expect(scan.keptRun(recordSeq: lost.last + 1, lastKnown: 0) == nil)
    }
}
