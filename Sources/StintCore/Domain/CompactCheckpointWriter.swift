/// Appends the little-endian fields of a compact checkpoint: into one buffer, or a chunk at a time into a
/// small one that is handed on whenever it fills (a checkpoint of tens of megabytes is then never held whole).
struct CompactCheckpointWriter {
    /// What was written and not handed on yet: everything, when there are no chunks.
    private(set) var bytes: [UInt8] = []
    /// How many bytes were handed on before ``bytes``.
    private(set) var handedOn = 0
    private let chunk: Int
    private let consume: ((UnsafeRawBufferPointer) -> Void)?

    /// A writer that keeps everything in ``bytes``, with room for `capacity` bytes to start with.
    init(capacity: Int) {
        chunk = .max
        consume = nil
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands what it wrote to `consume` whenever ``endOfItem()`` finds `chunk` bytes or more
    /// buffered, and when ``finish()`` is called. With a `consume` that does nothing, it counts.
    init(chunk: Int, consume: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.chunk = chunk
        self.consume = consume
        bytes.reserveCapacity(chunk + chunk / 4)
    }

    /// How many bytes were written in all.
    var count: Int { handedOn + bytes.count }

    /// Marks the end of one item of a long list (a record, its stamps): a writer in chunks hands on a full
    /// buffer here.
    @inline(__always)
    mutating func endOfItem() {
        if bytes.count >= chunk { handOn() }
    }

    /// Hands on what is buffered (a writer in chunks; one that keeps everything keeps it).
    mutating func finish() {
        if consume != nil, !bytes.isEmpty { handOn() }
    }

    private mutating func handOn() {
        guard let consume else { return }
        bytes.withUnsafeBytes { consume($0) }
        handedOn += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

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
