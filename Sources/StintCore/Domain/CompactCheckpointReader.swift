/// Reads the fields ``CompactCheckpointWriter`` wrote, refusing (nil) anything that runs past the end: from
/// bytes in memory, or a piece at a time from a ``CheckpointByteSource`` through a small window (a merged
/// checkpoint of a million events, 54 MB, is then never held whole).
struct CompactCheckpointReader {
    /// The bytes at hand: all of them, or the window's.
    private(set) var bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    private let window: CheckpointWindow?

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        window = nil
    }

    /// A reader of the `size` bytes `source` gives, through a window of `window` bytes (larger for a field
    /// that needs it).
    init(source: any CheckpointByteSource, size: Int, window: Int = CheckpointWindow.capacity) {
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        self.window = CheckpointWindow(source: source, size: size, capacity: window)
    }

    /// How many bytes were read.
    var consumed: Int { (window?.consumedBeforeBytes ?? 0) + offset }

    /// How many bytes are left.
    var remaining: Int { (window.map { $0.size - $0.consumedBeforeBytes } ?? bytes.count) - offset }

    var isAtEnd: Bool { remaining == 0 }

    /// Whether `count` more bytes are at hand, after moving the window on if they were not.
    @inline(__always)
    private mutating func has(_ count: Int) -> Bool {
        bytes.count - offset >= count || moveWindow(toHold: count)
    }

    private mutating func moveWindow(toHold count: Int) -> Bool {
        guard let window, count <= remaining,
            let moved = window.move(keeping: UnsafeRawBufferPointer(rebasing: bytes[offset...]), atLeast: count)
        else { return false }
        window.consumedBeforeBytes += offset
        bytes = moved
        offset = 0
        return true
    }

    mutating func u8() -> UInt8? {
        guard has(1) else { return nil }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func u32() -> Int? {
        guard has(4) else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return Int(UInt32(littleEndian: value))
    }

    mutating func i64() -> Int64? {
        guard has(8) else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        offset += 8
        return Int64(littleEndian: value)
    }

    mutating func id() -> EntityID? {
        guard has(16) else { return nil }
        let high = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let low = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        offset += 16
        return EntityID(high: UInt64(littleEndian: high), low: UInt64(littleEndian: low))
    }

    /// A length-prefixed run of bytes, valid until the next read (a reader in pieces moves its window).
    mutating func rawBytes() -> UnsafeRawBufferPointer? {
        guard let count = u32(), has(count) else { return nil }
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
        guard let count = u32(), count <= remaining / max(1, minimumSize) else { return nil }
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

/// Where a ``CompactCheckpointReader`` in pieces gets its bytes: a checkpoint file decompressed as it is read.
public protocol CheckpointByteSource: AnyObject {
    /// Fills `buffer` from its start with the next bytes; how many (0 at the end), or nil when they cannot be
    /// read (the reader then refuses what it was reading).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
}

/// The window a ``CompactCheckpointReader`` in pieces reads through: the bytes not yet read moved to its start
/// and the rest filled from the source, grown only for a field larger than it.
final class CheckpointWindow {
    let source: any CheckpointByteSource
    /// How many bytes the source gives in all.
    let size: Int
    /// How many bytes were read before the reader's current bytes.
    var consumedBeforeBytes = 0
    private var buffer: UnsafeMutableRawBufferPointer
    private var delivered = 0

    /// The usual size of the window.
    static let capacity = 1 << 20

    init(source: any CheckpointByteSource, size: Int, capacity: Int) {
        self.source = source
        self.size = size
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, capacity), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The window moved on: `kept` (the bytes not read yet, which may lie in the window) at its start, then as
    /// many new bytes as it holds; nil when fewer than `count` bytes in all are left.
    func move(keeping kept: UnsafeRawBufferPointer, atLeast count: Int) -> UnsafeRawBufferPointer? {
        if count > buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, buffer.count * 2), alignment: 16)
            grown.copyMemory(from: kept)
            buffer.deallocate()
            buffer = grown
        } else if kept.count > 0 {
            // memmove: the kept bytes may overlap their new place.
            buffer.baseAddress!.copyMemory(from: kept.baseAddress!, byteCount: kept.count)
        }
        var filled = kept.count
        while filled < buffer.count, delivered < size {
            let room = min(buffer.count - filled, size - delivered)
            guard
                let read = source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + room)])),
                read > 0
            else { break }
            filled += read
            delivered += read
        }
        guard filled >= count else { return nil }
        return UnsafeRawBufferPointer(rebasing: buffer[..<filled])
    }
}
