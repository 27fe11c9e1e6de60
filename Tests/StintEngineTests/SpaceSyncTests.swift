import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine
@testable import StintLog

/// Replicas of one space converge: after every device has written and synced, each holds the same events,
/// the same frontier and the same merged history (docs/decisions/0007 §5, §6).
@Suite struct SpaceSyncTests {
    @Test func threeReplicasWithSkewedClocksConvergeOnOneFrontierAndOneHistory() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: -3_600_000)
        let c = space.replica("c", skew: 7_200_000)
        try space.found(a)
        try a.write("a1")
        try space.join(b)
        try space.join(c)
        try b.write("b1", "b2")
        try c.write("c1")
        try a.write("a2")
        try b.sync()
        try b.write("b3")
        for _ in 0..<2 {
            for replica in [a, b, c] { try replica.sync() }
        }
        let frontier = try a.frontier()
        #expect(Set(frontier.heads.keys) == [a.device, b.device, c.device])
        #expect(try b.frontier() == frontier)
        #expect(try c.frontier() == frontier)
        let history = try a.mergedEvents()
        #expect(try b.mergedEvents() == history)
        #expect(try c.mergedEvents() == history)
        let texts = history.compactMap { $0.data["name"]?.stringValue }
        #expect(Set(texts).isSuperset(of: ["a1", "a2", "b1", "b2", "b3", "c1"]), "nothing is lost")
        #expect(history.count == frontier.heads.values.reduce(0) { $0 + Int($1.seq) })

        // The streaming merge is MergeOrder's, over the devices' logs as the replica holds them.
        let logs = [
            (a.device, try a.events(of: a.log)), (b.device, try a.events(of: "\(a.log)/mirrors/\(b.device)")),
            (c.device, try a.events(of: "\(a.log)/mirrors/\(c.device)")),
        ]
        let keyed = logs.map { device, events in events.map { (device, $0) } }
        let expected = try MergeOrder.merge(keyed) { MergedBatchCursor.key(of: $0.1, device: $0.0) }
        #expect(history == expected.map(\.1))

        // b wrote b3 after ingesting c1 and a2: it sorts after them, whatever b's clock says.
        let index = { (text: String) in try #require(texts.firstIndex(of: text)) }
        #expect(try index("b3") > index("a2"))
        #expect(try index("b3") > index("c1"))
    }

    @Test func aReplicaHoldsByteCopiesAndPublishesEveryBatch() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        for step in 0..<3 { try a.write("a\(step)") }
        let report = try b.sync()
        #expect(report.ingested.map(\.device) == [a.device])
        #expect(try b.events(of: "\(b.log)/mirrors/\(a.device)") == (try a.events(of: a.log)))
        #expect(try b.events(of: space.published(a)) == (try a.events(of: a.log)), "every append is published")
        #expect(try b.sync().ingested.isEmpty, "a second ingestion finds nothing new")
        let status = try a.status()
        #expect(status.ownHead != nil && status.publishedHead == status.ownHead && status.publishedForkAt == nil)
        #expect(status.frontierHash == (try a.frontier()).hash)
        #expect(try b.status().devices.map(\.device) == [a.device])
    }

    @Test func sealedSegmentsArePublishedWholeAndIngested() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        a.sealThreshold = 400
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        for step in 0..<12 {
            try a.write("a note long enough to fill a segment quickly, number \(step)")
            // b's mirror then holds a part of a segment a seals later.
            if step == 4 { try b.sync() }
        }
        let own = try SpaceHarness.segments(of: a.log)
        #expect(own.count > 2, "the small threshold sealed segments")
        #expect(try SpaceHarness.segments(of: space.published(a)) == own)
        for name in own {
            #expect(
                FileManager.default.contents(atPath: "\(space.published(a))/\(name)")
                    == FileManager.default.contents(atPath: "\(a.log)/\(name)"), "\(name) is a byte copy")
        }
        try b.sync()
        #expect(try b.frontier() == (try a.frontier()).merging(b))
        // b seals at 1 MiB, yet its mirror holds a's sealed segments byte for byte: placed, not sealed again.
        let mirror = "\(b.log)/mirrors/\(a.device)"
        #expect(try SpaceHarness.segments(of: mirror) == own)
        for name in own.dropLast() {
            #expect(
                FileManager.default.contents(atPath: "\(mirror)/\(name)")
                    == FileManager.default.contents(atPath: "\(a.log)/\(name)"), "\(name) is a byte copy")
        }
        #expect(try LogReader(path: mirror).verify().problems.isEmpty)
    }

    @Test func aMirrorHoldsTheFramesOfTheFoldersCopyAsTheDeviceCompressedThem() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        for step in 0..<4 { try a.write("a\(step)") }
        // Another zstd or another level made the copy's frames: the same lines, other bytes. b's mirror is
        // made from them (joining ingests).
        let folder = space.published(a)
        let segments = try SpaceHarness.segments(of: folder)
        #expect(segments.count == 1)
        let path = "\(folder)/\(segments[0])"
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let recompressed = try Self.recompressed(original, level: 19)
        #expect(recompressed != original)
        try Data(recompressed).write(to: URL(fileURLWithPath: path))
        try space.join(b)
        let mirror = "\(b.log)/mirrors/\(a.device)"
        #expect(FileManager.default.contents(atPath: "\(mirror)/\(segments[0])") == Data(recompressed))
        #expect(try LogReader(path: mirror).verify().problems.isEmpty)
        #expect(try b.events(of: mirror) == (try a.events(of: a.log)))
        #expect(try b.sync().ingested.isEmpty, "the copy and the mirror are the same bytes")
    }

    /// A segment of one-batch frames with each frame compressed again at `level`.
    private static func recompressed(_ segment: [UInt8], level: Int32) throws -> [UInt8] {
        let scanner = FrameScanner(source: .memory(segment), chunkSize: segment.count, decompressor: ZstdDecompressor())
        let compressor = ZstdCompressor(level: level)
        var frames: [UInt8] = []
        while case .data(_, _, _, let content) = try scanner.next() {
            try compressor.compress(content, appendingTo: &frames)
        }
        return frames
    }

    @Test func ingestionWritesOnlyTheReplicaAndNoReplicaWritesAnotherDevicesFiles() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        try a.write("a1")
        try b.write("b1")
        let before = try space.folderBytes()
        try a.sync()
        let after = try space.folderBytes()
        let changed = Set(after.keys).union(before.keys).filter { before[$0] != after[$0] }
        #expect(changed.allSatisfy { $0.hasPrefix("devices/\(a.device)/") }, "only a's own directory: \(changed)")
        #expect(!FileManager.default.fileExists(atPath: "\(a.log)/mirrors/\(a.device)"), "no mirror of itself")
        #expect(try a.events(of: space.published(b)) == (try b.events(of: b.log)))
    }
}

extension Frontier {
    /// This frontier with `replica`'s own head as the replica holds it.
    fileprivate func merging(_ replica: SpaceHarness.Replica) throws -> Frontier {
        var merged = self
        merged.heads[replica.device] = try replica.frontier().heads[replica.device]
        return merged
    }
}
