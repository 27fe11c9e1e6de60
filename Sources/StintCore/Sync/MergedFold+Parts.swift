/// A merged fold in parts, as a replica's read models keep it (decision 0010 §1–2): the frame, which is
/// everything but the records and is small (settings, tags, devices and what each knew, the position, the
/// open batch, each device's stacks, the tags' bookkeeping), and one row per record, of which a command loads
/// a few.
///
/// A fold built from parts (``init(parts:)``) holds only the rows it was given. It folds events onto them as
/// the whole fold does, as long as it holds every record they name (``DomainEvent/namedRecordIds``) and the
/// running ones, and it says which rows it changed (``takeChangedRows()``) for the models to write back with
/// the frame. Conflicts are not part of it: `stint conflicts` folds from a checkpoint. The differential tests
/// (`MergedFoldPartsTests`) keep rows and a frame as a read model would and compare them with the whole fold
/// at every batch of random spaces.
extension MergedFold {
    /// A fold's frame and some of its rows.
    package struct Parts: Sendable {
        /// The fold without its records (``MergedFold/frame``).
        package var frame: MergedFold
        package var rows: [RecordRow]

        package init(frame: MergedFold, rows: [RecordRow]) {
            self.frame = frame
            self.rows = rows
        }
    }

    /// A record as the merged fold holds it: its values while it is live, whether it is live, deleted or
    /// neither (an import withdrawn: only its stamps are left), the events that created it and last set each
    /// field, the event that deleted it, and its import provenance.
    package struct RecordRow: Equatable, Sendable {
        package var id: EntityID
        package var status: RecordStatus
        /// The values of a live record; nil otherwise.
        package var values: Record?
        package var stamps: RecordStamps
        /// The event that deleted a deleted record.
        package var deletedBy: EventRef?
        package var provenance: ImportProvenance?

        package init(
            id: EntityID, status: RecordStatus, values: Record?, stamps: RecordStamps, deletedBy: EventRef?,
            provenance: ImportProvenance?
        ) {
            self.id = id
            self.status = status
            self.values = values
            self.stamps = stamps
            self.deletedBy = deletedBy
            self.provenance = provenance
        }
    }

    /// The fold without its records: an empty record table, no records, deleted ids, running ids or import
    /// provenance in its state, no deletions and no conflicts. What is left grows with the tags and devices,
    /// and with each device's last 100 undo and redo entries, inverses included (an import's entry holds one
    /// per record it imported), not with the rest of the history.
    package var frame: MergedFold {
        var frame = self
        frame.records = RecordTable()
        frame.keepsRecordsByID = false
        frame.base.records = [:]
        frame.base.deletedRecordIds = []
        frame.base.runningRecordIds = []
        frame.base.importProvenance = [:]
        frame.deletedBy = [:]
        frame.conflicts = []
        return frame
    }

    /// Whether this fold is a frame (``frame``): what ``init(parts:)`` accepts.
    var isFrame: Bool {
        records.count == 0 && !keepsRecordsByID && base.records.isEmpty && base.deletedRecordIds.isEmpty
            && base.runningRecordIds.isEmpty && base.importProvenance.isEmpty && deletedBy.isEmpty && conflicts.isEmpty
    }

    /// The row of record `id`, when the fold holds it.
    package func row(of id: EntityID) -> RecordRow? {
        records.number(of: id).map(row)
    }

    /// Every row the fold holds, in the order the table took them.
    package var rows: [RecordRow] { records.ids.indices.map(row) }

    /// Calls `body` with every row the fold holds in ascending id order, one at a time: a million rows are
    /// never held together (the read models' rebuild writes them so), only their order, 4 bytes a record.
    package func forEachRowByID<Failure: Error>(_ body: (RecordRow) throws(Failure) -> Void) throws(Failure) {
        for number in records.numbersInIdOrder() { try body(row(Int(number))) }
    }

    /// The row of record number `number`.
    func row(_ number: Int) -> RecordRow {
        let id = records.ids[number]
        let status = records.statuses[number]
        return RecordRow(
            id: id, status: status, values: status == .live ? records.record(number) : nil,
            stamps: records[stamps: number], deletedBy: deletedBy[id], provenance: base.importProvenance[id])
    }

    /// The parts a command of `device` decides on, as ``slice(for:matching:including:)`` chooses the
    /// records (the running ones, the one that ended last, those `references` match and those `ids` name),
    /// with the records the device's top undo and redo entries edit (``recordsEditedByTopEntries(of:)``).
    package func parts(
        for device: DeviceID?, matching references: [RecordRef] = [], including ids: [EntityID] = []
    ) -> Parts {
        let numbers = records.numbersOfSlice(
            matching: references, including: ids + recordsEditedByTopEntries(of: device))
        return Parts(frame: frame, rows: numbers.map(row))
    }

