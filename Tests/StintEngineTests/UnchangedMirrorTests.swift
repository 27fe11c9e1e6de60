import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintEngine

/// An ingestion leaves closed the mirror of a device whose folder copy ends with the mirror's last segment, byte
/// for byte, when the store already knows its last event (a command's open read it): no writer opens it to check
/// its segments again for nothing to append, but once, to settle its active segment's fingerprint after the
/// ingestion that wrote it. A device that wrote since is taken in as before.
@Suite struct UnchangedMirrorTests {
    @Test func aCommandsIngestionOpensNoWriterForADeviceThatWroteNothing() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        try space.found(a)
        try space.join(b)
        try b.write("b1")
        try a.sync()
        let mirrorLock = a.log + "/mirrors/\(b.device)/lock"
        let counting = CountingFileSystem()
        var options = a.options
        options.fileSystem = counting
        // The first command after the ingestion that wrote the mirror hashes its active segment to vouch for its
        // end, and settles its fingerprint (once the file system's clock moved on from the write).
        /// A command's open and ingestion, once the file system's clock moved on from the last write.
        func command() throws {
            Thread.sleep(forTimeInterval: 0.03)
            let store = try MergedStore.open(log: a.log, holdingLock: true, options: options)
            defer { store.close() }
            _ = try store.head()
            #expect(try store.ingest().ingested.isEmpty)
        }
        try command()
        #expect(counting.openedPaths.contains(mirrorLock), "the mirror's fingerprint is settled once")
        // By the next command at the latest (settling rewrote the mirror's `checked` file, in the same tick of the
        // file system's clock as the first comparison, or not), the folder's copy and the mirror were compared and
        // remembered the same by their fingerprints; the commands after it only look at those.
        try command()
        let store = try MergedStore.open(log: a.log, holdingLock: true, options: options)
        defer { store.close() }
        counting.reset()
        let head = try #require(try store.head())
        let (mirrorSegment, segmentSize) = try Self.lastSegment(of: a.log + "/mirrors/\(b.device)")
        #expect(
            counting.bytesRead(of: mirrorSegment) < segmentSize,
            "the settled fingerprint vouches for the mirror's end: its segment is not hashed")
        counting.reset()
        let quiet = try store.ingest()
        #expect(!counting.openedPaths.contains(mirrorLock), "the unchanged mirror's writer stays closed")
        #expect(
            !counting.openedPaths.contains { $0.hasSuffix(".jsonl.zst") },
            "the vouch of the last comparison holds: neither segment is read")
        #expect(quiet.ingested.isEmpty)
        let scanned = try #require(quiet.devices.first { $0.device == b.device })
        #expect(scanned.mirrorHead?.seq == head.position.merged?.seqs[b.device])
        #expect(try store.head() == head, "the heads known before, unread")

        try b.write("b2")
        counting.reset()
        let taken = try store.ingest()
        #expect(
            counting.openedPaths.contains(mirrorLock), "a device that wrote is taken in through its mirror's writer")
        #expect(taken.ingested.map(\.device) == [b.device])
        let names = try store.allBatches(after: head.position).flatMap(\.events).compactMap {
            $0.data["name"]?.stringValue
        }
        #expect(names == ["b2"])
        // The heads after it are those of a fresh store.
        let fresh = try MergedStore.open(log: a.log, holdingLock: false, options: a.options)
        defer { fresh.close() }
        #expect(try store.head() == fresh.head())
    }

    /// `stint sync` settles the mirrors its ingestion wrote once its other work is done, so the next command
    /// neither hashes them to read their ends nor opens their writers to settle them.
    @Test(arguments: [false, true])
    func mirrorsSettledByTheIngestingCommandAreNotHashedByTheNext(settled: Bool) throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        try space.found(a)
        try space.join(b)
        // A segment of many frames: reading its end reads the last one; hashing it reads them all.
        for step in 0..<30 { try b.write("b\(step)") }
        let syncing = try MergedStore.open(log: a.log, holdingLock: true, options: a.options)
        let report = try syncing.ingest()
        #expect(report.ingested.map(\.device) == [b.device])
        // The rest of the sync (the read models' catch-up): the file system's clock moves on from the write.
        Thread.sleep(forTimeInterval: 0.03)
        if settled { syncing.settleMirrors(writtenBy: report) }
        syncing.close()

        let mirror = a.log + "/mirrors/\(b.device)"
        let (segment, size) = try Self.lastSegment(of: mirror)
        let counting = CountingFileSystem()
        var options = a.options
        options.fileSystem = counting
        let next = try MergedStore.open(log: a.log, holdingLock: true, options: options)
        defer { next.close() }
        _ = try next.head()
        #expect(
            (counting.bytesRead(of: segment) < size) == settled,
            "the mirror's end is vouched for by its fingerprint, not by hashing its active segment, once settled")
        counting.reset()
        #expect(try next.ingest().ingested.isEmpty)
        #expect(counting.openedPaths.contains(mirror + "/lock") == !settled, "nor is the mirror settled again")
    }

    /// The name and size of the last segment of the log directory at `path`.
    private static func lastSegment(of path: String) throws -> (name: String, size: Int) {
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jsonl.zst") }.max())
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int)
        return (name, size)
    }
}
