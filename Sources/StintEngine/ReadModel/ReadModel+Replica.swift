import StintCore
import StintLog

/// A replica's read models (decision 0010, docs/read-models.md): the merged fold in parts
/// (``MergedFold/Parts``). The frame — everything but the records — is one value, its merged checkpoint
/// bytes, in `merged_position` beside the position it reflects (each device's `seq` and line hash, and the
/// merge key of the last event folded); each record's bookkeeping (whether it is live, deleted or neither,
/// the events that created it and last set each field, the one that deleted it) is a live record's
/// `records.stamps`, or a row of `record_stamps` for one that is not live (so that a new record costs one
/// page of a tree keyed by random ids, not two: decision 0010 step 8d). The live values, deleted ids, import
/// provenance and tags are in the tables a single log's models have, so people's own reports read a
/// replica's models as they read a single log's. A single log's `position` and `undo_entries` stay empty:
/// each device's stacks are in `merged_stacks` (`ReadModel+ReplicaStacks.swift`).
extension ReadModel {
    /// The replica's tables (part of ``schema``).
    static let replicaSchema = """
        CREATE TABLE merged_position (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            hash TEXT NOT NULL,
            devices TEXT NOT NULL,
            last_key TEXT,
            frame BLOB NOT NULL,
            ends TEXT NOT NULL
        );
        CREATE TABLE record_stamps (
            id TEXT PRIMARY KEY,
            status INTEGER NOT NULL,
            stamps BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE merged_undo_entries (
            device TEXT NOT NULL,
            stack TEXT NOT NULL,
            batch_start INTEGER NOT NULL,
            inverses TEXT NOT NULL,
            PRIMARY KEY (device, stack, batch_start)
        ) WITHOUT ROWID;
        """ + stacksSchema + journalSchema

    /// What a replica's models reflect: the frontier of the merged history folded and the merge key of its
    /// last event.
    struct MergedMark: Equatable {
        var frontier: Frontier
        var lastKey: MergeKey?
        /// Where each device's log (the own log and every mirror) ended when the models were written at this
        /// mark: a read that finds every log ending so takes the models as the merged history's head
        /// (``mergedProjectionSource(of:now:)``) without reading an event.
        var ends: [DeviceID: LogEnd] = [:]

        /// The store head of that point of the merged history (``MergedStore/head()``'s form).
        var head: StoreHead {
            StoreHead(
                position: StorePosition(
                    merged: MergedPosition(seqs: frontier.heads.mapValues(\.seq), lastKey: lastKey)),
                hash: frontier.hash)
        }
    }

    /// Where the replica's models stand; nil when they hold no merged fold (new, or a single log's).
    ///
    /// - Throws: ``ReadModelError`` when the row is not what Stint writes.
    func mergedMark() throws(ReadModelError) -> MergedMark? {
        let row = try database.statement("SELECT hash, devices, last_key, ends FROM merged_position")
        guard try row.step() else { return nil }
        guard let devices = try Self.json(row.text(1)).arrayValue else {
            throw ReadModelError("the merged position's devices are not readable")
        }
        var frontier = Frontier()
        for entry in devices {
            guard let fields = entry.arrayValue, fields.count == 3, let device = try? DeviceID(json: fields[0]),
                let seq = fields[1].intValue, let hash = fields[2].stringValue,
                frontier.heads.updateValue(Frontier.Head(seq: seq, hash: hash), forKey: device) == nil
            else { throw ReadModelError("the merged position's devices are not readable") }
        }
        guard frontier.hash == row.text(0) else {
            throw ReadModelError("the merged position's hash is not its devices' frontier")
        }
        var lastKey: MergeKey?
        if !row.isNull(2) {
            guard let key = MergeKey(json: try Self.json(row.text(2))) else {
                throw ReadModelError("the merged position's last key is not readable")
            }
            lastKey = key
        }
        return MergedMark(frontier: frontier, lastKey: lastKey, ends: try Self.ends(fromJSON: row.text(3)))
    }