    /// The records the edits in `device`'s undo and redo entries name: ``state(for:)`` reads who last set
    /// their fields (rule 11, ``keepingOthers(_:after:_:)``), so a fold in parts holds them to give the
    /// device the stacks the whole fold gives. At most one per edit of the device's last 100 batches and of
    /// the 100 it undid.
    package func recordsEditedByStacks(of device: DeviceID?) -> [EntityID] {
        guard let own = stacks(of: device) else { return [] }
        return Self.recordsEdited(by: own.undo.map(\.entry) + own.redo.map(\.entry))
    }

    /// The records the edits in `device`'s top undo and redo entries name: what a decision reads of the
    /// stacks (an undo or a redo takes the top entry), so what a command's fold in parts holds for them
    /// (docs/read-models.md). The entries below keep, where their records are not held, the fields rule 11
    /// would drop (``keepingOthers(_:after:_:)``); each is filtered whole once it is the top.
    package func recordsEditedByTopEntries(of device: DeviceID?) -> [EntityID] {
        guard let own = stacks(of: device) else { return [] }
        return Self.recordsEdited(by: [own.undo.last, own.redo.last].compactMap { $0?.entry })
    }

    /// The records the record edits of `entries` name.
    private static func recordsEdited(by entries: [UndoEntry]) -> [EntityID] {
        var ids: [EntityID] = []
        for entry in entries {
            for case .recordEdited(let record, _) in entry.inverses { ids.append(record.id) }
        }
        return ids
    }

    /// A fold of `parts.frame` holding `parts.rows`, which records the rows it changes from now on
    /// (``takeChangedRows()``).
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when the frame is not one (it holds records or
    ///   conflicts), a row's id comes twice, a live row has no values or another id's, a row that is not
    ///   live has values, or a stamp names a device the frame does not know.
    package init(parts: Parts) throws(DomainError) {
        guard parts.frame.isFrame else { throw Self.unreadable("frame") }
        self = parts.frame
        records.reserveCapacity(parts.rows.count)
        try insert(parts.rows)
        records.tracksChanges()
    }

    /// Adds `rows` of the records the fold does not hold yet, as ``init(parts:)`` takes them, without
    /// reporting them changed (``takeChangedRows()``); a row of a record it holds is left out (the fold's is
    /// as new, or newer when it folded events since). So a fold in parts folds on over several batches,
    /// taking in the rows each needs.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) as ``init(parts:)`` for a malformed row; the fold is
    ///   then to be thrown away (the rows before it are held, their running ids not noted).
    package mutating func include(_ rows: [RecordRow]) throws(DomainError) {
        try insert(rows.filter { records.number(of: $0.id) == nil })
    }

    /// Of `ids`, those whose rows the fold does not hold, each once, in order.
    package func missing(_ ids: [EntityID]) -> [EntityID] {
        var seen: Set<EntityID> = []
        return ids.filter { records.number(of: $0) == nil && seen.insert($0).inserted }
    }

    /// Adds `rows`, none of which the table holds, as they are (not reported changed).
    private mutating func insert(_ rows: [RecordRow]) throws(DomainError) {
        var running: [Record] = []
        for row in rows {
            guard records.number(of: row.id) == nil, (row.values != nil) == (row.status == .live),
                row.values.map({ $0.id == row.id }) ?? true, (row.deletedBy != nil) == (row.status == .deleted),
                row.provenance.map({ $0.values.id == row.id }) ?? true,
                row.stamps.all.allSatisfy({ $0.device < devices.count })
            else { throw Self.unreadable("record \(row.id)") }
            let number = records.add(row.id, stamps: row.stamps)
            if let values = row.values {
                records.set(number, values)
                if values.isRunning { running.append(values) }
            } else {
                records.setStatus(number, row.status)
            }
            records.forgetChange(of: number)
            deletedBy[row.id] = row.deletedBy
            base.importProvenance[row.id] = row.provenance
        }
        guard !running.isEmpty else { return }
        running += base.runningRecordIds.compactMap { records.number(of: $0).map(records.record) }
        base.runningRecordIds = running.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map(\.id)
    }

    /// The error of parts that are not what a fold in parts writes.
    private static func unreadable(_ what: String) -> DomainError {
        DomainError(.invalidCheckpoint, "the stored merged fold's \(what) is not readable; it will be rebuilt")
    }

    /// The rows changed since the fold was built from parts, or since the last call, in the order the table
    /// took them (empty for a fold not built from parts, which does not track them).
    package mutating func takeChangedRows() -> [RecordRow] {
        records.takeChanged().map(row)
    }
}

extension MergedFold.RecordStamps {
    /// Every stamp it holds.
    var all: [MergedFold.Stamp] {
        [created].compactMap(\.self) + (setters.map { [$0.start, $0.end, $0.tagId, $0.comment] } ?? [])
    }
}
