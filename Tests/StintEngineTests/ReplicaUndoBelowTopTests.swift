import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's commands hold the records their device's top undo and redo entries edit, not those of every
/// entry (``MergedFold/recordsEditedByTopEntries(of:)``, docs/read-models.md): a decision reads only the top.
/// An entry below the top is filtered by rule 11 once it is the top, so undoing down to it still leaves alone
/// what another device set after it (docs/decisions/0007), on read models as on a fold from the start.
@Suite struct ReplicaUndoBelowTopTests {
    @discardableResult
    private func command(_ replica: SpaceHarness.Replica, _ command: Command, models: Bool = true) throws
        -> TimeLog.Result
    {
        replica.clock.advance(milliseconds: 60_000)
        var options = replica.options
        options.usesReadModels = models
        let log = try TimeLog.open(at: replica.log, options: options)
        defer { log.close() }
        return try log.execute(command)
    }

    private func comment(of id: EntityID, on replica: SpaceHarness.Replica) throws -> String? {
        let fold = try #require(try MergedHistory(log: replica.log, options: replica.options).fold(upTo: .latest).fold)
        return fold.state(for: replica.device).records[id]?.comment
    }

    /// Replicas `a` and `b` of a space, and the id of a record `a` tracked, then commented after tracking one
    /// that ended later (so that the commented one is not the last ended, which every command holds).
    private func twoReplicasWithACommentedRecord(models: Bool) throws
        -> (space: SpaceHarness, a: SpaceHarness.Replica, b: SpaceHarness.Replica, id: EntityID)
    {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        try space.found(a)
        try space.join(b)
        let now = a.clock.now
        var id: EntityID?
        for (start, end) in [(-7_200_000, -3_600_000), (-1_800_000, -900_000)] as [(Int64, Int64)] {
            let tracked = try command(
                a,
                .track(
                    start: ParsedTime(now.adding(milliseconds: start)), end: ParsedTime(now.adding(milliseconds: end))),
                models: models)
            id = id ?? tracked.events.first?.data["recordId"]?.stringValue.flatMap(EntityID.init)
        }
        let commented = try #require(id)
        try command(a, .edit(record: RecordRef(commented), comment: "a's"), models: models)
        return (space, a, b, commented)
    }

    @Test(arguments: [true, false])
    func undoingDownToAnEntryBelowTheTopKeepsAnotherDevicesLaterEdit(models: Bool) throws {
        let (space, a, b, id) = try twoReplicasWithACommentedRecord(models: models)
        defer { withExtendedLifetime(space) {} }
        // The comment goes below the top: a adds a tag.
        try command(a, .addTag(name: "later"), models: models)
        // b takes that in and comments the record after a did.
        _ = try b.sync()
        try command(b, .edit(record: RecordRef(id), comment: "b's"), models: models)
        try command(a, .undo, models: models)
        #expect(try comment(of: id, on: a) == "b's", "the first undo takes back the tag only")
        let second = try command(a, .undo, models: models)
        #expect(try comment(of: id, on: a) == "b's", "rule 11: b's later comment stays")
        #expect(
            !second.events.contains { $0.type == "record.edited" && $0.data["recordId"]?.stringValue == id.uuidString },
            "the comment a set was taken over by b's: nothing of it is undone")
    }

    /// The top entry a replica's writer shows is filtered by rule 11 as the whole fold's is: its fold in parts
    /// holds the records the top entries edit, though no batch it folds names them.
    @Test func theTopEntryAWriterShowsIsTheWholeFolds() throws {
        let (space, a, b, id) = try twoReplicasWithACommentedRecord(models: true)
        defer { withExtendedLifetime(space) {} }
        _ = try b.sync()
        try command(b, .edit(record: RecordRef(id), comment: "b's"))
        _ = try a.sync()
        // The first writer folds b's edit onto the models (holding the record it names); the second starts from
        // the models, where no batch names the record.
        for _ in 0..<2 {
            let log = try TimeLog.open(at: a.log, options: a.options)
            defer { log.close() }
            let fold = try #require(try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).fold)
            let expected = fold.state(for: a.device).undoStack.last
            #expect(expected?.inverses.isEmpty == true, "rule 11 leaves nothing of a's comment to undo")
            #expect(log.state.undoStack.last?.onlyEdits == expected?.onlyEdits)
        }
    }
}