    /// Replaces every row with `fold`, the whole merged fold at `mark`, in one transaction. The rows go in
    /// in id order, each table's pages filled one after another, so a small page cache does: 4 MiB, where
    /// 64 MiB took the rebuild of the bench's million-event replica from 112 to 210 MiB and was no faster.
    func rebuild(from fold: MergedFold, at mark: MergedMark) throws(ReadModelError) {
        heldRows = [:]
        try database.execute("PRAGMA cache_size = -4096")
        defer { try? database.execute("PRAGMA cache_size = -2000") }
        // Only the stacks are copied: the thinned fold shares the records' storage.
        var thinned = fold
        try database.transaction { () throws(ReadModelError) in
            try database.execute(Self.emptyForBulkLoad)
            try fold.forEachRowByID { (row) throws(ReadModelError) in try write(row, replacing: false) }
            try database.execute(Self.recordIndexes)
            try rebuildDayTotals(calendar: fold.calendar)
            try writeFrame(of: &thinned, at: mark)
        }
        setHead(mark.head)
    }

    /// Writes the rows a fold built from these models' parts changed (``MergedFold/takeChangedRows()``) and
    /// its frame, at `mark`, in one transaction. The fold's undo and redo entries are left with their record
    /// edits only, as the models keep them in the frame (their other inverses in `merged_undo_entries`).
    func save(_ changed: [MergedFold.RecordRow], of fold: inout MergedFold, at mark: MergedMark)
        throws(ReadModelError)
    {
        do {
            try database.transaction { () throws(ReadModelError) in
                let step = try beginJournalStep(
                    to: mark, writing: changed.map(\.id), stacksOf: Array(fold.devicesWithStacksAtHand))
                for row in changed { try write(row, replacing: true, prior: prior(of: row.id)) }
                try writeDayTotals(calendar: fold.calendar)
                try writeFrame(of: &fold, at: mark, journaling: step)
            }
        } catch {
            heldRows = [:]
            throw error
        }
        hold(changed)
        setHead(mark.head)
    }

    /// The top undo and redo entries of `device` in `fold` (a fold in parts of these models), whole, where the
    /// frame holds them thinned: what `undo` and `redo` decide on (``MergedFold/restoreTop(_:at:)``).
    ///
    /// - Throws: ``ReadModelError`` when an entry is not readable.
    func wholeTopEntries(of device: DeviceID?, in fold: MergedFold) throws(ReadModelError)
        -> [(key: MergedFold.StackEntryKey, entry: UndoEntry)]
    {
        var entries: [(key: MergedFold.StackEntryKey, entry: UndoEntry)] = []
        let row = try database.statement(
            "SELECT inverses FROM merged_undo_entries WHERE device = ? AND stack = ? AND batch_start = ?")
        for key in fold.topEntryKeys(of: device) {
            row.reset()
            try Self.bind(key, to: row)
            guard try row.step() else { continue }  // It held record edits only: the frame holds it whole.
            let json = try Self.json(row.text(0))
            do {
                entries.append((key, try CheckpointReader(json: json).undoEntry(json)))
            } catch {
                throw ReadModelError("the \(Self.stack(of: key)) entry \(key.batchStart) is not readable")
            }
        }
        return entries
    }

    /// The `stack` column of an entry: `undo` or `redo`.
    private static func stack(of key: MergedFold.StackEntryKey) -> String {
        key.isRedo ? "redo" : "undo"
    }

    /// Binds `key` to the first three parameters of `statement`: `device` (its id, or empty for none: a log's
    /// events before it joined), `stack` and `batch_start`.
    static func bind(_ key: MergedFold.StackEntryKey, to statement: SQLiteDatabase.Statement)
        throws(ReadModelError)
    {
        try statement.bind(at: 1, .text(deviceColumn(key.device)))
        try statement.bind(at: 2, .text(stack(of: key)))
        try statement.bind(at: 3, .integer(key.batchStart))
    }

    /// The key in the first three columns of `row` (as ``bind(_:to:)`` writes them).
    static func stackKey(in row: SQLiteDatabase.Statement) throws(ReadModelError) -> MergedFold.StackEntryKey {
        guard let device = device(inColumn: row.text(0)) else {
            throw ReadModelError("a whole undo entry's device is not readable")
        }
        return MergedFold.StackEntryKey(device: device, isRedo: row.text(1) == "redo", batchStart: row.integer(2))
    }

