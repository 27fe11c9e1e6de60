import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's read models hold the merged fold in parts (decision 0010 step 2): on the merged history of
/// three replicas that ran random commands (with a device that appends unseen, imports, re-imports and an
/// import withdrawn), the models built at the founding and caught up one batch at a time — the rows a
/// batch needs loaded from SQLite, folded, the changed ones written back — hold at every batch the rows
/// the whole fold would choose, and at the end the whole fold row for row, its frame byte for byte, and
/// in the single log's tables the records, deleted ids, provenance and tags people's reports read.
@Suite struct ReplicaReadModelTests {
    @Test(arguments: [UInt64(0x6E_0001), 0x6E_0002])
    func modelsCaughtUpBatchByBatchHoldTheWholeFold(seed: UInt64) throws {
        let (space, replicas) = try Self.randomSpace(seed: seed)
        let replica = replicas[0]
        let batches = try Self.storedBatches(of: replica)
        #expect(batches.count > 60, "seed \(seed): \(batches.count) batches")
        let directory = space.root.appending("models")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let model = try ReadModel.open(inLogDirectory: directory)
        defer { model.close() }
        #expect(try model.mergedMark() == nil, "a new database holds no merged fold")

        var whole = try MergedFold.fold(batches[0].events)
        var marks = MarkBuilder()
        try model.rebuild(from: whole, at: marks.after(batches[0]))
        for (index, batch) in batches.enumerated().dropFirst() {
            let device = batch.device
            let named = batch.events.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
            let parts = try model.mergedParts(for: device, including: named)
            #expect(
                parts.rows == whole.parts(for: device, including: named).rows.sorted { $0.id < $1.id },
                "seed \(seed), batch \(index): the rows the whole fold would choose")
            var fold = try MergedFold(parts: parts)
            for event in batch.events {
                try whole.apply(event)
                try fold.apply(event)
            }
            let mark = marks.after(batch)
            let changed = fold.takeChangedRows()
            try model.save(changed, of: &fold, at: mark)
            #expect(try model.mergedMark() == mark)
            #expect(model.head == mark.head)
        }
        try Self.expectModel(model, holds: whole, seed: seed)
        #expect(whole.rows.contains { $0.status == .absent }, "seed \(seed): an import was withdrawn")
        #expect(whole.rows.contains { $0.provenance != nil }, "seed \(seed): records were imported")

        // A rebuild from the whole fold writes the same tables.
        try ReplicaRewindTests.expectTables(
            of: directory, equalTo: whole, at: try #require(try model.mergedMark()), in: space, seed: seed)
    }

