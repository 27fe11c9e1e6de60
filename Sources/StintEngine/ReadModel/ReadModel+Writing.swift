import StintCore
import StintLog

/// Writing the read models: the rows a batch changed, or everything after a rebuild, each in one
/// transaction together with the log position it reflects.
extension ReadModel {
    /// Writes what changed from `before` to `after` (a fold of whole batches): the records, deleted ids and
    /// provenance of `named`, the tags that differ, the stack entries pushed and dropped, and the position.
    func save(
        from before: LogState, to after: LogState, named: Set<EntityID>, head: StoreHead, tail: LogTail?
    ) throws(ReadModelError) {
        try database.transaction { () throws(ReadModelError) in
            try writeChanges(from: before, to: after, named: named)
            try writeDayTotals(calendar: after.calendar)
            try writePosition(of: after, head: head, tail: tail)
        }
        setHead(head)
    }

    /// The rows of ``save(from:to:named:head:)`` without the position, inside the caller's transaction.
    func writeChanges(from before: LogState, to after: LogState, named: Set<EntityID>) throws(ReadModelError) {
        for id in named { try write(recordOf: id, in: after) }
        for (id, tag) in after.tags where before.tags[id] != tag { try write(tag) }
        try writeStacks(from: before, to: after)
    }

    /// Replaces every row with the whole state `state` at `head` (a bulk load, see `bulkLoad`).
    func rebuild(from state: LogState, head: StoreHead, tail: LogTail?) throws(ReadModelError) {
        try bulkLoad(of: state, head: head, tail: tail) { () throws(ReadModelError) in
            let insert = try database.statement(Self.insertRecord)
            var longest: Int64 = 0
            for record in state.records.values.sorted(by: { $0.id < $1.id }) {
                if let end = record.end { longest = max(longest, end.milliseconds - record.start.milliseconds) }
                insert.reset()
                try insert.bind(
                    .text(record.id.uuidString), .integer(record.start.milliseconds),
                    .optional(record.end?.milliseconds), .optional(record.tagId?.uuidString), .optional(record.comment),
                    .null)
                try insert.run()
            }
            try insertDeleted(state.deletedRecordIds.sorted())
            return (longest, state.importProvenance.values.sorted(by: { $0.values.id < $1.values.id }))
        }
    }

    /// Replaces every row with the state `fold` holds at `head`: the same rows as
    /// ``rebuild(from:head:tail:)`` of the fold's ``CompactFold/logState``, written from its columns, so that
    /// the whole state is never built. The fold is released (set to nil) once its records are written, before
    /// the indexes are built, and the page cache is kept to 16 MiB: together they keep the memory of a
    /// rebuild of a million events under 100 MiB.
    func rebuild(from fold: inout CompactFold?, head: StoreHead, tail: LogTail?) throws(ReadModelError) {
        guard let rest = fold?.stateWithoutRecords else { return }
        try bulkLoad(of: rest, head: head, tail: tail, cacheKiB: 16384, indexCacheKiB: 2048) {
            () throws(ReadModelError) in
            guard let records = fold else { return (0, []) }
            fold = nil
            // A plain insert: the table is empty and the ids are unique and in order.
            let insert = try database.statement(
                "INSERT INTO records (id, start_ms, end_ms, tag_id, comment) VALUES (?, ?, ?, ?, ?)")
            var longest: Int64 = 0
            // One text per tag, bound as is; ids and columns bound one by one (no array of values per row).
            let tagTexts = records.tagIDs.map { SQLiteValue.text($0.uuidString) }
            for number in records.liveRecordsByID {
                let record = records.columns(of: number)
                if let end = record.end { longest = max(longest, end - record.start) }
                insert.reset()
                try insert.bind(at: 1, .id(record.id))
                try insert.bind(at: 2, .integer(record.start))
                try insert.bind(at: 3, record.end.map(SQLiteValue.integer) ?? .null)
                try insert.bind(at: 4, record.tag < 0 ? .null : tagTexts[Int(record.tag)])
                try insert.bind(at: 5, record.comment.map(SQLiteValue.text) ?? .null)
                try insert.run()
            }
            try insertDeleted(records.deletedRecordIdsInOrder)
            return (longest, records.importProvenanceByID.values.sorted(by: { $0.values.id < $1.values.id }))
        }
    }

