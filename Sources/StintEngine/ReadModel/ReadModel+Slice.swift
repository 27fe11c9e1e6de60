import StintCore

/// Loading a slice of the state (see `LogState+Slice`): the rows a command needs.
extension ReadModel {
    /// The settings, every tag, the recent tags, the running records, the record that ended last, the undo
    /// and redo stacks (without their inverses) and the position.
    func slice() throws(ReadModelError) -> LogState {
        let position = try database.statement(
            """
            SELECT seq, last_at, settings, recent_tags, batch_start, batch_at, batch_target, batch_grouped,
                resumed_after_repair
            FROM position
            """)
        guard try position.step() else { throw ReadModelError("the position row is missing") }
        let settings = try Self.settings(try Self.json(position.text(2)))
        let recent = try Self.ids(try Self.json(position.text(3)))
        var tags: [EntityID: Tag] = [:]
        let tagRows = try database.statement("SELECT id, name, color, archived, deleted FROM tags ORDER BY id")
        while try tagRows.step() {
            let tag = Tag(
                id: try Self.id(tagRows.text(0)), name: tagRows.text(1) ?? "", color: tagRows.text(2) ?? "",
                isArchived: tagRows.integer(3) != 0, isDeleted: tagRows.integer(4) != 0)
            tags[tag.id] = tag
        }
        var records: [EntityID: Record] = [:]
        for record in try self.records(where: "end_ms IS NULL") { records[record.id] = record }
        for record in try self.records(where: "end_ms IS NOT NULL ORDER BY end_ms DESC, id DESC LIMIT 1") {
            records[record.id] = record
        }
        var undo: [UndoEntry] = []
        var redo: [UndoEntry] = []
        let entries = try database.statement("SELECT stack, batch_start FROM undo_entries ORDER BY batch_start")
        while try entries.step() {
            let entry = UndoEntry(batchStart: entries.integer(1), inverses: [])
            if entries.text(0) == "redo" { redo.append(entry) } else { undo.append(entry) }
        }
        let parts = LogState.Parts(
            settings: settings, tags: tags, records: records, deletedRecordIds: [], recentTagIds: recent,
            importProvenance: [:], undoStack: undo, redoStack: redo, lastSeq: position.integer(0),
            lastAt: Instant(milliseconds: position.integer(1)), batchStart: position.integer(4),
            batchAt: Instant(milliseconds: position.integer(5)), batchTarget: position.text(6) ?? "",
            batchGrouped: position.integer(7) != 0, resumedAfterRepair: position.isNull(8) ? nil : position.integer(8))
        var state: LogState
        do {
            state = try LogState(parts: parts)
        } catch {
            throw ReadModelError("the stored state is not readable: \(error.message)")
        }
        try include(provenanceOf: Array(records.keys), in: &state)
        return state
    }

    /// Adds the records with these ids to `state`: live ones, deleted ones, and their import provenance.
    func include(_ ids: some Sequence<EntityID>, in state: inout LogState) throws(ReadModelError) {
        var missing: [EntityID] = []
        for id in ids where state.records[id] == nil && !state.deletedRecordIds.contains(id) { missing.append(id) }
        guard !missing.isEmpty else { return }
        for id in missing {
            let live = try records(where: "id = ?", .text(id.uuidString))
            for record in live { state.include(record) }
            // A record is live or deleted, never both: only an id without a live row is looked up as deleted.
            guard live.isEmpty else { continue }
            let deleted = try database.statement("SELECT 1 FROM deleted_records WHERE id = ?")
            try deleted.bind(.text(id.uuidString))
            if try deleted.step() { state.includeDeleted(id) }
        }
        try include(provenanceOf: missing, in: &state)
    }

    /// Adds every record, live or deleted, whose id starts with one of `references`.
    func include(matching references: [RecordRef], in state: inout LogState) throws(ReadModelError) {
        var ids: [EntityID] = []
        for reference in references {
            let low = reference.canonicalPrefix
            let high = low + "g"
            for record in try records(where: "id >= ? AND id < ?", .text(low), .text(high)) {
                state.include(record)
                ids.append(record.id)
            }
            let deleted = try database.statement("SELECT id FROM deleted_records WHERE id >= ? AND id < ?")
            try deleted.bind(.text(low), .text(high))
            while try deleted.step() {
                let id = try Self.id(deleted.text(0))
                state.includeDeleted(id)
                ids.append(id)
            }
        }
        try include(provenanceOf: ids, in: &state)
    }

