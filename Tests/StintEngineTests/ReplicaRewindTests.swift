import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's read models roll back through their journal (decision 0010 step 4): on the merged history of
/// three replicas that ran random commands, models saved batch by batch and rewound at random to before an
/// earlier batch hold, table for table, what a rebuild at the mark before that batch writes; caught up again
/// from there, they end as the whole fold. A rewind the journal does not reach changes nothing.
@Suite struct ReplicaRewindTests {
    @Test(arguments: [(UInt64(0x6E_0011), Int64(1)), (0x6E_0012, 4)])
    func aRewindPutsBackTheModelsOfTheMarkBeforeTheKey(seed: UInt64, savesPerStep: Int64) throws {
        let (space, replicas) = try ReplicaReadModelTests.randomSpace(seed: seed)
        let batches = try ReplicaReadModelTests.storedBatches(of: replicas[0])
        var wholes: [MergedFold] = []
        var marks: [ReadModel.MergedMark] = []
        var builder = ReplicaReadModelTests.MarkBuilder()
        var whole = try MergedFold.fold(batches[0].events)
        for (index, batch) in batches.enumerated() {
            if index > 0 { for event in batch.events { try whole.apply(event) } }
            wholes.append(whole)
            marks.append(builder.after(batch))
        }
        let directory = try Self.directory("models", in: space)
        let model = try ReadModel.open(inLogDirectory: directory)
        defer { model.close() }
        model.savesPerJournalStep = savesPerStep
        try model.rebuild(from: wholes[0], at: marks[0])

        var random = SplitMix64(seed: seed)
        var index = 1
        var rewinds = 0
        var furthest = 0
        // Rewinds that went back further than the batch, to the start of its journal step.
        var further = 0
        while index < batches.count {
            let batch = batches[index]
            let named = batch.events.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
            var fold = try MergedFold(parts: model.mergedParts(for: batch.device, including: named))
            for event in batch.events { try fold.apply(event) }
            try model.save(fold.takeChangedRows(), of: &fold, at: marks[index])
            // At most one rewind from each batch, so that the catch-up ends.
            guard index > furthest, index >= 3, random.next() % 6 == 0 else {
                furthest = max(furthest, index)
                index += 1
                continue
            }
            // Back to before a batch up to 20 saves ago: the start of the journal step that saved it (the mark
            // before it, with a save per step), as a rebuild there writes it.
            let first = index - Int(random.next() % UInt64(min(index, 20)))
            let key = MergedBatchCursor.key(of: batches[first].events[0], device: batches[first].device!)
            let rewound = try #require(try model.rewind(toBefore: key))
            let reached = try #require(marks.firstIndex(of: rewound))
            #expect(
                (first - Int(savesPerStep))...(first - 1) ~= reached,
                "seed \(seed): rewound from batch \(index) to after \(reached), not to before \(first)")
            #expect(savesPerStep > 1 || reached == first - 1)
            if reached < first - 1 { further += 1 }
            #expect(model.head == rewound.head)
            try Self.expectTables(of: directory, equalTo: wholes[reached], at: rewound, in: space, seed: seed)
            rewinds += 1
            furthest = index
            index = reached + 1
        }
        #expect(rewinds >= 5, "seed \(seed): \(rewinds) rewinds")
        #expect((further > 0) == (savesPerStep > 1), "seed \(seed): \(further) rewinds to a step's start")
        try ReplicaReadModelTests.expectModel(model, holds: whole, seed: seed)