    /// A bulk load: the records go in in key order into a table without its secondary indexes, which are
    /// built once at the end, with a page cache large enough for the tables (otherwise every insert into a
    /// large index reads and writes pages: two million system calls for a million events). `writeRecords`
    /// inserts the records and deleted ids and returns the longest completed record and the provenance;
    /// `state` gives the tags, the stacks and the position.
    private func bulkLoad(
        of state: LogState, head: StoreHead, tail: LogTail?, cacheKiB: Int = 65536, indexCacheKiB: Int? = nil,
        writeRecords: () throws(ReadModelError) -> (longest: Int64, provenance: [ImportProvenance])
    ) throws(ReadModelError) {
        try database.execute("PRAGMA cache_size = -\(cacheKiB)")
        defer { try? database.execute("PRAGMA cache_size = -2000") }
        try database.transaction { () throws(ReadModelError) in
            try database.execute(Self.emptyForBulkLoad)
            let (longest, provenance) = try writeRecords()
            try database.statement(Self.widenBound).bind(.integer(longest)).run()
            if let indexCacheKiB { try database.execute("PRAGMA cache_size = -\(indexCacheKiB)") }
            try database.execute(Self.recordIndexes)
            try rebuildDayTotals(calendar: state.calendar)
            for provenance in provenance { try write(provenance) }
            for tag in state.tags.values.sorted(by: { $0.id < $1.id }) { try write(tag) }
            for entry in state.undoStack { try self.insert(entry, stack: "undo") }
            for entry in state.redoStack { try self.insert(entry, stack: "redo") }
            try writePosition(of: state, head: head, tail: tail)
        }
        setHead(head)
    }

    /// Empties every table, a single log's and a replica's, and drops the records' secondary indexes, for a
    /// bulk load that creates them again once the records are in.
    static let emptyForBulkLoad = """
        DROP INDEX IF EXISTS records_by_start; DROP INDEX IF EXISTS records_by_end;
        DELETE FROM records; DELETE FROM deleted_records; DELETE FROM imports; DELETE FROM tags;
        DELETE FROM undo_entries; DELETE FROM position; DELETE FROM record_stamps; DELETE FROM merged_position;
        DELETE FROM merged_undo_entries; DELETE FROM merged_stacks; DELETE FROM day_tag_totals; DELETE FROM day_tag_time; DELETE FROM day_wall;
        DELETE FROM tag_totals; UPDATE wall_total SET milliseconds = 0;
        DELETE FROM merged_journal; DELETE FROM merged_journal_position; DELETE FROM merged_journal_records;
        DELETE FROM merged_journal_stacks;
        DELETE FROM merged_journal_entries;
        UPDATE record_bounds SET longest_ms = 0;
        """

    private func insertDeleted(_ ids: [EntityID]) throws(ReadModelError) {
        let deleted = try database.statement("INSERT INTO deleted_records (id) VALUES (?)")
        for id in ids {
            deleted.reset()
            try deleted.bind(.text(id.uuidString))
            try deleted.run()
        }
    }

    /// Raises the bound on completed records' lengths that windowed reads rely on (it never shrinks: an
    /// upper bound is all they need).
    static let widenBound = "UPDATE record_bounds SET longest_ms = max(longest_ms, ?)"

    /// Raises the bound to the longest record written since the last call (``widening``): once per
    /// transaction, before the day totals, which read it.
    func widenBoundToWrittenRecords() throws(ReadModelError) {
        guard let longest = widening else { return }
        try database.statement(Self.widenBound).bind(.integer(longest)).run()
        widening = nil
    }

    static let insertRecord =
        "INSERT OR REPLACE INTO records (id, start_ms, end_ms, tag_id, comment, stamps) VALUES (?, ?, ?, ?, ?, ?)"

    /// The row of record `id` as `state` has it: live, deleted, or neither; and its provenance.
    private func write(recordOf id: EntityID, in state: LogState) throws(ReadModelError) {
        try writeRecord(
            id, values: state.records[id], deleted: state.deletedRecordIds.contains(id),
            provenance: state.importProvenance[id])
    }

