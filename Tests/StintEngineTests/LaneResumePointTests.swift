import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintEngine

/// A catch-up after an ingestion reads each log from where its writer found it (``LaneResumePoint``, decision
/// 0010 step 0b), not the segment from its start; a segment replaced since (sealed) is read as without it.
@Suite struct LaneResumePointTests {
    private static func remarks(_ batches: [StoredBatch]) -> [String] {
        batches.flatMap(\.events).compactMap { $0.data["name"]?.stringValue }
    }

    /// b wrote `earlier` remarks a holds; a's store, holding the lock, takes its head, then b writes
    /// `later` remarks and a's store ingests them. Returns what a catch-up from that head hands out and the
    /// bytes it read of b's mirror's last segment, with that segment's size, and whether the ingestion sealed
    /// the segment that was active before it (the mirror has more segments).
    private func catchUp(earlier: Int, later: Int, sealThreshold: Int64 = 1 << 20) throws -> (
        remarks: [String], read: Int, segmentSize: Int, sealedSince: Bool
    ) {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        a.sealThreshold = sealThreshold
        b.sealThreshold = sealThreshold
        try space.found(a)
        try space.join(b)
        for n in 0..<earlier { try b.write("early \(n) of a backlog of items to work through") }
        try a.sync()
        let mirror = a.log + "/mirrors/\(b.device)"
        let before = try SpaceHarness.segments(of: mirror)
        let counting = CountingFileSystem()
        var options = a.options
        options.fileSystem = counting
        let store = try MergedStore.open(log: a.log, holdingLock: true, options: options)
        defer { store.close() }
        let position = try #require(try store.head()).position
        for n in 0..<later { try b.write("late \(n)") }
        try store.ingest()
        let head = try #require(try store.head()).position.merged
        let segments = try SpaceHarness.segments(of: mirror)
        let last = try #require(segments.last)
        counting.reset()
        let cursor = try store.mergedBatches(after: position, through: head)
        var batches: [StoredBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        if let damage = cursor.damage { throw damage }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: mirror + "/" + last)[.size] as? Int)
        return (Self.remarks(batches), counting.bytesRead(of: last), size, segments.count > before.count)
    }

    @Test func aCatchUpAfterAnIngestionReadsOnlyTheNewFrames() throws {
        let caught = try catchUp(earlier: 300, later: 3)
        #expect(caught.remarks == ["late 0", "late 1", "late 2"])
        #expect(!caught.sealedSince)
        #expect(caught.segmentSize > 20_000, "a segment worth skipping")
        #expect(caught.read < caught.segmentSize / 4, "read \(caught.read) of \(caught.segmentSize) bytes")
    }

    /// The mirror's segment is sealed by the ingestion (a new file in its place): the point is not taken, and
    /// the catch-up reads as without it.
    @Test func aSegmentSealedSinceIsReadAsWithoutThePoint() throws {
        let caught = try catchUp(earlier: 40, later: 40, sealThreshold: 6_000)
        #expect(caught.sealedSince, "the segment the point was taken in was sealed")
        #expect(caught.remarks == (0..<40).map { "late \($0)" })
    }
}