        // A rebuild empties the journal: a rewind to before its mark finds nothing to undo, and changes nothing.
        try model.rebuild(from: whole, at: marks[marks.count - 1])
        let before = try ReadModel.dump(inLogDirectory: directory)
        let key = MergedBatchCursor.key(of: batches[1].events[0], device: batches[1].device!)
        #expect(try model.rewind(toBefore: key) == nil)
        #expect(try ReadModel.dump(inLogDirectory: directory) == before)
    }

    /// A command on a replica whose models' mark events of a device that was offline sort before rolls back
    /// only the saves since those events and folds on from there: the journal keeps the saves before them
    /// (a rebuild empties it), and the models hold what a fold from the start holds. Another device's events
    /// that sort after the mark arrive with them: the rewind goes to before the earliest of either.
    @Test func aLateArrivalRewindsTheModelsInsteadOfRebuildingThem() throws {
        let late = try LateArrival()
        let a = late.a
        a.clock.advance(milliseconds: 600_000)
        try Self.command(a, .start(comment: "after"))
        // The journal's steps back to the one holding a's twenty-first command undone, those before kept (a rebuild
        // would have emptied it); then the fold on from there, and the command, saved.
        let kept = try Self.journalSaves(of: a) - 2
        #expect(
            kept > 0 && kept <= late.savedAtSync && kept % Int(ReadModel.savesPerStep) == 0,
            "the saves before the late events were kept, not rebuilt: \(kept) of \(late.saved)")
        try late.expectModelsHoldTheFoldFromTheStart()
    }

    /// A command that stops between the rewind and the fold on (each its own transaction) leaves the models
    /// at the earlier mark, a point of the merged history they held: the next command folds on from there.
    @Test func theNextCommandFoldsOnFromARewindThatWasNotFoldedOn() throws {
        let late = try LateArrival()
        let a = late.a
        let model = try ReadModel.open(inLogDirectory: a.log)
        let mark = try #require(try model.mergedMark())
        let rewound = try #require(try model.rewind(toBefore: late.key))
        model.close()
        #expect(rewound.lastKey! < late.key && rewound != mark)
        let kept = try Self.journalSaves(of: a)
        a.clock.advance(milliseconds: 600_000)
        try Self.command(a, .start(comment: "after"))
        #expect(try Self.journalSaves(of: a) == kept + 2, "folded on from the rewound mark, not rebuilt")
        try late.expectModelsHoldTheFoldFromTheStart()
    }

    /// Replica `a` of a space after forty commands whose models' journal holds them, and device `c`, an hour
    /// behind, that took in the first twenty and then appended unseen: its events (`key` the first's) sort
    /// among `a`'s last twenty. Device `b` took in everything and added a tag after it all.
    private struct LateArrival {
        let space = SpaceHarness()
        let a: SpaceHarness.Replica
        let key: MergeKey
        /// The saves in `a`'s journal when `c` took in its commands, and at the end.
        var savedAtSync = 0
        var saved = 0

        init() throws {
            a = space.replica("a")
            let b = space.replica("b")
            let c = space.replica("c", skew: -3_600_000)
            try space.found(a)
            try space.join(b)
            try space.join(c)
            let now = a.clock.now
            for hour in 1...40 {
                a.clock.advance(milliseconds: 60_000)
                let start = ParsedTime(now.adding(milliseconds: Int64(-hour) * 7_200_000))
                let end = ParsedTime(now.adding(milliseconds: Int64(-hour) * 7_200_000 + 3_600_000))
                try ReplicaRewindTests.command(a, .track(start: start, end: end, comment: "a \(hour)"))
                if hour == 20 {
                    try c.sync()
                    savedAtSync = try ReplicaRewindTests.journalSaves(of: a)
                }
            }
            saved = try ReplicaRewindTests.journalSaves(of: a)
            #expect(saved >= 40)
            c.clock.advance(milliseconds: 1_800_000)
            let tag = EntityID(high: 0x1A7E, low: 1)
            let batch = try c.append([
                DomainEvent.tagCreated(tagId: tag, name: "late", color: "#123456").draft,
                DomainEvent.recordTracked(
                    recordId: EntityID(high: 0x1A7E, low: 2), start: now.adding(milliseconds: -5_000_000),
                    end: now.adding(milliseconds: -4_000_000), tagId: tag, comment: "c's"
                ).draft,
            ])
            key = MergedBatchCursor.key(of: batch.events[0], device: c.device)
            b.clock.advance(milliseconds: 3_600_000)
            try ReplicaRewindTests.command(b, .addTag(name: "after"))
        }

        /// `a`'s models hold the fold from the start, the late events in it.
        func expectModelsHoldTheFoldFromTheStart() throws {
            let whole = try #require(try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).fold)
            #expect(whole.state(for: a.device).tags.values.contains { $0.name == "late" })
            let model = try ReadModel.open(inLogDirectory: a.log)
            defer { model.close() }
            try ReplicaReadModelTests.expectModel(model, holds: whole, seed: 0)
        }
    }

    static func command(_ replica: SpaceHarness.Replica, _ command: Command) throws {
        let log = try TimeLog.open(at: replica.log, options: replica.options)
        defer { log.close() }
        _ = try log.execute(command)
    }

    /// How many saves the journal of `replica`'s models holds.
    static func journalSaves(of replica: SpaceHarness.Replica) throws -> Int {
        let model = try ReadModel.open(inLogDirectory: replica.log)
        defer { model.close() }
        let count = try model.database.statement("SELECT coalesce(sum(saves), 0) FROM merged_journal")
        _ = try count.step()
        return Int(count.integer(0))
    }

    /// The tables of the models in `directory` are those a rebuild from `fold` at `mark` writes, but the bound
    /// on records' lengths (which only widens) and the journal (which a rebuild starts empty).
    static func expectTables(
        of directory: String, equalTo fold: MergedFold, at mark: ReadModel.MergedMark, in space: SpaceHarness,
        seed: UInt64
    ) throws {
        let fresh = try Self.directory("rebuilt-\(UUID().uuidString)", in: space)
        let rebuilt = try ReadModel.open(inLogDirectory: fresh)
        try rebuilt.rebuild(from: fold, at: mark)
        let longest = try rebuilt.longestRecord()
        rebuilt.close()
        let model = try ReadModel.open(inLogDirectory: directory)
        #expect(try longest <= model.longestRecord(), "seed \(seed): the bound only widens")
        model.close()
        var expected = try ReadModel.dump(inLogDirectory: fresh)
        var found = try ReadModel.dump(inLogDirectory: directory)
        for table in ["record_bounds"] + ReadModel.journalTables {
            expected[table] = nil
            found[table] = nil
        }
        for table in Set(expected.keys).union(found.keys) where expected[table] != found[table] {
            Issue.record("seed \(seed): table \(table) differs from a rebuild's at the mark")
        }
    }

    private static func directory(_ name: String, in space: SpaceHarness) throws -> String {
        let path = space.root.appending(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
}