    /// The rows of record `id` in `records`, `deleted_records` and `imports`: its values while live (with a
    /// replica's `stamps`, nil on a single log), its id while deleted, its provenance when imported;
    /// `replacing` clears what an earlier write of the id left (a rebuild into empty tables need not).
    /// With `prior`, what the tables held for the id before this write, the clearing takes only the rows
    /// that were there (``PriorRow``).
    func writeRecord(
        _ id: EntityID, values: Record?, stamps: [UInt8]? = nil, deleted: Bool, provenance: ImportProvenance?,
        replacing: Bool = true, prior: PriorRow? = nil
    ) throws(ReadModelError) {
        let key = SQLiteValue.text(id.uuidString)
        if replacing { try noteSpans(replacing: key, with: values, prior: prior) }
        if let record = values {
            try database.statement(Self.insertRecord).bind(
                key, .integer(record.start.milliseconds), .optional(record.end?.milliseconds),
                .optional(record.tagId?.uuidString), .optional(record.comment), stamps.map(SQLiteValue.blob) ?? .null
            ).run()
            if let end = record.end {
                widening = max(widening ?? 0, end.milliseconds - record.start.milliseconds)
            }
        } else if replacing, prior?.live != false {
            try database.statement(Self.deleteRecord).bind(key).run()
        }
        if deleted {
            try database.statement("INSERT OR IGNORE INTO deleted_records (id) VALUES (?)").bind(key).run()
        } else if replacing, prior?.deleted != false {
            try database.statement(Self.deleteDeletedID).bind(key).run()
        }
        if let provenance {
            try write(provenance)
        } else if replacing, prior?.imported != false {
            try database.statement(Self.deleteProvenance).bind(key).run()
        }
    }

    func write(_ provenance: ImportProvenance) throws(ReadModelError) {
        try database.statement("INSERT OR REPLACE INTO imports (id, provenance) VALUES (?, ?)").bind(
            .text(provenance.values.id.uuidString), .text(LogState.json(provenance).encodedString)
        ).run()
    }

    func write(_ tag: Tag) throws(ReadModelError) {
        try database.statement(
            "INSERT OR REPLACE INTO tags (id, name, color, archived, deleted) VALUES (?, ?, ?, ?, ?)"
        ).bind(
            .text(tag.id.uuidString), .text(tag.name), .text(tag.color), .integer(tag.isArchived ? 1 : 0),
            .integer(tag.isDeleted ? 1 : 0)
        ).run()
    }

    /// Drops the entries that left a stack and inserts the ones that joined it (a slice holds the older
    /// entries without their inverses, so entries already stored are never written again).
    private func writeStacks(from before: LogState, to after: LogState) throws(ReadModelError) {
        for (stack, old, new) in [
            ("undo", before.undoStack, after.undoStack), ("redo", before.redoStack, after.redoStack),
        ] {
            let kept = Set(new.map(\.batchStart))
            let stored = Set(old.map(\.batchStart))
            for start in stored.subtracting(kept) {
                try database.statement("DELETE FROM undo_entries WHERE stack = ? AND batch_start = ?").bind(
                    .text(stack), .integer(start)
                ).run()
            }
            for entry in new where !stored.contains(entry.batchStart) { try self.insert(entry, stack: stack) }
        }
    }

    private func insert(_ entry: UndoEntry, stack: String) throws(ReadModelError) {
        try database.statement(
            "INSERT OR REPLACE INTO undo_entries (stack, batch_start, inverses) VALUES (?, ?, ?)"
        ).bind(.text(stack), .integer(entry.batchStart), .text(LogState.json(entry).encodedString)).run()
    }

    func writePosition(of state: LogState, head: StoreHead, tail: LogTail?) throws(ReadModelError) {
        let parts = state.parts
        try database.statement(
            """
            INSERT OR REPLACE INTO position (singleton, seq, hash, last_at, settings, recent_tags, batch_start,
                batch_at, batch_target, batch_grouped, tail_segment, tail_size, tail_end, tail_sealed, tail_line,
                resumed_after_repair)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).bind(
            .integer(head.position.seq), .text(head.hash), .integer(state.lastAt.milliseconds),
            .text(DomainEvent.logCreated(state.settings).data.encodedString),
            .text(JSON.array(state.recentTagIds.map { .string($0.uuidString) }).encodedString),
            .integer(parts.batchStart), .integer(parts.batchAt.milliseconds), .text(parts.batchTarget),
            .integer(parts.batchGrouped ? 1 : 0), .optional(tail?.segment), .optional(tail?.size),
            .optional(tail.map { Self.hex($0.endBytes) }), .optional(tail.map { $0.sealed ? 1 : 0 }),
            .optional(tail.map { String(decoding: $0.lastLine, as: UTF8.self) }), .optional(parts.resumedAfterRepair)
        ).run()
    }
}
