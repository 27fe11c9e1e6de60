import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Commands on replicas of a space (docs/decisions/0007 §6.1, §1.3): every command ingests first, a state
/// folded past events that arrive late is folded again, and replicas that have synced hold the same state.
@Suite struct SpaceTimeLogTests {
    @discardableResult
    private func command(
        _ replica: SpaceHarness.Replica, _ command: Command, after milliseconds: Int64 = 60_000
    ) throws -> TimeLog.Result {
        replica.clock.advance(milliseconds: milliseconds)
        let log = try TimeLog.open(at: replica.log, options: replica.options)
        defer { log.close() }
        return try log.execute(command)
    }

    /// The whole state `replica`'s device decides on; the writer's own state is the slice of it a command
    /// reads (``MergedFold/slice(for:matching:including:)``).
    private func state(of replica: SpaceHarness.Replica) throws -> LogState {
        let log = try TimeLog.open(at: replica.log, options: replica.options)
        defer { log.close() }
        let fold = try #require(try MergedHistory(log: replica.log, options: replica.options).fold(upTo: .latest).fold)
        #expect(log.state == Self.asTheModelsHoldIt(fold).slice(for: replica.device))
        return fold.state(for: replica.device)
    }

    /// `fold` with its undo and redo entries thinned to their record edits, as a replica's read models keep
    /// them (and its writer's state shows them, as a single log's shows them without inverses).
    static func asTheModelsHoldIt(_ fold: MergedFold) -> MergedFold {
        var thinned = fold
        _ = thinned.takeInversesOtherThanEdits()
        return thinned
    }

    /// What two replicas must agree on: records, tags, running and deleted records (each device's undo and
    /// redo stacks are its own, rule 11, so those differ by design).
    private func shared(_ state: LogState) -> [String] {
        [
            "\(state.records.sorted { $0.key < $1.key }.map(\.value))",
            "\(state.tags.sorted { $0.key < $1.key }.map(\.value))",
            "\(state.runningRecordIds)", "\(state.deletedRecordIds.sorted())",
        ]
    }

    @Test func twoDevicesRunningCommandsConvergeOnOneState() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 600_000)
        try space.found(a)
        try command(a, .start(tag: .name("writing")))
        _ = try Space.joinSpace(log: b.log, folder: space.folder, name: "b's laptop", options: b.options)
        let joined = try #require(try b.events(of: b.log).first)
        #expect(joined.type == "device.joined")
        // b saw a's timer when it joined: stopping it stops a's record.
        let stopped = try command(b, .stop(all: true))
        #expect(stopped.events.map(\.type).contains("timer.stopped"))
        try command(a, .addTag(name: "reading"))
        let now = b.clock.now
        try command(
            b,
            .track(
                start: ParsedTime(now.adding(milliseconds: -1_800_000)),
                end: ParsedTime(now.adding(milliseconds: -600_000)),
                tag: .name("writing")))
        for replica in [a, b, a] { try replica.sync() }
        #expect(try a.frontier() == (try b.frontier()))
        let state = try state(of: a)
        #expect(try shared(state) == shared(self.state(of: b)))
        #expect(state.runningRecords.isEmpty, "b's stop applies on a too")
        #expect(state.tags.values.map(\.name).sorted() == ["reading", "writing"])
        #expect(state.records.count == 2)
        // Ingestion batches are bookkeeping: each replica recorded what it ingested, and they stopped there.
        let ingested = try a.events(of: a.log).filter { $0.type == "sync.ingested" }
        #expect(!ingested.isEmpty)
        #expect(ingested.allSatisfy { $0.data["from"]?.stringValue == b.device.description })
        let frontier = try a.frontier()
        for replica in [a, b] { try replica.sync() }
        #expect(try a.frontier() == frontier, "syncing again writes nothing: no answer to an answer")
    }

    @Test func aCommandAfterLateEventsFoldsTheMergedHistoryAgain() throws {
        let space = SpaceHarness()
        let a = space.replica("a", skew: 120_000)
        let b = space.replica("b")
        try space.found(a)
        _ = try Space.joinSpace(log: b.log, folder: space.folder, options: b.options)
        try a.sync()
        let log = try TimeLog.open(at: a.log, options: a.options)
        a.clock.advance(milliseconds: 60_000)
        try log.execute(.addTag(name: "writing"))
        // b, whose clock is behind and which has not ingested a's last event, adds a tag: it sorts before it.
        b.clock.set(a.clock.now.adding(milliseconds: -30_000))
        let email = DomainEvent.tagCreated(tagId: b.ids.next(), name: "email", color: "#29BF12")
        try b.append([email.draft])
        a.clock.advance(milliseconds: 60_000)
        try log.execute(.addTag(name: "reading"))
        let folded = log.state
        log.close()
        let fresh = try state(of: a)
        let fold = try #require(try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).fold)
        #expect(
            folded == Self.asTheModelsHoldIt(fold).slice(for: a.device),
            "the state is of the fold of the merged history from its start")
        #expect(fresh.tags.values.map(\.name).sorted() == ["email", "reading", "writing"])
    }
}