    /// Every whole entry the models keep, by where it is (for the tests).
    func wholeEntries() throws(ReadModelError) -> [MergedFold.StackEntryKey: UndoEntry] {
        let rows = try database.statement("SELECT device, stack, batch_start, inverses FROM merged_undo_entries")
        var entries: [MergedFold.StackEntryKey: UndoEntry] = [:]
        while try rows.step() {
            let json = try Self.json(rows.text(3))
            guard let entry = try? CheckpointReader(json: json).undoEntry(json) else {
                throw ReadModelError("a whole undo entry is not readable")
            }
            entries[try Self.stackKey(in: rows)] = entry
        }
        return entries
    }

    /// The parts a command of `device` decides on, chosen as ``MergedFold/parts(for:matching:including:)``
    /// chooses them: the running records, the one that ended last, every row whose id starts with one of
    /// `references`, the rows of `ids`, and the records the device's top undo and redo entries edit
    /// (``MergedFold/recordsEditedByTopEntries(of:)``: a decision reads no other entry, and the records every
    /// entry edits would cost a lookup by a random id each, some seventy at every command).
    ///
    /// - Throws: ``ReadModelError`` when there is no merged fold or its rows are not what Stint writes.
    func mergedParts(for device: DeviceID?, matching references: [RecordRef] = [], including ids: [EntityID] = [])
        throws(ReadModelError) -> MergedFold.Parts
    {
        var frame = try storedFrame()
        try includeStacks(of: device, in: &frame)
        var rows: [EntityID: MergedFold.RecordRow] = [:]
        for row in try mergedRowsDecidedOn() + mergedRows(matching: references) { rows[row.id] = row }
        for row in try mergedRows(
            of: Array(Set(ids + frame.recordsEditedByTopEntries(of: device))).filter { rows[$0] == nil })
        {
            rows[row.id] = row
        }
        return MergedFold.Parts(frame: frame, rows: rows.values.sorted { $0.id < $1.id })
    }

    /// The fold in parts a command of `device` starts from (``mergedParts(for:matching:including:)``).
    ///
    /// - Throws: ``ReadModelError`` when there is no merged fold or its parts are not what Stint writes.
    func mergedFold(for device: DeviceID?) throws(ReadModelError) -> MergedFold {
        let parts = try mergedParts(for: device)
        do {
            return try MergedFold(parts: parts)
        } catch {
            throw ReadModelError(error.message)
        }
    }

    /// Takes into `fold` the rows of `ids` it does not hold yet (``MergedFold/include(_:)``).
    func include(_ ids: [EntityID], in fold: inout MergedFold) throws(ReadModelError) {
        let missing = fold.missing(ids)
        guard !missing.isEmpty else { return }
        try include(mergedRows(of: missing), in: &fold)
    }

    /// Takes `rows` into `fold`, as ``MergedFold/include(_:)`` does.
    func include(_ rows: [MergedFold.RecordRow], in fold: inout MergedFold) throws(ReadModelError) {
        do {
            try fold.include(rows)
        } catch {
            throw ReadModelError(error.message)
        }
    }

    /// The rows every decision reads: the running records and the one that ended last (by `(end, id)`).
    func mergedRowsDecidedOn() throws(ReadModelError) -> [MergedFold.RecordRow] {
        let rows =
            try mergedRows(where: "s.id IN (SELECT id FROM records WHERE end_ms IS NULL)")
            + mergedRows(
                where: "s.id = (SELECT id FROM records WHERE end_ms IS NOT NULL ORDER BY end_ms DESC, id DESC LIMIT 1)")
        hold(rows)
        return rows
    }

    /// The rows whose ids start with one of `references`.
    func mergedRows(matching references: [RecordRef]) throws(ReadModelError) -> [MergedFold.RecordRow] {
        var rows: [MergedFold.RecordRow] = []
        for reference in references {
            let low = reference.canonicalPrefix
            rows += try mergedRows(where: "s.id >= ?1 AND s.id < ?2", .text(low), .text(low + "g"))
        }
        hold(rows)
        return rows
    }

    /// The rows of `ids` (an id the models do not hold has none), each once, in id order: one query.
    func mergedRows(of ids: [EntityID]) throws(ReadModelError) -> [MergedFold.RecordRow] {
        guard !ids.isEmpty else { return [] }
        let list = JSON.array(Set(ids).sorted().map { .string($0.uuidString) }).encodedString
        let rows = try mergedRows(where: "s.id IN (SELECT value FROM json_each(?1))", .text(list), inIDOrder: true)
        hold(rows, lookedUp: ids)
        return rows
    }

