/// Reads the fields ``CompactCheckpointWriter`` wrote, refusing (nil) anything that runs past the end.
struct CompactCheckpointReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func u32() -> Int? {
        guard bytes.count - offset >= 4 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return Int(UInt32(littleEndian: value))
    }

    mutating func i64() -> Int64? {
        guard bytes.count - offset >= 8 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        offset += 8
        return Int64(littleEndian: value)
    }

    mutating func id() -> EntityID? {
        guard bytes.count - offset >= 16 else { return nil }
        let high = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let low = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        offset += 16
        return EntityID(high: UInt64(littleEndian: high), low: UInt64(littleEndian: low))
    }

    mutating func rawBytes() -> UnsafeRawBufferPointer? {
        guard let count = u32(), bytes.count - offset >= count else { return nil }
        offset += count
        return UnsafeRawBufferPointer(rebasing: bytes[(offset - count)..<offset])
    }

    mutating func string() -> String? {
        guard let raw = rawBytes() else { return nil }
        return String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// A record as ``CompactCheckpointWriter/record(_:)`` wrote it.
    mutating func record() -> Record? {
        guard let recordId = id(), let start = i64(), let flags = u8(), flags < 8 else { return nil }
        var record = Record(id: recordId, start: Instant(milliseconds: start))
        if flags & 1 != 0 {
            guard let end = i64() else { return nil }
            record.end = Instant(milliseconds: end)
        }
        if flags & 2 != 0 {
            guard let tagId = id() else { return nil }
            record.tagId = tagId
        }
        if flags & 4 != 0 {
            guard let comment = string() else { return nil }
            record.comment = comment
        }
        return record
    }

    /// A count of items each at least `minimumSize` bytes long, refused when the rest cannot hold them (so a
    /// damaged count cannot make the reader reserve absurd capacity).
    mutating func count(minimumSize: Int) -> Int? {
        guard let count = u32(), count <= (bytes.count - offset) / max(1, minimumSize) else { return nil }
        return count
    }

    /// An undo or redo entry as ``CompactCheckpointWriter/undoEntry(_:)`` wrote it.
    mutating func undoEntry() -> UndoEntry? {
        guard let batchStart = i64(), let inverseCount = count(minimumSize: 12) else { return nil }
        var inverses: [DomainEvent] = []
        for _ in 0..<inverseCount {
            guard let type = string(), let version = u32(), let data = rawBytes(),
                let json = try? JSON.parse(data.assumingMemoryBound(to: UInt8.self)),
                let event = try? DomainEvent(type: type, version: version, data: json)
            else { return nil }
            inverses.append(event)
        }
        return UndoEntry(batchStart: batchStart, inverses: inverses)
    }

    /// Reads the signature and layout version a checkpoint form starts with; `what` names the form in the
    /// error (`the checkpoint`, `the merged checkpoint`).
    mutating func header(magic: [UInt8], version: Int, what: String) throws(DomainError) {
        for byte in magic where u8() != byte {
            throw DomainError(.invalidCheckpoint, "\(what)'s signature is not readable; it will be rebuilt")
        }
        guard u32() == version else {
            throw DomainError(.invalidCheckpoint, "\(what) was written by a different version of Stint")
        }
    }
}
