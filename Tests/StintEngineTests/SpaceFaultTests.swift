import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine
@testable import StintLog

/// What a sync tool does to the folder: delivers a file cut short, leaves one out, re-delivers an old copy, or
/// another installation writes as a device (docs/decisions/0007 §6.2, §6.3).
@Suite struct SpaceFaultTests {
    /// a founds the space and writes; b joins.
    private func twoReplicas() throws -> (SpaceHarness, SpaceHarness.Replica, SpaceHarness.Replica) {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        return (space, a, b)
    }

    @Test func aTornTailIsNotArrivedYetAndIsIngestedOnceComplete() throws {
        let (space, a, b) = try twoReplicas()
        try a.write("a1")
        try b.sync()
        try a.write("a2")
        try a.write("a3")
        let segment = "\(space.published(a))/\(try SpaceHarness.segments(of: space.published(a)).last!)"
        let whole = try Data(contentsOf: URL(fileURLWithPath: segment))
        try whole.dropLast(7).write(to: URL(fileURLWithPath: segment))

        let status = try b.status()
        let scan = try #require(status.devices.first { $0.device == a.device })
        #expect(scan.waiting?.contains("not arrived yet") == true, "\(scan.waiting ?? "nothing waits")")
        #expect(scan.acceptedEvents == 1, "a2 arrived whole, a3 is cut")
        let report = try b.sync()
        #expect(report.ingested.map(\.acceptedEvents) == [1])
        let mirrored = try b.events(of: "\(b.log)/mirrors/\(a.device)").compactMap { $0.data["name"]?.stringValue }
        #expect(mirrored == ["a1", "a2"])

        try whole.write(to: URL(fileURLWithPath: segment))
        #expect(try b.sync().ingested.map(\.acceptedEvents) == [1])
        #expect(try b.events(of: "\(b.log)/mirrors/\(a.device)") == (try a.events(of: a.log)))
        #expect(try b.status().devices.allSatisfy { $0.waiting == nil })
    }

    @Test func aMissingSegmentIsNotArrivedYet() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        a.sealThreshold = 300
        let b = space.replica("b")
        try space.found(a)
        for step in 0..<8 { try a.write("a note long enough to seal segments, number \(step)") }
        let segments = try SpaceHarness.segments(of: space.published(a))
        #expect(segments.count >= 3)
        let moved = "\(space.root.path)/held-back"
        try FileManager.default.moveItem(atPath: "\(space.published(a))/\(segments[1])", toPath: moved)
        try space.join(b)
        let scan = try #require(try b.status().devices.first { $0.device == a.device })
        #expect(scan.waiting != nil, "the gap is reported")
        #expect(scan.mirrorHead != nil && scan.forkedAt == nil && scan.behindBy == nil)
        let held = try b.events(of: "\(b.log)/mirrors/\(a.device)").count
        #expect(Int64(held) == LogDirectory.firstSeq(ofSegment: segments[1])! - 1, "the events before the gap")

        try FileManager.default.moveItem(atPath: moved, toPath: "\(space.published(a))/\(segments[1])")
        try b.sync()
        #expect(try b.events(of: "\(b.log)/mirrors/\(a.device)") == (try a.events(of: a.log)))
    }

    @Test func anEventOfATypeThisBuildDoesNotKnowStopsIngestionBeforeIt() throws {
        let (space, a, b) = try twoReplicas()
        try a.write("a1")
        try a.append([note("from a newer Stint")])
        try a.write("a2")
        let report = try b.sync()
        let scan = try #require(report.devices.first { $0.device == a.device })
        #expect(scan.waiting?.contains("newer Stint") == true)
        let mirrored = try b.events(of: "\(b.log)/mirrors/\(a.device)").compactMap { $0.data["name"]?.stringValue }
        #expect(mirrored == ["a1"], "the batches before it are ingested, none from it on")
        #expect(FileManager.default.fileExists(atPath: space.published(a)))
    }

    @Test func aShorterCopyIsBehindWithoutAnErrorAndLosesNothing() throws {
        let (space, a, b) = try twoReplicas()
        try a.write("a1")
        let stale = try space.folderBytes().filter { $0.key.hasPrefix("devices/\(a.device)/") }
        try a.write("a2")
        try a.write("a3")
        try b.sync()
        let frontier = try b.frontier()
        // The sync tool re-delivers the old copy.
        let directory = space.published(a)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
        for (name, bytes) in stale { try bytes.write(to: URL(fileURLWithPath: "\(space.folder)/\(name)")) }

        let report = try b.sync()
        let scan = try #require(report.devices.first { $0.device == a.device })
        #expect(scan.behindBy == 2)
        #expect(scan.forkedAt == nil && scan.accepted.isEmpty)
        #expect(try b.frontier() == frontier, "nothing is lost")
        // a publishes again: the copy catches up, and b finds nothing new.
        try a.write("a4")
        #expect(try b.sync().ingested.map(\.acceptedEvents) == [1])
        #expect(try b.events(of: "\(b.log)/mirrors/\(a.device)") == (try a.events(of: a.log)))
    }

    @Test func aRestoredBackupWritingOtherEventsIsAForkThatStopsOnlyItsDevice() throws {
        let (space, a, b) = try twoReplicas()
        let c = space.replica("c")
        try space.join(c)
        try a.write("a1")
        let backup = space.root.appending("a-backup")
        try FileManager.default.copyItem(atPath: a.log, toPath: backup)
        try a.write("a2")
        try b.sync()
        let forkedSeq = try #require(try b.frontier().heads[a.device]).seq

        // The backup comes back on another machine with the same id and writes something else at that seq.
        try FileManager.default.removeItem(atPath: a.log)
        try FileManager.default.copyItem(atPath: backup, toPath: a.log)
        let restored = try a.store()
        _ = try restored.appendExpectingSuccess([remark("a2 on the restored copy", ids: a.ids)], at: a.clock.now)
        #expect(restored.lastPublish == .forked(seq: forkedSeq), "its own publish sees the other bytes")
        #expect(try a.status().publishedForkAt == forkedSeq)
        restored.close()
        // The sync tool delivers the restored installation's log anyway (say, from its own folder view).
        try FileManager.default.removeItem(atPath: space.published(a))
        try SegmentCopier().copy(from: a.log, to: space.published(a))
        try c.write("c1")

        // A writer's commands ingest first, meet the fork, report it and record nothing, one after the other.
        let log = try TimeLog.open(at: b.log, options: b.options)
        let own = try b.events(of: b.log)
        for _ in 0..<2 {
            let refused = try #require(throws: StintError.self) { try log.execute(.addTag(name: "b's tag")) }
            #expect(refused.category == .damaged)
            #expect(refused.message.contains("forked at seq \(forkedSeq)"))
        }
        log.close()
        #expect(
            try b.events(of: b.log).filter { $0.type != "sync.ingested" } == own.filter { $0.type != "sync.ingested" })
        let error = try #require(throws: StintError.self) { try b.sync() }
        #expect(error.category == .damaged)
        #expect(error.message.contains("device \(String(a.device.description.prefix(8))) forked at seq \(forkedSeq)"))
        #expect(try b.frontier().heads[c.device] == (try c.frontier()).heads[c.device], "c's events are ingested first")
        #expect(try b.frontier().heads[a.device]?.seq == forkedSeq, "nothing of a's other branch is")
        #expect(try b.status().devices.first { $0.device == a.device }?.forkedAt == forkedSeq)
    }
}
