import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Fork-off (docs/decisions/0007 §6.3, rule 10): the branch that is not the sync folder's becomes a new device
/// whose id and log every replica derives alike, so both branches fold and nothing is lost.
@Suite struct SpaceForkOffTests {
    private func forkOff(_ replica: SpaceHarness.Replica, _ device: DeviceID, at seq: Int64) throws -> DeviceID {
        try Space.open(log: replica.log, options: replica.options).forkOff(device: device, at: seq)
    }

    @Test func bothBranchesBecomeDevicesAndEveryReplicaConverges() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        try a.write("a1")
        // A clone of a's disk: the same id, the log as it was.
        let clone = SpaceHarness.Replica(
            name: "clone", device: a.device, clock: FixedClock(a.clock.now),
            ids: IncrementingIDs(startingAfter: 1 << 40),
            root: space.root)
        try FileManager.default.copyItem(atPath: a.log, toPath: clone.log)
        try FileManager.default.createDirectory(
            atPath: "\(clone.stateDirectory)/stint", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "\(a.stateDirectory)/stint/device", toPath: "\(clone.stateDirectory)/stint/device")
        try a.write("a2 on the original")
        try b.sync()
        let seq = try #require(try b.frontier().heads[a.device]).seq
        // The clone writes too; the sync tool keeps the clone's copy of the device's directory.
        clone.clock.advance(milliseconds: 5000)
        let store = try clone.store()
        _ = try store.appendExpectingSuccess([remark("a2 on the clone", ids: clone.ids)], at: clone.clock.now)
        store.close()
        try FileManager.default.removeItem(atPath: space.published(a))
        try SegmentCopier().copy(from: clone.log, to: space.published(a))

        #expect(throws: StintError.self, "b sees the fork") { try b.sync() }
        #expect(throws: StintError.self, "not at another seq") { try forkOff(b, a.device, at: seq - 1) }
        let onB = try forkOff(b, a.device, at: seq)
        #expect(try a.status().publishedForkAt == seq, "the original sees its log differ from the folder's")
        let onA = try forkOff(a, a.device, at: seq)
        #expect(onA == onB, "both derive the same id for the same branch")
        #expect(onA != a.device)
        #expect(
            try a.options.deviceIdentity?.stored(options: a.options) == onA, "the original writes as the new device")
        #expect(FileManager.default.fileExists(atPath: "\(space.folder)/devices/\(onA)/format"), "and publishes it")

        for _ in 0..<2 {
            for replica in [a, b, clone] { try replica.sync() }
        }
        let frontier = try b.frontier()
        #expect(Set(frontier.heads.keys) == [a.device, b.device, onA])
        #expect(try a.frontier() == frontier)
        #expect(try clone.frontier() == frontier)
        let history = try b.mergedEvents()
        #expect(try a.mergedEvents() == history)
        #expect(try clone.mergedEvents() == history)
        let texts = history.compactMap { $0.data["name"]?.stringValue }
        #expect(texts.contains("a2 on the original") && texts.contains("a2 on the clone"), "nothing is dropped")
    }
}
