import StintCore

extension ReadModel {
    /// What the tables held for a record before a write, when the writer knows it: the write then clears only
    /// the rows that were there, and takes the span it replaces from here rather than from a lookup. A replica's
    /// save of some five hundred new records made five statements of each needless (decision 0010, step 8e).
    struct PriorRow {
        /// Whether `records` held it (live).
        var live: Bool
        /// Whether `deleted_records` held it.
        var deleted: Bool
        /// Whether `imports` held its provenance.
        var imported: Bool
        /// Whether a replica's `record_stamps` held it (not live).
        var stamped: Bool
        /// Its start and end in milliseconds, when `records` held it completed.
        var span: (Int64, Int64)?

        /// What the replica's tables hold for `row` as ``ReadModel/write(_:replacing:prior:)`` writes it; nothing
        /// for none.
        init(_ row: MergedFold.RecordRow?) {
            live = row?.status == .live
            deleted = row?.status == .deleted
            imported = row?.provenance != nil
            stamped = row.map { $0.status != .live } ?? false
            span = row?.values.flatMap { record in record.end.map { (record.start.milliseconds, $0.milliseconds) } }
        }
    }

    /// The lookup of the span a write replaces, which a known row spares, and the clearings of each table,
    /// which it runs only for a table that held the row.
    static let storedSpan = "SELECT start_ms, end_ms FROM records WHERE id = ? AND end_ms IS NOT NULL"
    static let deleteRecord = "DELETE FROM records WHERE id = ?"
    static let deleteDeletedID = "DELETE FROM deleted_records WHERE id = ?"
    static let deleteProvenance = "DELETE FROM imports WHERE id = ?"
    static let deleteStamps = "DELETE FROM record_stamps WHERE id = ?"

    /// Notes what the replica's tables hold for `ids`, as read just now: `rows`, and none for an id of `ids`
    /// without one. Past ``heldRowsLimit`` what was held before is let go of: every row held is still as the
    /// tables hold it, and one not held is looked up.
    func hold(_ rows: [MergedFold.RecordRow], lookedUp ids: [EntityID] = []) {
        if heldRows.count + rows.count + ids.count > heldRowsLimit { heldRows = [:] }
        for id in ids { heldRows[id] = .some(nil) }
        for row in rows { heldRows[row.id] = row }
    }

    /// What the replica's tables hold for `id`, when this connection read or wrote it since it last let go of
    /// what it knew (``heldRows``).
    func prior(of id: EntityID) -> PriorRow? {
        heldRows[id].map(PriorRow.init)
    }
}