    /// A fold kept across saves (a writer kept open between commands, a catch-up's runs) takes in only the
    /// rows it lacks, so each save clears what the tables held for a row as this connection last wrote it
    /// (``ReadModel/heldRows``): the tables end as a rebuild writes them. A save that left what it wrote
    /// unnoted would clear by what the tables held before it (a record deleted after it was created
    /// batches earlier stays in `records`). Every row a save writes was read or written before, so no save looks
    /// up the span a row had, but one made to forget what it knew. With a limit of a few rows, what is let go
    /// of is looked up again, and the tables are the same.
    @Test(arguments: [10_000, 4])
    func aFoldKeptAcrossSavesWritesWhatARebuildWrites(heldRowsLimit: Int) throws {
        let seed: UInt64 = 0x6E_0004
        let (space, replicas) = try Self.randomSpace(seed: seed)
        let batches = try Self.storedBatches(of: replicas[0])
        let directory = space.root.appending("models")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let model = try ReadModel.open(inLogDirectory: directory)
        defer { model.close() }
        model.heldRowsLimit = heldRowsLimit
        let bounded = heldRowsLimit < 10_000
        var lookedUpAgain = 0
        var whole = try MergedFold.fold(batches[0].events)
        var marks = MarkBuilder()
        var mark = marks.after(batches[0])
        try model.rebuild(from: whole, at: mark)
        var fold = try model.mergedFold(for: batches[1].device)
        var devices: Set<DeviceID?> = [batches[1].device]
        var forgotten = false
        _ = model.database.takeRuns(of: [ReadModel.storedSpan])
        for (index, batch) in batches.enumerated().dropFirst() {
            var named = batch.events.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
            if devices.insert(batch.device).inserted {
                try model.includeStacks(of: batch.device, in: &fold)
                named += fold.recordsEditedByTopEntries(of: batch.device)
            }
            try model.include(named, in: &fold)
            for event in batch.events {
                try whole.apply(event)
                try fold.apply(event)
            }
            mark = marks.after(batch)
            let changed = fold.takeChangedRows()
            let forgets = !forgotten && index > batches.count * 3 / 4 && !changed.isEmpty
            if forgets { model.heldRows = [:] }
            try model.save(changed, of: &fold, at: mark)
            let runs = model.database.takeRuns(of: [ReadModel.storedSpan])
            if forgets {
                #expect(runs == changed.count, "seed \(seed): a save that knew nothing looked up each row")
                forgotten = true
            } else if !forgotten && !bounded {
                #expect(runs == 0, "seed \(seed), batch \(index): a save of rows it knew looked them up")
            } else if !forgotten {
                lookedUpAgain += runs
            }
            #expect(model.heldRows.count <= max(heldRowsLimit, changed.count))
        }
        #expect(!bounded || lookedUpAgain > 0, "seed \(seed): the limit let go of rows")
        #expect(forgotten)
        #expect(whole.rows.contains { $0.status == .deleted }, "seed \(seed): records were deleted")
        try Self.expectModel(model, holds: whole, seed: seed)
        try ReplicaRewindTests.expectTables(of: directory, equalTo: whole, at: mark, in: space, seed: seed)
    }

    /// What a command reads of the models is found by key: no statement scans a table (a union of the two
    /// tables of rows in `FROM` made SQLite read every record for an `IN` or a subquery, and no other test saw
    /// it). A save is not held to it: it lists the few whole undo entries the models keep.
    @Test func theRowsACommandReadsAreLookedUpNotScanned() throws {
        let (space, replicas, whole, model, _) = try Self.rebuiltModels()
        defer { withExtendedLifetime(space) { model.close() } }
        let ids = whole.rows.map(\.id)
        #expect(ids.count > 20 && whole.rows.contains { $0.status != .live }, "rows of both tables")
        _ = model.database.takeFullScanSteps()
        for device in [replicas[0].device, replicas[1].device] {
            let references = [try RecordRef(String(ids[3].uuidString.prefix(6))), RecordRef(ids[5])]
            let parts = try model.mergedParts(for: device, matching: references, including: Array(ids.prefix(9)))
            #expect(parts.rows.count < ids.count)
            var fold = try model.mergedFold(for: device)
            try model.include(Array(ids.suffix(9)), in: &fold)
        }
        #expect(try model.mergedRows(of: ids).count == ids.count)
        #expect(model.database.takeFullScanSteps() == 0, "a read of rows scanned a table")
        #expect(try model.everyMergedRow().count == ids.count)
        #expect(model.database.takeFullScanSteps() > 0, "the counter counts the scan of every row")
    }

    @Test func partsMatchingReferencesAreTheWholeFoldsAndDamageIsAnError() throws {
        let (space, replicas, whole, model, mark) = try Self.rebuiltModels()
        defer { withExtendedLifetime(space) { model.close() } }
        let ids = whole.rows.map(\.id)
        for (index, id) in ids.enumerated() where index % 3 == 0 {
            // A prefix short enough to match several ids of a space's history, and a whole id.
            let references = [try RecordRef(String(id.uuidString.prefix(6 + index % 20))), RecordRef(id)]
            for device in [replicas[0].device, replicas[1].device] {
                #expect(
                    try model.mergedParts(for: device, matching: references).rows
                        == whole.parts(for: device, matching: references).rows.sorted { $0.id < $1.id })
            }
        }

