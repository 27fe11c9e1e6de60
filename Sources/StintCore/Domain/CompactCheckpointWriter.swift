/// Appends the little-endian fields of a compact checkpoint.
struct CompactCheckpointWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: Int) {
        let value = UInt32(truncatingIfNeeded: value)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func id(_ value: EntityID) {
        withUnsafeBytes(of: value.high.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.low.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        u32(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    /// A record: id, start, a flags byte (end, tag, comment present), then the present ones.
    mutating func record(_ record: Record) {
        self.record(
            id: record.id, start: record.start.milliseconds, end: record.end?.milliseconds, tagId: record.tagId,
            comment: record.comment)
    }

    /// A record given by its fields (``record(_:)``'s bytes), for states that keep them in columns.
    mutating func record(id recordId: EntityID, start: Int64, end: Int64?, tagId: EntityID?, comment: String?) {
        id(recordId)
        i64(start)
        u8((end != nil ? 1 : 0) | (tagId != nil ? 2 : 0) | (comment != nil ? 4 : 0))
        if let end { i64(end) }
        if let tagId { id(tagId) }
        if let comment { string(comment) }
    }

    mutating func raw(_ value: [UInt8]) {
        u32(value.count)
        bytes.append(contentsOf: value)
    }

    /// The signature and layout version a checkpoint form starts with (what
    /// ``CompactCheckpointReader/header(magic:version:what:)`` reads).
    mutating func header(magic: [UInt8], version: Int) {
        bytes.append(contentsOf: magic)
        u32(version)
    }

    /// An undo or redo entry: its batch, then each inverse as its type, version and canonical JSON data.
    mutating func undoEntry(_ entry: UndoEntry) {
        i64(entry.batchStart)
        u32(entry.inverses.count)
        for event in entry.inverses {
            let draft = event.draft
            string(draft.type)
            u32(draft.version)
            raw(draft.data.encoded())
        }
    }
}
