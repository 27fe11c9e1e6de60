import Foundation
import StintCore

@_spi(FaultInjection) @testable import StintLog

/// A log with the one gap a salvage that kept events after the damage leaves (docs/log-format.md §6.1), made
/// from a sealed log of single-event batches: the segment holding `from` keeps its events before it and ends
/// with a `log.repaired` of `seq` `from` naming the resume point; the segments after it up to the one holding
/// `resumesAt` go, and that one starts at `resumesAt`, its events' bytes unchanged; later segments stay as they
/// are. The `checked` and `tail` files are removed (they described the log before).
struct GapLog {
    let fixture: LogFixture
    /// The events of the log before the change.
    let original: [RecordedEvent]
    /// The `seq` of the `log.repaired` event (the first lost one).
    let from: Int64
    /// The first `seq` kept after the gap.
    let resumesAt: Int64
    /// The record as written.
    let record: RecordedEvent
    /// The events kept after the gap.
    let keptAfter: [RecordedEvent]

    /// What follows the record.
    enum After {
        /// The segments from the one holding `resumesAt` (which now starts there) to the end of the log.
        case sealedSegments
        /// Only the events of that segment from `resumesAt` on, in an active segment (one frame per event).
        case activeSegment
        /// Nothing: the log ends with the record.
        case nothing
    }

    /// The events a reader must hand out, in order.
    var expected: [RecordedEvent] { Array(original[..<Int(from - 1)]) + [record] + keptAfter }

    /// - Parameters:
    ///   - resume: the resume point the record names, given the true one (to test a wrong one, or none).
    ///   - after: what follows the record.
    init(resume: (ResumePoint) -> ResumePoint? = { $0 }, after: After = .sealedSegments) throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 700)
        let original = try fixture.populate(batches: 60)
        let segments = try fixture.segmentNames()
        precondition(segments.count >= 6, "the fixture's log has too few segments")
        let firsts = segments.map { Int64($0.prefix(20))! }
        // The record replaces the third event of the second segment; the log resumes at the second event of the
        // fourth.
        from = firsts[1] + 2
        resumesAt = firsts[3] + 1
        let before = original[Int(from - 2)]
        let point = resume(ResumePoint(seq: resumesAt, link: original[Int(resumesAt - 1)].prev))
        let draft = DomainEvent.logRepaired(
            from: from, to: (point?.seq ?? resumesAt) - 1, reason: "the test's gap", resume: point
        )
        .draft
        record = RecordedEvent(
            seq: from, at: before.at, type: draft.type, version: draft.version,
            prev: SHA256Digest(of: before.encodedLine() + [0x0A]).link, data: draft.data)
        let writer = LogWriter(path: fixture.path, configuration: fixture.configuration)
        func sealed(_ events: [RecordedEvent]) throws -> [UInt8] {
            var content: [UInt8] = []
            var ends: [Int] = []
            for event in events {
                content += event.encodedLine() + [0x0A]
                ends.append(content.count)
            }
            writer.lastSeq = events.last!.seq
            return try writer.recompress(content, batchEnds: ends, firstSeq: events[0].seq, segment: "gap")
        }
        let kept = Array(original[Int(firsts[1] - 1)..<Int(from - 1)]) + [record]
        try fixture.write(try sealed(kept), to: segments[1])
        try FileManager.default.removeItem(atPath: fixture.path + "/" + segments[2])
        try FileManager.default.removeItem(atPath: fixture.path + "/" + segments[3])
        let resumed = Array(original[Int(resumesAt - 1)..<Int(firsts[4] - 1)])
        let resumedName = String(format: "%020lld.jsonl.zst", resumesAt)
        if after != .sealedSegments {
            for name in segments[4...] { try FileManager.default.removeItem(atPath: fixture.path + "/" + name) }
        }
        switch after {
        case .sealedSegments:
            try fixture.write(try sealed(resumed), to: resumedName)
        case .activeSegment:
            try fixture.write(
                resumed.flatMap { SegmentSurgery.frame($0.encodedLine() + [0x0A]) }, to: resumedName)
        case .nothing:
            break
        }
        for name in [CheckedSegments.name, TailFile.name] {
            try? FileManager.default.removeItem(atPath: fixture.path + "/" + name)
        }
        self.fixture = fixture
        self.original = original
        switch after {
        case .sealedSegments: keptAfter = Array(original[Int(resumesAt - 1)...])
        case .activeSegment: keptAfter = resumed
        case .nothing: keptAfter = []
        }
    }
}
