import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's merged checkpoints (`checkpoints/merged/`): commands and reads start from the newest one that
/// holds and fold to exactly what a fold from the start gives; one passed by events that sort before it (a
/// device that was offline), or whose frontier a device's log no longer holds, is not used.
@Suite struct SpaceCheckpointTests {
    /// A command without read models (with them it folds only what is new since their mark, and a read or
    /// a rebuild of the models leaves the checkpoints): it folds from the newest checkpoint.
    private func command(_ replica: SpaceHarness.Replica, _ command: Command) throws {
        replica.clock.advance(milliseconds: 60_000)
        var options = replica.options
        options.usesReadModels = false
        let log = try TimeLog.open(at: replica.log, options: options)
        defer { log.close() }
        _ = try log.execute(command)
    }

    private func checkpointFiles(_ replica: SpaceHarness.Replica) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(replica.log)/checkpoints/merged")) ?? [])
            .filter { $0.hasSuffix(".ckpt") }.sorted()
    }

    /// The fold a command and a read of `replica` start from its checkpoints, and the fold from the start:
    /// the same bytes.
    private func expectSameAsFromTheStart(_ replica: SpaceHarness.Replica, _ note: Comment) throws {
        var options = replica.options
        options.writesCheckpoints = false
        let history = MergedHistory(log: replica.log, options: options)
        let fromStart = try #require(try history.fold(upTo: .latest).fold)
        let read = try #require(try history.fold(upTo: .latest, usingCheckpoints: true).fold)
        let same = read.checkpoint == fromStart.checkpoint
        #expect(same, note)
        // A command decides on a slice of the fold (the running records, the one that ended last, …): folded
        // from the checkpoints without read models, and from the read models with them.
        var plain = options
        plain.usesReadModels = false
        let withoutModels = try TimeLog.open(at: replica.log, options: plain)
        #expect(withoutModels.state == fromStart.slice(for: replica.device), note)
        withoutModels.close()
        let log = try TimeLog.open(at: replica.log, options: options)
        defer { log.close() }
        #expect(log.state == SpaceTimeLogTests.asTheModelsHoldIt(fromStart).slice(for: replica.device), note)
    }

    /// A read of `point` from the checkpoints folds what a fold from the start gives; returns whether it
    /// started from a checkpoint.
    private func foldsAsFromTheStart(_ history: MergedHistory, _ point: ReadPoint, _ note: Comment) throws -> Bool {
        let fromStart = try history.fold(upTo: ResolvedPoint(point))
        let read = try history.fold(upTo: ResolvedPoint(point), usingCheckpoints: true)
        let same = read.fold?.checkpoint == fromStart.fold?.checkpoint && read.count == fromStart.count
        #expect(same, note)
        #expect(read.restored <= read.count, note)
        return read.restored > 0
    }

    private func startAndStop(_ replica: SpaceHarness.Replica, _ tag: String, times: Int) throws {
        for _ in 0..<times {
            try command(replica, .start(tag: .name(tag)))
            try command(replica, .stop(all: true))
        }
    }

    /// A new space that `a` founds, with a merged checkpoint every `interval` batches, and `b` joins; the
    /// harness holds their directory.
    private func twoReplicas(checkpointInterval interval: Int64) throws
        -> (space: SpaceHarness, a: SpaceHarness.Replica, b: SpaceHarness.Replica)
    {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        a.checkpointInterval = interval
        try space.found(a)
        _ = try Space.joinSpace(log: b.log, folder: space.folder, options: b.options)
        return (space, a, b)
    }

    /// `a` and `b` in turn, `a` first, each starting and stopping a timer as many times as its turn says, each
    /// after a sync but `a`'s first turn.
    private func takeTurns(_ a: SpaceHarness.Replica, _ b: SpaceHarness.Replica, _ turns: [Int]) throws {
        for (index, times) in turns.enumerated() {
            let (replica, tag) = index % 2 == 0 ? (a, "writing") : (b, "reading")
            if index > 0 { try replica.sync() }
            try startAndStop(replica, tag, times: times)
        }
    }

    @Test func commandsAndReadsStartFromTheNewestCheckpointThatHolds() throws {
        let (space, a, b) = try twoReplicas(checkpointInterval: 6)
        defer { withExtendedLifetime(space) {} }  // Its directory goes with it.
        b.checkpointInterval = 6
        try startAndStop(a, "writing", times: 6)
        #expect(!checkpointFiles(a).isEmpty, "commands left no merged checkpoint")
        try expectSameAsFromTheStart(a, "a, its own commands")
        try startAndStop(b, "reading", times: 4)
        try command(a, .addTag(name: "mail"))
        try expectSameAsFromTheStart(a, "a, after b's events arrived")
        // A checkpoint at a's latest event is passed by events b wrote before it (b's clock is behind and b
        // has not seen a's latest events): a folds from an older checkpoint or the start, and drops it.
        try startAndStop(a, "writing", times: 4)
        let before = checkpointFiles(a)
        b.clock.advance(milliseconds: -3_600_000)
        try b.append([DomainEvent.tagCreated(tagId: b.ids.generator(), name: "offline", color: "#112233").draft])
        try a.sync()
        try expectSameAsFromTheStart(a, "a, after b's offline event arrived")
        #expect(checkpointFiles(a).last != before.last, "the passed checkpoint was kept")
        try command(a, .start(tag: .name("offline")))
        try expectSameAsFromTheStart(a, "a, a command after b's offline event")
        try b.sync()
        try expectSameAsFromTheStart(b, "b")
    }

    /// A read of an instant (`--at`) or of a device's `seq` starts from the newest checkpoint not past it (the
    /// events up to either are a prefix of the merge order), and folds to what a fold from the start gives, at
    /// every instant of the history and after it, and at every `seq` of both devices.
    @Test func readsOfAPastPointStartFromACheckpointNotPastIt() throws {
        let (space, a, b) = try twoReplicas(checkpointInterval: 5)
        defer { withExtendedLifetime(space) {} }  // Its directory goes with it.
        let first = a.clock.now
        try startAndStop(a, "writing", times: 3)
        try startAndStop(b, "reading", times: 2)
        try a.sync()
        try startAndStop(a, "writing", times: 3)
        let last = a.clock.now
        #expect(checkpointFiles(a).count >= 2, "too few checkpoints to choose among")
        var options = a.options
        options.writesCheckpoints = false
        let history = MergedHistory(log: a.log, options: options)
        var restored = 0
        var instant = first
        while instant <= last.adding(milliseconds: 60_000) {
            if try foldsAsFromTheStart(history, .at(instant), "at \(instant.iso8601)") { restored += 1 }
            instant = instant.adding(milliseconds: 20_000)
        }
        #expect(restored > 0, "no read of an instant started from a checkpoint")
        restored = 0
        for replica in [a, b] {
            let lastSeq = try LogReader(path: replica === a ? a.log : "\(a.log)/mirrors/\(b.device)").lastSeq()
            for seq in 1...lastSeq {
                let point = ReadPoint.deviceSeq(replica.device, seq)
                if try foldsAsFromTheStart(history, point, "at \(replica.device):\(seq)") { restored += 1 }
            }
        }
        #expect(restored > 0, "no read of a seq started from a checkpoint")
    }

    /// A read of what a device knew starts from the newest checkpoint whose every device's `seq` it knew, and
    /// folds to what a fold from the start gives, for both devices at every instant of the history.
    @Test func whatADeviceKnewFoldsFromACheckpointItKnewWhole() throws {
        let (space, a, b) = try twoReplicas(checkpointInterval: 4)
        defer { withExtendedLifetime(space) {} }  // Its directory goes with it.
        let first = a.clock.now
        try takeTurns(a, b, [3, 2, 3, 1, 2])
        let last = max(a.clock.now, b.clock.now)
        #expect(checkpointFiles(a).count >= 2, "too few checkpoints to choose among")
        var options = a.options
        options.writesCheckpoints = false
        let history = MergedHistory(log: a.log, options: options)
        var restored = 0
        for device in [a.device, b.device] {
            var instant = first.adding(milliseconds: 60_000)
            while instant <= last.adding(milliseconds: 60_000) {
                let point = ReadPoint.knownBy(device, instant)
                if try foldsAsFromTheStart(history, point, "\(device) at \(instant.iso8601)") { restored += 1 }
                instant = instant.adding(milliseconds: 30_000)
            }
        }
        #expect(restored > 0, "no read of what a device knew started from a checkpoint")
    }

    /// A read of an earlier point leaves a spaced checkpoint (`checkpoints/merged-spaced/`) past each multiple
    /// of the spacing, so that later reads of points before the newest checkpoints start near one: every
    /// instant and every `seq` of both devices folds as from the start, and most start from a spaced one (no
    /// other is left). A read of what a device knew, which leaves events out, leaves none; nor do a read of
    /// the latest state and a command (a cold fold of the latest state would write ten at a million events),
    /// which start from the spaced ones all the same.
    @Test func readsOfEarlierPointsLeaveSpacedCheckpointsThatLaterReadsStartFrom() throws {
        let (space, a, b) = try twoReplicas(checkpointInterval: 1_000_000)
        defer { withExtendedLifetime(space) {} }  // Its directory goes with it.
        a.checkpointSpacing = 7
        let first = a.clock.now
        try takeTurns(a, b, [3, 2, 3, 1, 2])
        try a.sync()
        let last = max(a.clock.now, b.clock.now)
        for file in checkpointFiles(a) {
            try FileManager.default.removeItem(atPath: "\(a.log)/checkpoints/merged/\(file)")
        }
        let spaced = CheckpointStore(logDirectory: a.log, subdirectory: "merged-spaced")
        let reading = MergedHistory(log: a.log, options: a.options)
        _ = try reading.fold(upTo: ResolvedPoint(.knownBy(b.device, nil)), usingCheckpoints: true)
        #expect(checkpointFiles(a).isEmpty && spaced.seqs().isEmpty, "a read of what a device knew left one")
        let latest = try reading.fold(upTo: .latest, usingCheckpoints: true)
        #expect(checkpointFiles(a).isEmpty && spaced.seqs().isEmpty, "a read of the latest state left one")
        _ = try reading.fold(upTo: ResolvedPoint(.at(last.adding(milliseconds: 60_000))), usingCheckpoints: true)
        let seqs = spaced.seqs()
        #expect(seqs.count >= 3, "too few spaced checkpoints: \(seqs)")
        #expect(Set(seqs.map { $0 / 7 }).count == seqs.count, "two checkpoints past one multiple: \(seqs)")
        #expect(seqs.allSatisfy { $0 < latest.count }, "a checkpoint at the frontier: \(seqs), \(latest.count)")
        var options = a.options
        options.writesCheckpoints = false
        let history = MergedHistory(log: a.log, options: options)
        var restored = 0
        var reads = 0
        var instant = first
        while instant <= last.adding(milliseconds: 60_000) {
            if try foldsAsFromTheStart(history, .at(instant), "at \(instant.iso8601)") { restored += 1 }
            reads += 1
            instant = instant.adding(milliseconds: 20_000)
        }
        for replica in [a, b] {
            let lastSeq = try LogReader(path: replica === a ? a.log : "\(a.log)/mirrors/\(b.device)").lastSeq()
            for seq in 1...lastSeq {
                let point = ReadPoint.deviceSeq(replica.device, seq)
                if try foldsAsFromTheStart(history, point, "at \(replica.device):\(seq)") { restored += 1 }
                reads += 1
            }
        }
        // The reads before the first spaced checkpoint fold from the start; about a third of them.
        #expect(restored * 2 > reads, "\(restored) of \(reads) reads started from a spaced checkpoint")
        #expect(try history.fold(upTo: .latest, usingCheckpoints: true).restored > 0, "the latest from the start")
        try command(a, .addTag(name: "mail"))
        #expect(checkpointFiles(a).isEmpty && spaced.seqs() == seqs, "a command left one")
        try expectSameAsFromTheStart(a, "a, from the spaced checkpoints")
    }

    /// A read that folds less than the replica holds — what a device knew, or an instant before its last
    /// batch — leaves no checkpoint at the frontier: it would stand for the frontier, and a read of the latest
    /// state would restore it without the events the read left out.
    @Test func aReadOfLessThanTheReplicaHoldsLeavesNoCheckpoint() throws {
        let (space, a, b) = try twoReplicas(checkpointInterval: 3)
        defer { withExtendedLifetime(space) {} }  // Its directory goes with it.
        try takeTurns(a, b, [3, 2, 2])
        let beforeLast = a.clock.now
        try command(a, .addTag(name: "mail"))
        for point in [ResolvedPoint(.knownBy(b.device, nil)), ResolvedPoint(.at(beforeLast))] {
            for file in checkpointFiles(a) {
                try FileManager.default.removeItem(atPath: "\(a.log)/checkpoints/merged/\(file)")
            }
            _ = try MergedHistory(log: a.log, options: a.options).fold(upTo: point, usingCheckpoints: true)
            try expectSameAsFromTheStart(a, "after a read of \(point)")
        }
    }

    @Test func aCheckpointWhoseFrontierALogNoLongerHoldsIsNotUsed() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        a.checkpointInterval = 4
        try space.found(a)
        try startAndStop(a, "writing", times: 4)
        let files = checkpointFiles(a)
        let newest = try #require(files.last)
        // The same checkpoint, its frontier naming another line at the same seq of a's log.
        let store = CheckpointStore(logDirectory: a.log, subdirectory: "merged")
        let seq = try #require(store.seqs().last)
        let found = try #require(
            store.newestUnverified(atOrBefore: seq, recordedAtOrBefore: nil, version: MergedFold.checkpointVersion))
        let text = String(decoding: found.payload, as: UTF8.self)
        let hash = try #require(text.firstRange(of: #/"[0-9a-f]{64}"/#)).lowerBound
        var payload = found.payload
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: hash) + 1
        payload[offset] = payload[offset] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let tampered = seq + 1
        store.save(
            payload, head: LogHead(seq: tampered, hash: found.header.head.hash), at: found.header.at,
            version: MergedFold.checkpointVersion)
        #expect(checkpointFiles(a).contains { $0 != newest && !files.contains($0) })
        try expectSameAsFromTheStart(a, "a, with a checkpoint naming another line")
        #expect(!store.seqs().contains(tampered), "the checkpoint naming another line was kept")
    }
}
