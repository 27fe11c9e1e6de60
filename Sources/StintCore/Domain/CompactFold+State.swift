/// What a ``CompactFold`` holds, in the forms of ``LogState``: the whole state (for tests and small logs),
/// or its parts one at a time (for writing the read models without the whole state).
extension CompactFold {
    /// The state ``LogState`` folds from the same events.
    public var logState: LogState {
        var state = stateWithoutRecords
        var records: [EntityID: Record] = [:]
        records.reserveCapacity(liveCount)
        var deleted: Set<EntityID> = []
        for index in ids.indices {
            switch statuses[index] {
            case .live: records[ids[index]] = record(Int32(index))
            case .deleted: deleted.insert(ids[index])
            case .absent: break
            }
        }
        state.records = records
        state.deletedRecordIds = deleted
        state.importProvenance = importProvenanceByID
        return state
    }

    /// The state without its records, deleted ids and import provenance, but with its running records: a
    /// slice (``LogState/Parts``) that holds everything else — settings, tags, recent tags, the undo and
    /// redo stacks with their inverses, and the position.
    package var stateWithoutRecords: LogState {
        var state = LogState(
            settings: settings, tags: Dictionary(uniqueKeysWithValues: tags.map { ($0.id, $0) }), lastSeq: lastSeq,
            lastAt: lastAt, batch: batch)
        var records: [EntityID: Record] = [:]
        for number in running { records[ids[Int(number)]] = record(number) }
        state.records = records
        state.runningRecordIds = running.map { ids[Int($0)] }
        state.recentTagIds = recentTagIds
        state.undoStack = entries(undo)
        state.redoStack = entries(redo)
        state.resumedAfterRepair = resumedAfterRepair
        return state
    }

    /// The provenance of imported records, by record id.
    package var importProvenanceByID: [EntityID: ImportProvenance] {
        var result: [EntityID: ImportProvenance] = [:]
        for (number, value) in provenance { result[ids[Int(number)]] = value }
        return result
    }

    /// The numbers of the live records in id order (the read models' key order).
    package var liveRecordsByID: [Int32] {
        var order: [Int32] = []
        order.reserveCapacity(liveCount)
        for index in statuses.indices where statuses[index] == .live { order.append(Int32(index)) }
        ids.withUnsafeBufferPointer { ids in order.sort { ids[Int($0)] < ids[Int($1)] } }
        return order
    }

    /// The ids of the deleted records, in order.
    package var deletedRecordIdsInOrder: [EntityID] {
        var result: [EntityID] = []
        for index in statuses.indices where statuses[index] == .deleted { result.append(ids[index]) }
        result.sort()
        return result
    }

    /// The columns of live record `number`: id, start and end in milliseconds (end nil while running), the
    /// tag's number in ``tagIDs`` (negative when untagged) and the comment.
    package func columns(of number: Int32) -> (id: EntityID, start: Int64, end: Int64?, tag: Int32, comment: String?) {
        let index = Int(number)
        let end = ends[index]
        let comment = comments[index]
        return (
            ids[index], starts[index], end == Self.noEnd ? nil : end, tagNumbers[index],
            comment < 0 ? nil : strings[Int(comment)]
        )
    }

    /// The ids of the tags by number.
    package var tagIDs: [EntityID] { tags.map(\.id) }
}