    /// Every row, in id order.
    func everyMergedRow() throws(ReadModelError) -> [MergedFold.RecordRow] {
        try mergedRows(where: "1", inIDOrder: true)
    }

    /// Every row and the frame: the whole merged fold (for rebuild checks and the tests).
    func mergedWhole() throws(ReadModelError) -> MergedFold.Parts {
        var frame = try storedFrame()
        try includeEveryStack(in: &frame)
        return MergedFold.Parts(frame: frame, rows: try everyMergedRow())
    }

    /// The frame the models hold, without any device's stacks (``includeStacks(of:in:)`` reads them).
    func storedFrame() throws(ReadModelError) -> MergedFold {
        try readStoredFrame { (buffer) throws(DomainError) in try MergedFold(frameApart: buffer) }
    }

    /// What a read at the head takes of the frame the models hold (``MergedFold/headState(checkpoint:)``):
    /// the state without records, with the tags' name order, read without the stacks and the bookkeeping.
    func storedHeadState() throws(ReadModelError) -> LogState {
        try readStoredFrame { (buffer) throws(DomainError) in try MergedFold.headState(checkpoint: buffer) }
    }

    /// `read` of the frame's bytes.
    private func readStoredFrame<Value>(
        _ read: (UnsafeRawBufferPointer) throws(DomainError) -> Value
    ) throws(ReadModelError) -> Value {
        let row = try database.statement("SELECT frame FROM merged_position")
        guard try row.step(), let bytes = row.blob(0) else { throw ReadModelError("the replica holds no merged fold") }
        let restored = bytes.withUnsafeBytes { buffer in Result { () throws(DomainError) in try read(buffer) } }
        switch restored {
        case .success(let value): return value
        case .failure(let error): throw ReadModelError("the stored merged frame is not readable: \(error.message)")
        }
    }

    /// The rows of a `WHERE` clause over the rows' tables (each as `s`; numbered parameters, bound to `values`):
    /// the live records from `records` with their stamps, the others from `record_stamps`, one arm each of a
    /// `UNION ALL`, so that each arm looks its rows up by its own keys (SQLite does not push an `IN` or a
    /// subquery into a union in `FROM`: that read every record).
    func mergedRows(where clause: String, _ values: SQLiteValue..., inIDOrder: Bool = false)
        throws(ReadModelError) -> [MergedFold.RecordRow]
    {
        let rows = try database.statement(
            """
            SELECT s.id, \(MergedFold.RecordStatus.live.rawValue), s.stamps, s.start_ms, s.end_ms, s.tag_id, s.comment,
                i.provenance
            FROM records s LEFT JOIN imports i ON i.id = s.id WHERE \(clause)
            UNION ALL
            SELECT s.id, s.status, s.stamps, NULL, NULL, NULL, NULL, i.provenance
            FROM record_stamps s LEFT JOIN imports i ON i.id = s.id WHERE \(clause)
            """ + (inIDOrder ? " ORDER BY 1" : ""))
        for (index, value) in values.enumerated() { try rows.bind(at: Int32(index + 1), value) }
        var found: [MergedFold.RecordRow] = []
        while try rows.step() { found.append(try Self.mergedRow(in: rows)) }
        return found
    }

    /// The row in the columns of `rows`: id, status, stamps, start, end, tag, comment and provenance, as
    /// ``mergedRows(where:_:inIDOrder:)`` selects them.
    static func mergedRow(in rows: SQLiteDatabase.Statement) throws(ReadModelError) -> MergedFold.RecordRow {
        guard let id = rows.entityID(0),
            let status = MergedFold.RecordStatus(rawValue: UInt8(clamping: rows.integer(1))),
            let bytes = rows.blob(2), let (stamps, deletedBy) = MergedFold.RecordRow.bookkeeping(from: bytes)
        else { throw ReadModelError("a record's stamps are not readable") }
        var values: Record?
        if status == .live {
            guard !rows.isNull(3) else { throw ReadModelError("the live record \(id) has no values") }
            values = Record(
                id: id, start: Instant(milliseconds: rows.integer(3)),
                end: rows.isNull(4) ? nil : Instant(milliseconds: rows.integer(4)),
                tagId: rows.isNull(5) ? nil : rows.entityID(5), comment: rows.text(6))
        }
        var provenance: ImportProvenance?
        if !rows.isNull(7) {
            let json = try Self.json(rows.text(7))
            do {
                provenance = try CheckpointReader(json: json).provenance(json)
            } catch {
                throw ReadModelError("the import provenance of \(id) is not readable")
            }
        }
        return MergedFold.RecordRow(
            id: id, status: status, values: values, stamps: stamps, deletedBy: deletedBy, provenance: provenance)
    }

