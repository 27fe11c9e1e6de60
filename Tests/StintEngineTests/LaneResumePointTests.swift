import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintEngine

/// A catch-up after an ingestion takes the batches the ingestion wrote to the mirror as it wrote them, without
/// reading the mirror back (``MergedStore/ingestedBatches``); after an append, it reads the own log from where
/// its writer found it (``LaneResumePoint``, decision 0010 step 0b), not the segment from its start. A
/// catch-up from further back reads the logs.
@Suite struct LaneResumePointTests {
    private static func remarks(_ batches: [StoredBatch]) -> [String] {
        batches.flatMap(\.events).compactMap { $0.data["name"]?.stringValue }
    }

    /// What a catch-up of `store` from `position` to its head hands out (`counting` then holds what it opened and
    /// read).
    private static func catchUp(_ store: MergedStore, from position: StorePosition, counting: CountingFileSystem)
        throws -> [String]
    {
        let head = try #require(try store.head()).position.merged
        counting.reset()
        let cursor = try store.mergedBatches(after: position, through: head)
        var batches: [StoredBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        if let damage = cursor.damage { throw damage }
        return remarks(batches)
    }

    /// b wrote `earlier` remarks a holds; a's store, holding the lock, takes its head (`fromBefore`: a's head
    /// before it synced them), then b writes `later` remarks and a's store ingests them. Returns what a
    /// catch-up from that head hands out, how many of b's mirror's segments it opened, and whether the
    /// ingestion sealed the segment that was active before it.
    private func catchUp(
        earlier: Int, later: Int, sealThreshold: Int64 = 1 << 20, fromBefore: Bool = false, syncsFirst: Bool = true
    ) throws -> (remarks: [String], opened: Int, sealedSince: Bool) {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        a.sealThreshold = sealThreshold
        b.sealThreshold = sealThreshold
        try space.found(a)
        try space.join(b)
        let beforeSync = try { () throws -> StorePosition in
            let store = try a.store()
            defer { store.close() }
            return try #require(try store.head()).position
        }()
        for n in 0..<earlier { try b.write("early \(n) of a backlog of items to work through") }
        if syncsFirst { try a.sync() }
        let mirror = a.log + "/mirrors/\(b.device)"
        let before = syncsFirst ? try SpaceHarness.segments(of: mirror) : []
        let counting = CountingFileSystem()
        var options = a.options
        options.fileSystem = counting
        let store = try MergedStore.open(log: a.log, holdingLock: true, options: options)
        defer { store.close() }
        let position = fromBefore ? beforeSync : try #require(try store.head()).position
        for n in 0..<later { try b.write("late \(n)") }
        try store.ingest()
        let remarks = try Self.catchUp(store, from: position, counting: counting)
        let segments = try SpaceHarness.segments(of: mirror)
        let opened = counting.openedPaths.filter { $0.hasPrefix(mirror + "/") && $0.hasSuffix(".jsonl.zst") }
        return (remarks, opened.count, segments.count > before.count)
    }

    @Test func aCatchUpAfterAnIngestionTakesTheBatchesItWroteWithoutReadingTheMirror() throws {
        let caught = try catchUp(earlier: 300, later: 3)
        #expect(caught.remarks == ["late 0", "late 1", "late 2"])
        #expect(!caught.sealedSince)
        #expect(caught.opened == 0, "opened \(caught.opened) of the mirror's segments")
    }

    /// The mirror's segment is sealed by the ingestion (a new file in its place): the batches are the same.
    @Test func aSegmentSealedByTheIngestionChangesNothing() throws {
        let caught = try catchUp(earlier: 40, later: 40, sealThreshold: 6_000)
        #expect(caught.sealedSince, "the segment active before the ingestion was sealed")
        #expect(caught.remarks == (0..<40).map { "late \($0)" })
        #expect(caught.opened == 0, "opened \(caught.opened) of the mirror's segments")
    }

    /// A mirror the ingestion creates: its batches from the first are handed out.
    @Test func aMirrorTheIngestionCreatesIsNotReadEither() throws {
        let caught = try catchUp(earlier: 0, later: 3, syncsFirst: false)
        #expect(caught.remarks == ["late 0", "late 1", "late 2"])
        #expect(caught.opened == 0, "opened \(caught.opened) of the mirror's segments")
    }

    /// A position from before an earlier ingestion: the mirror is read (its earlier events are not held).
    @Test func aCatchUpFromFurtherBackReadsTheMirror() throws {
        let caught = try catchUp(earlier: 30, later: 3, fromBefore: true)
        #expect(
            caught.remarks == (0..<30).map { "early \($0) of a backlog of items to work through" } + [
                "late 0", "late 1", "late 2",
            ])
        #expect(caught.opened > 0)
    }

    /// a's store, holding the lock, takes its head; it appends three batches; a catch-up from that head reads
    /// only the own log's new frames, not its active segment from the start.
    @Test func aCatchUpAfterAnAppendReadsOnlyTheOwnLogsNewFrames() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.found(a)
        for n in 0..<300 { try a.write("early \(n) of a backlog of items to work through") }
        let counting = CountingFileSystem()
        var options = a.options
        options.fileSystem = counting
        let store = try MergedStore.open(log: a.log, holdingLock: true, options: options)
        defer { store.close() }
        let position = try #require(try store.head()).position
        for n in 0..<3 { _ = try store.appendExpectingSuccess([remark("late \(n)", ids: a.ids)], at: a.clock.now) }
        #expect(try Self.catchUp(store, from: position, counting: counting) == ["late 0", "late 1", "late 2"])
        let last = try #require(try SpaceHarness.segments(of: a.log).last)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: a.log + "/" + last)[.size] as? Int)
        #expect(size > 20_000, "a segment worth skipping")
        #expect(counting.bytesRead(of: last) < size / 4, "read \(counting.bytesRead(of: last)) of \(size) bytes")
    }
}