        // Each damage alone (the models rebuilt between): an error, never a crash.
        try model.database.execute("UPDATE merged_position SET frame = x'00'")
        #expect(throws: ReadModelError.self) { try model.mergedParts(for: nil) }
        try model.rebuild(from: whole, at: mark)
        // A live record keeps its stamps in its `records` row, one that is not live in `record_stamps`.
        for damage in [
            "UPDATE records SET stamps = x'09' WHERE id = (SELECT max(id) FROM records)",
            "UPDATE records SET stamps = NULL WHERE id = (SELECT min(id) FROM records)",
            "UPDATE record_stamps SET stamps = x'09' WHERE id = (SELECT max(id) FROM record_stamps)",
        ] {
            try model.database.execute(damage)
            #expect(model.database.changes == 1, "\(damage) damaged no row")
            #expect(throws: ReadModelError.self, "\(damage)") { try model.mergedWhole() }
            try model.rebuild(from: whole, at: mark)
        }
        #expect(try model.mergedWhole().rows == whole.rows.sorted { $0.id < $1.id })
        try model.database.execute("UPDATE merged_position SET hash = 'beef'")
        #expect(throws: ReadModelError.self) { try model.mergedMark() }
    }

    /// The model holds `whole`: every row, the frame's bytes, and the single log's tables.
    static func expectModel(_ model: ReadModel, holds whole: MergedFold, seed: UInt64) throws {
        let stored = try model.mergedWhole()
        #expect(stored.rows == whole.rows.sorted { $0.id < $1.id }, "seed \(seed)")
        // The frame holds the undo and redo entries with their record edits only; the table, the others whole.
        var thinned = whole
        let taken = thinned.takeInversesOtherThanEdits()
        #expect(!taken.isEmpty, "seed \(seed): no entry held more than record edits")
        #expect(stored.frame.checkpoint == thinned.frame.checkpoint, "seed \(seed)")
        #expect(
            try model.wholeEntries() == Dictionary(uniqueKeysWithValues: taken.map { ($0.key, $0.entry) }),
            "seed \(seed): the whole entries, and no others")
        let state = whole.state
        #expect(try model.records(where: "1 ORDER BY id") == state.records.values.sorted { $0.id < $1.id })
        let deleted = try model.database.statement("SELECT id FROM deleted_records ORDER BY id")
        var deletedIDs: [EntityID] = []
        while try deleted.step() { deletedIDs.append(try #require(deleted.entityID(0))) }
        #expect(deletedIDs == state.deletedRecordIds.sorted())
        let tags = try model.database.statement("SELECT id, name, color, archived, deleted FROM tags ORDER BY id")
        var tagRows: [StintCore.Tag] = []
        while try tags.step() {
            tagRows.append(
                StintCore.Tag(
                    id: try #require(tags.entityID(0)), name: tags.text(1) ?? "", color: tags.text(2) ?? "",
                    isArchived: tags.integer(3) != 0, isDeleted: tags.integer(4) != 0))
        }
        #expect(tagRows == state.tags.values.sorted { $0.id < $1.id })
        let imports = try model.database.statement("SELECT count(*) FROM imports")
        #expect(try imports.step() && imports.integer(0) == Int64(state.importProvenance.count))
    }

    /// Models rebuilt from the whole merged fold of the first replica of a random space, in a directory of that
    /// space (which the caller keeps alive), at the mark of its last batch; the caller closes them.
    static func rebuiltModels() throws -> (
        space: SpaceHarness, replicas: [SpaceHarness.Replica], whole: MergedFold, model: ReadModel,
        mark: ReadModel.MergedMark
    ) {
        let (space, replicas) = try randomSpace(seed: 0x6E_0003)
        let batches = try storedBatches(of: replicas[0])
        let whole = try MergedFold.fold(batches.flatMap(\.events))
        let directory = space.root.appending("models")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let model = try ReadModel.open(inLogDirectory: directory)
        var marks = MarkBuilder()
        var mark = marks.after(batches[0])
        for batch in batches.dropFirst() { mark = marks.after(batch) }
        do {
            try model.rebuild(from: whole, at: mark)
        } catch {
            model.close()
            throw error
        }
        return (space, replicas, whole, model, mark)
    }

    /// The marks of a walk of the merged history: each device's last `seq` and line hash, and the key of
    /// the last event.
    struct MarkBuilder {
        var heads: [DeviceID: Frontier.Head] = [:]

        mutating func after(_ batch: StoredBatch) -> ReadModel.MergedMark {
            let last = batch.events.last!
            let device = batch.device!
            heads[device] = Frontier.Head(seq: last.seq, hash: LogHead(of: last).hash)
            return ReadModel.MergedMark(
                frontier: Frontier(heads: heads), lastKey: MergedBatchCursor.key(of: last, device: device))
        }
    }

    /// The merged history of `replica`, batch by batch, as its store hands it out.
    static func storedBatches(of replica: SpaceHarness.Replica) throws -> [StoredBatch] {
        let store = try replica.store()
        defer { store.close() }
        return try store.allBatches()
    }

    /// Three replicas after random commands, syncs, unseen appends and imports, every one synced at the end;
    /// the replicas, the founder's first.
    static func randomSpace(seed: UInt64) throws -> (SpaceHarness, [SpaceHarness.Replica]) {
        var random = SplitMix64(seed: seed)
        let space = SpaceHarness()
        let replicas = [space.replica("a"), space.replica("b", skew: -240_000), space.replica("c")]
        try space.found(replicas[0])
        for replica in replicas.dropFirst() { try space.join(replica) }
        var imported: [Record] = []
        for step in 0..<150 {
            let replica = replicas[Int(random.next() % 3)]
            replica.clock.advance(milliseconds: Int64(random.next() % 1_800_000) + 1000)
            switch random.next() % 12 {
            case 0:
                try replica.sync()
            case 1:
                // Imports, re-imports and a withdrawal, appended without ingesting first.
                let now = replica.clock.now
                if imported.count > 1, random.next() % 2 == 0 {
                    let record = imported.removeFirst()
                    try replica.append([DomainEvent.recordUnimported(recordId: record.id).draft])
                } else if let record = imported.last, random.next() % 2 == 0 {
                    var values = record
                    values.comment = "re-imported \(step)"
                    let source = ImportSource(system: .timewarrior, identity: "interval-\(record.start.milliseconds)")
                    try replica.append([DomainEvent.recordReimported(values, source: source).draft])
                } else {
                    let start = now.adding(milliseconds: -Int64(random.next() % 40 + 20) * 3_600_000)
                    let source = ImportSource(system: .timewarrior, identity: "interval-\(start.milliseconds)")
                    let record = Record(
                        id: source.recordId, start: start, end: start.adding(milliseconds: 3_600_000), tagId: nil,
                        comment: "imported \(step)")
                    imported.append(record)
                    try replica.append([DomainEvent.recordImported(record, source: source).draft])
                }
            default:
                let log = try TimeLog.open(at: replica.log, options: replica.options)
                defer { log.close() }
                let command = Self.command(log.state, now: replica.clock.now, using: &random)
                _ = try? log.execute(command)
            }
        }
        for _ in 0..<2 {
            for replica in replicas { try replica.sync() }
        }
        return (space, replicas)
    }

    static func command(_ state: LogState, now: Instant, using random: inout SplitMix64) -> Command {
        let names = ["mail", "writing", "reading", "Writing"]
        let name = names[Int(random.next() % UInt64(names.count))]
        let records = state.records.keys.sorted()
        let reference = records.isEmpty ? nil : RecordRef(records[Int(random.next() % UInt64(records.count))])
        switch random.next() % 11 {
        case 0, 1: return .start(tag: .name(name), switching: random.next() % 2 == 0)
        case 2: return .stop(all: true)
        case 3:
            let start = now.adding(milliseconds: -Int64(random.next() % 600 + 60) * 60_000)
            return .track(
                start: ParsedTime(start), end: ParsedTime(start.adding(milliseconds: 1_800_000)), tag: .name(name))
        case 4: return reference.map { .edit(record: $0, comment: "c\(random.next() % 4)") } ?? .undo
        case 5: return reference.map { .edit(record: $0, tag: .name(name)) } ?? .redo
        case 6: return reference.map { .delete(record: $0) } ?? .undo
        case 7: return .undo
        case 8: return .redo
        case 9: return .addTag(name: name + "\(random.next() % 3)")
        default: return .renameTag(name: name, newName: names[Int(random.next() % UInt64(names.count))] + "!")
        }
    }
}
