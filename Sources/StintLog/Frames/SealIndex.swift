/// The content of a seal frame: which events a sealed segment holds and where each data frame starts.
///
/// Payload layout (all integers little-endian), docs/log-format.md §4.2:
/// `"STINTSEL"`, u32 version (1), u32 frame count n, u64 first seq, u64 last seq,
/// n × (u64 frame offset, u64 first seq of the frame), 32-byte SHA-256 of everything before it.
struct SealIndex: Hashable, Sendable {
    struct Entry: Hashable, Sendable {
        /// The byte offset of the data frame in the segment.
        var offset: Int64
        /// The `seq` of the frame's first event.
        var firstSeq: Int64
    }

    var firstSeq: Int64
    var lastSeq: Int64
    var entries: [Entry]

    static let signature = Array("STINTSEL".utf8)
    static let version: UInt32 = 1
    /// Payload bytes besides the entries: signature, version, count, first and last seq, digest.
    static let fixedPayloadSize = 8 + 4 + 4 + 8 + 8 + 32

    /// The payload size for `count` entries.
    static func payloadSize(entries count: Int) -> Int { fixedPayloadSize + 16 * count }

    /// The whole skippable frame: magic, payload size, payload.
    func encodedFrame() -> [UInt8] {
        var payload = [UInt8]()
        payload.reserveCapacity(SealIndex.payloadSize(entries: entries.count))
        payload.append(contentsOf: SealIndex.signature)
        payload.appendLittleEndian(SealIndex.version)
        payload.appendLittleEndian(UInt32(entries.count))
        payload.appendLittleEndian(UInt64(firstSeq))
        payload.appendLittleEndian(UInt64(lastSeq))
        for entry in entries {
            payload.appendLittleEndian(UInt64(entry.offset))
            payload.appendLittleEndian(UInt64(entry.firstSeq))
        }
        payload.append(contentsOf: SHA256Digest(of: payload).bytes)
        var frame = [UInt8]()
        frame.reserveCapacity(8 + payload.count)
        frame.appendLittleEndian(FrameLimits.sealMagic)
        frame.appendLittleEndian(UInt32(payload.count))
        frame.append(contentsOf: payload)
        return frame
    }

    /// Decodes and checks a seal payload (without the 8-byte frame header).
    ///
    /// - Throws: a sentence saying what is wrong with it.
    init(payload: UnsafeRawBufferPointer) throws(SealFailure) {
        guard payload.count >= SealIndex.fixedPayloadSize else {
            throw SealFailure(
                "the seal payload has \(payload.count) bytes, fewer than the \(SealIndex.fixedPayloadSize) minimum")
        }
        guard payload.prefix(8).elementsEqual(SealIndex.signature) else {
            throw SealFailure("the seal payload does not start with STINTSEL")
        }
        let version = payload.loadLittleEndianUInt32(at: 8)
        guard version == SealIndex.version else { throw SealFailure("the seal payload has version \(version), not 1") }
        let count = Int(payload.loadLittleEndianUInt32(at: 12))
        guard payload.count == SealIndex.payloadSize(entries: count) else {
            throw SealFailure(
                "the seal payload has \(payload.count) bytes, not the \(SealIndex.payloadSize(entries: count)) its \(count) entries need"
            )
        }
        let digestStart = payload.count - 32
        let digest = SHA256Digest(of: UnsafeRawBufferPointer(rebasing: payload[0..<digestStart]))
        guard digest.bytes.elementsEqual(payload[digestStart...]) else {
            throw SealFailure("the seal payload's SHA-256 does not match its content")
        }
        firstSeq = Int64(bitPattern: payload.loadLittleEndianUInt64(at: 16))
        lastSeq = Int64(bitPattern: payload.loadLittleEndianUInt64(at: 24))
        entries = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let base = 32 + 16 * index
            entries.append(
                Entry(
                    offset: Int64(bitPattern: payload.loadLittleEndianUInt64(at: base)),
                    firstSeq: Int64(bitPattern: payload.loadLittleEndianUInt64(at: base + 8))))
        }
        guard count >= 1, firstSeq >= 1, lastSeq >= firstSeq, entries[0].firstSeq == firstSeq,
            entries[0].offset == 0
        else {
            throw SealFailure("the seal index does not start with the segment's first frame and seq")
        }
        for index in 1..<count
        where entries[index].offset <= entries[index - 1].offset
            || entries[index].firstSeq <= entries[index - 1].firstSeq
            || entries[index].firstSeq > lastSeq
        {
            throw SealFailure("the seal index's entry \(index + 1) does not follow entry \(index)")
        }
    }

    init(firstSeq: Int64, lastSeq: Int64, entries: [Entry]) {
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.entries = entries
    }

    /// The index of the entry whose frame holds `seq` (the last entry starting at or before it).
    func entryIndex(holding seq: Int64) -> Int {
        var low = 0
        var high = entries.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if entries[middle].firstSeq <= seq { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Finds the seal frame at the end of a segment from the segment's last bytes.
    ///
    /// A seal frame with n entries is `72 + 16n` bytes long and ends the segment, so for n = 1, 2, … it
    /// would start at `fileSize − 72 − 16n`; the first candidate whose magic number, payload size,
    /// signature and frame count agree, and whose digest verifies, is the seal. `tail` holds the last
    /// `tail.count` bytes of a file of `fileSize` bytes.
    /// - Returns: the index and the seal frame's offset, or nil when the tail holds no seal frame.
    static func locate(inTail tail: UnsafeRawBufferPointer, fileSize: Int64) -> (SealIndex, offset: Int64)? {
        var count = 1
        while true {
            let frameSize = 8 + payloadSize(entries: count)
            guard frameSize <= tail.count else { return nil }
            let start = tail.count - frameSize
            if tail.loadLittleEndianUInt32(at: start) == FrameLimits.sealMagic,
                tail.loadLittleEndianUInt32(at: start + 4) == UInt32(frameSize - 8),
                tail.loadLittleEndianUInt32(at: start + 20) == UInt32(count),
                let index = try? SealIndex(payload: UnsafeRawBufferPointer(rebasing: tail[(start + 8)...]))
            {
                return (index, fileSize - Int64(frameSize))
            }
            count += 1
        }
    }
}

/// Why a seal frame is not valid.
struct SealFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension [UInt8] {
    mutating func appendLittleEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendLittleEndian(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