    /// Loads the inverses of the last entry of the undo stack and of the redo stack (what `undo` and `redo`
    /// append).
    func includeTopInverses(in state: inout LogState) throws(ReadModelError) {
        for (stack, entry) in [("undo", state.undoStack.last), ("redo", state.redoStack.last)] {
            guard let entry else { continue }
            let row = try database.statement(
                "SELECT inverses FROM undo_entries WHERE stack = ? AND batch_start = ?")
            try row.bind(.text(stack), .integer(entry.batchStart))
            guard try row.step() else { throw ReadModelError("the \(stack) entry \(entry.batchStart) is missing") }
            let json = try Self.json(row.text(0))
            do {
                state.includeInverses(try CheckpointReader(json: json).undoEntry(json))
            } catch {
                throw ReadModelError("the \(stack) entry \(entry.batchStart) is not readable")
            }
        }
    }

    func include(provenanceOf ids: [EntityID], in state: inout LogState) throws(ReadModelError) {
        let row = try database.statement("SELECT provenance FROM imports WHERE id = ?")
        for id in ids where state.importProvenance[id] == nil {
            row.reset()
            try row.bind(.text(id.uuidString))
            guard try row.step() else { continue }
            let json = try Self.json(row.text(0))
            do {
                state.include(try CheckpointReader(json: json).provenance(json))
            } catch {
                throw ReadModelError("the import provenance of \(id) is not readable")
            }
        }
    }

    /// The records of a `WHERE` clause (with its own ordering), bound to `values`.
    func records(where clause: String, _ values: SQLiteValue...) throws(ReadModelError) -> [Record] {
        let rows = try database.statement("SELECT id, start_ms, end_ms, tag_id, comment FROM records WHERE " + clause)
        for (index, value) in values.enumerated() { try rows.bind(at: Int32(index + 1), value) }
        var records: [Record] = []
        while try rows.step() { records.append(try Self.record(at: rows)) }
        return records
    }

    /// An upper bound on the length of every completed record, in milliseconds.
    func longestRecord() throws(ReadModelError) -> Int64 {
        let row = try database.statement("SELECT longest_ms FROM record_bounds")
        guard try row.step() else { throw ReadModelError("the record_bounds row is missing") }
        return row.integer(0)
    }

    /// The record of a row of `SELECT id, start_ms, end_ms, tag_id, comment`.
    static func record(at rows: SQLiteDatabase.Statement) throws(ReadModelError) -> Record {
        guard let id = rows.entityID(0) else {
            throw ReadModelError("a record id is not readable")
        }
        return Record(
            id: id, start: Instant(milliseconds: rows.integer(1)),
            end: rows.isNull(2) ? nil : Instant(milliseconds: rows.integer(2)),
            tagId: rows.isNull(3) ? nil : rows.entityID(3), comment: rows.text(4))
    }

    static func json(_ text: String?) throws(ReadModelError) -> JSON {
        guard let text, let json = try? JSON.parse(text) else {
            throw ReadModelError("a stored JSON value is not readable")
        }
        return json
    }

    static func id(_ text: String?) throws(ReadModelError) -> EntityID {
        guard let text, let id = EntityID(text) else {
            throw ReadModelError("a stored id is not readable")
        }
        return id
    }

    static func ids(_ json: JSON) throws(ReadModelError) -> [EntityID] {
        guard let items = json.arrayValue else { throw ReadModelError("ids not readable") }
        var ids: [EntityID] = []
        for item in items { ids.append(try id(item.stringValue)) }
        return ids
    }

    static func settings(_ json: JSON) throws(ReadModelError) -> LogSettings {
        guard
            case .logCreated(let settings)? = try? DomainEvent(
                type: EventType.logCreated.rawValue, version: 1, data: json)
        else { throw ReadModelError("the stored settings are not readable") }
        return settings
    }
}

extension ReadModel {
    /// Every row, as state parts (for the differential tests and for people's own checks).
    func wholeState() throws(ReadModelError) -> LogState.Parts {
        var parts = try slice().parts
        for record in try records(where: "1 ORDER BY id") { parts.records[record.id] = record }
        let deleted = try database.statement("SELECT id FROM deleted_records")
        while try deleted.step() { parts.deletedRecordIds.insert(try Self.id(deleted.text(0))) }
        var state: LogState
        do {
            state = try LogState(parts: parts)
        } catch {
            throw ReadModelError(error.message)
        }
        try include(provenanceOf: Array(parts.records.keys) + Array(parts.deletedRecordIds), in: &state)
        parts = state.parts
        let entries = try database.statement("SELECT stack, inverses FROM undo_entries ORDER BY batch_start")
        parts.undoStack = []
        parts.redoStack = []
        while try entries.step() {
            let json = try Self.json(entries.text(1))
            let entry: UndoEntry
            do {
                entry = try CheckpointReader(json: json).undoEntry(json)
            } catch {
                throw ReadModelError("an undo entry is not readable")
            }
            if entries.text(0) == "redo" { parts.redoStack.append(entry) } else { parts.undoStack.append(entry) }
        }
        return parts
    }
}
