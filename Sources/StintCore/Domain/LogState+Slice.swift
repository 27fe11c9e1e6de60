/// A state that holds only some of a log's records: what a read model loads for one command.
///
/// The settings, every tag, the recent tags, the running records, the undo and redo stacks and the position
/// are always whole; other records, deleted ids and import provenance are present only where they were
/// included. ``apply(_:)`` and ``decide(_:state:context:)`` give the same results on a slice as on the whole
/// state as long as every record that the command (``Command/recordReferences``) and its events
/// (``DomainEvent/namedRecordIds``) name was included first, and the record that ended last, which `continue`
/// reads. The differential tests of the read models check this at every point of random logs.
extension LogState {
    /// The parts of a state, as a read model stores them.
    package struct Parts: Sendable {
        package var settings: LogSettings
        package var tags: [EntityID: Tag]
        /// Live records: at least the running ones.
        package var records: [EntityID: Record]
        package var deletedRecordIds: Set<EntityID>
        package var recentTagIds: [EntityID]
        package var importProvenance: [EntityID: ImportProvenance]
        package var undoStack: [UndoEntry]
        package var redoStack: [UndoEntry]
        package var lastSeq: Int64
        package var lastAt: Instant
        /// The batch the last event belongs to: its first `seq`, `at`, stack (`none`, `undo`, `redo`) and
        /// whether its events carry `tx`.
        package var batchStart: Int64
        package var batchAt: Instant
        package var batchTarget: String
        package var batchGrouped: Bool
        /// ``LogState/resumedAfterRepair``.
        package var resumedAfterRepair: Int64?

        package init(
            settings: LogSettings, tags: [EntityID: Tag], records: [EntityID: Record], deletedRecordIds: Set<EntityID>,
            recentTagIds: [EntityID], importProvenance: [EntityID: ImportProvenance], undoStack: [UndoEntry],
            redoStack: [UndoEntry], lastSeq: Int64, lastAt: Instant, batchStart: Int64, batchAt: Instant,
            batchTarget: String, batchGrouped: Bool, resumedAfterRepair: Int64? = nil
        ) {
            self.settings = settings
            self.tags = tags
            self.records = records
            self.deletedRecordIds = deletedRecordIds
            self.recentTagIds = recentTagIds
            self.importProvenance = importProvenance
            self.undoStack = undoStack
            self.redoStack = redoStack
            self.lastSeq = lastSeq
            self.lastAt = lastAt
            self.batchStart = batchStart
            self.batchAt = batchAt
            self.batchTarget = batchTarget
            self.batchGrouped = batchGrouped
            self.resumedAfterRepair = resumedAfterRepair
        }
    }

    /// A state from its parts; the running records are the records without an end.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) for an unknown batch target.
    package init(parts: Parts) throws(DomainError) {
        guard let target = OpenBatch.Target(name: parts.batchTarget) else {
            throw DomainError(.invalidCheckpoint, "the stored open batch is not readable; it will be rebuilt")
        }
        settings = parts.settings
        tags = parts.tags
        records = parts.records
        deletedRecordIds = parts.deletedRecordIds
        runningRecordIds = parts.records.values.filter(\.isRunning).sorted { ($0.start, $0.id) < ($1.start, $1.id) }
            .map(\.id)
        recentTagIds = parts.recentTagIds
        importProvenance = parts.importProvenance
        undoStack = parts.undoStack
        redoStack = parts.redoStack
        lastSeq = parts.lastSeq
        lastAt = parts.lastAt
        batch = OpenBatch(start: parts.batchStart, at: parts.batchAt, target: target, grouped: parts.batchGrouped)
        resumedAfterRepair = parts.resumedAfterRepair
    }

    /// The state's parts.
    package var parts: Parts {
        Parts(
            settings: settings, tags: tags, records: records, deletedRecordIds: deletedRecordIds,
            recentTagIds: recentTagIds, importProvenance: importProvenance, undoStack: undoStack, redoStack: redoStack,
            lastSeq: lastSeq, lastAt: lastAt, batchStart: batch.start, batchAt: batch.at,
            batchTarget: batch.target.name,
            batchGrouped: batch.grouped, resumedAfterRepair: resumedAfterRepair)
    }

    /// Adds a live record that the slice did not hold.
    package mutating func include(_ record: Record) {
        guard records[record.id] == nil else { return }
        records[record.id] = record
        if record.isRunning {
            runningRecordIds.append(record.id)
            runningRecordIds.sort { (records[$0]!.start, $0) < (records[$1]!.start, $1) }
        }
    }

    /// Notes a deleted record id that the slice did not hold.
    package mutating func includeDeleted(_ id: EntityID) {
        deletedRecordIds.insert(id)
    }

    /// Adds the provenance of an imported record (live or deleted) that the slice did not hold.
    package mutating func include(_ provenance: ImportProvenance) {
        importProvenance[provenance.values.id] = provenance
    }

    /// Replaces the inverses of the undo and redo entries of `batchStart` (a slice may hold them without
    /// their inverses until `undo` or `redo` needs them).
    package mutating func includeInverses(_ entry: UndoEntry) {
        if let index = undoStack.firstIndex(where: { $0.batchStart == entry.batchStart }) { undoStack[index] = entry }
        if let index = redoStack.firstIndex(where: { $0.batchStart == entry.batchStart }) { redoStack[index] = entry }
    }
}

extension DomainEvent {
    /// The records this event reads or changes: a slice must hold them (or know them deleted) before it is
    /// applied.
    package var namedRecordIds: [EntityID] {
        switch self {
        case .logCreated, .tagCreated, .tagRenamed, .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored,
            .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return []
        case .timerStarted(let id, _, _, _), .timerStopped(let id, _), .timerCanceled(let id),
            .recordTracked(let id, _, _, _, _), .recordDeleted(let id), .recordUnimported(let id):
            return [id]
        case .recordEdited(let record, _), .recordRestored(let record), .recordImported(let record, _),
            .recordReimported(let record, _):
            return [record.id]
        }
    }
}

extension Command {
    /// The record references a command resolves: a slice must hold every record (live or deleted) that
    /// matches them before the command is decided.
    package var recordReferences: [RecordRef] {
        switch self {
        case .stop(let records, _, _, _): return records
        case .edit(let record, _, _, _, _, _), .delete(let record), .split(let record, _): return [record]
        case .continue(let record, _, _, _), .cancel(let record): return record.map { [$0] } ?? []
        case .join(let first, let second, _): return [first, second]
        case .start, .track, .undo, .redo, .addTag, .renameTag, .archiveTag, .unarchiveTag, .deleteTag, .import:
            return []
        }
    }

    /// Whether deciding the command reads every record (an import compares the whole history with its
    /// source), so that it needs the whole state rather than a slice.
    package var readsEveryRecord: Bool {
        if case .import = self { return true }
        return false
    }
}

extension RecordRef {
    /// The typed digits in the form of the start of an id's text (`268af4c3-f9`), for a range lookup.
    package var canonicalPrefix: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, nibble) in nibbles.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(0x2D) }
            text.append(digits[Int(nibble)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