    /// Writes `row` into the single log's tables (its values, deletion and provenance), its bookkeeping in
    /// its `records` row when live and in `record_stamps` otherwise; `replacing` clears what an earlier row of
    /// the id left there (only what `prior`, when given, says the tables held).
    func write(_ row: MergedFold.RecordRow, replacing: Bool, prior: PriorRow? = nil) throws(ReadModelError) {
        let key = SQLiteValue.text(row.id.uuidString)
        let live = row.status == .live
        guard live == (row.values != nil) else {
            throw ReadModelError("the row of \(row.id) has values if and only if it is live")
        }
        if !live {
            try database.statement("INSERT OR REPLACE INTO record_stamps (id, status, stamps) VALUES (?, ?, ?)").bind(
                key, .integer(Int64(row.status.rawValue)), .blob(row.bookkeeping)
            ).run()
        } else if replacing, prior?.stamped != false {
            try database.statement(Self.deleteStamps).bind(key).run()
        }
        try writeRecord(
            row.id, values: row.values, stamps: live ? row.bookkeeping : nil, deleted: row.status == .deleted,
            provenance: row.provenance, replacing: replacing, prior: prior)
    }

    /// Writes the frame, its tags (for people's reports) and the mark; the undo and redo entries in it with
    /// their record edits only (`fold` is left so), the others whole in `merged_undo_entries`, which keeps
    /// the entries of the stacks and no others.
    /// With `step`, the journal step of a save, the whole entries it writes or drops keep their
    /// before-images there.
    private func writeFrame(of fold: inout MergedFold, at mark: MergedMark, journaling step: Int64? = nil)
        throws(ReadModelError)
    {
        let insert = try database.statement(
            "INSERT OR REPLACE INTO merged_undo_entries (device, stack, batch_start, inverses) VALUES (?, ?, ?, ?)")
        for (key, entry) in fold.takeInversesOtherThanEdits() {
            if let step { try journalEntry(at: key, in: step) }
            insert.reset()
            try Self.bind(key, to: insert)
            try insert.bind(at: 4, .text(LogState.json(entry).encodedString))
            try insert.run()
        }
        // Only the entries of the devices whose stacks the fold holds can have left them.
        let kept = fold.stackEntryKeys
        var stale: [MergedFold.StackEntryKey] = []
        let stored = try database.statement("SELECT device, stack, batch_start FROM merged_undo_entries")
        while try stored.step() {
            let key = try Self.stackKey(in: stored)
            if !kept.contains(key) && !fold.lacksStacks(of: key.device) { stale.append(key) }
        }
        let delete = try database.statement(
            "DELETE FROM merged_undo_entries WHERE device = ? AND stack = ? AND batch_start = ?")
        for key in stale {
            if let step { try journalEntry(at: key, in: step) }
            delete.reset()
            try Self.bind(key, to: delete)
            try delete.run()
        }
        let frame = fold.frame
        for tag in frame.state.tags.values.sorted(by: { $0.id < $1.id }) { try write(tag) }
        let devices = mark.frontier.heads.keys.sorted().map { device -> JSON in
            let head = mark.frontier.heads[device]!
            return .array([device.json, .int(head.seq), .string(head.hash)])
        }
        let lastKey = mark.lastKey.map(\.json.encodedString)
        try database.statement(
            """
            INSERT OR REPLACE INTO merged_position (singleton, hash, devices, last_key, frame, ends)
            VALUES (1, ?, ?, ?, ?, ?)
            """
        ).bind(
            .text(mark.frontier.hash), .text(JSON.array(devices).encodedString), .optional(lastKey),
            .blob(frame.checkpointWithoutStacks), .text(Self.json(of: mark.ends))
        ).run()
        try writeStacks(of: fold)
    }
}
