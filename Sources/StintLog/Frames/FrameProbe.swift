internal import CZstd

/// What the header of a zstd data frame declares.
struct DataFrameHeader: Hashable, Sendable {
    /// Bytes from the magic number to the first block header.
    var headerSize: Int
    /// `Frame_Content_Size`, when present.
    var contentSize: Int64?
    /// Whether the frame ends with a content checksum (`Content_Checksum_flag`).
    var hasChecksum: Bool
    /// Whether the frame declares a dictionary.
    var dictionaryID: UInt32
}

/// The structure of the frame at the start of some bytes, found by reading its header and walking its
/// block headers (RFC 8878 §3.1) without decompressing anything.
///
/// Walking the blocks is what tells an *incomplete* frame (every header read so far is valid, but the
/// bytes end before the last block and checksum) from a *corrupt* one (a reserved bit or block type, a
/// block larger than the format allows, an unknown magic number).
enum FrameProbe: Hashable, Sendable {
    /// The bytes end inside the frame; at least this many bytes (from the frame's start) are needed to
    /// learn more. Always larger than the number of bytes probed.
    case needsBytes(Int)
    /// A structurally complete data frame of `size` bytes (its checksum is not verified yet).
    case data(DataFrameHeader, size: Int)
    /// A skippable frame of `size` bytes in all (8 header bytes and the payload).
    case skippable(magic: UInt32, size: Int64)
    /// Not a frame the log accepts; `oversized` when a declared size exceeds ``FrameLimits``.
    case invalid(reason: String, oversized: Bool)

    /// Probes the frame that starts at `bytes[0]`.
    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4 else {
            self = .needsBytes(4)
            return
        }
        let magic = bytes.loadLittleEndianUInt32(at: 0)
        if FrameLimits.isSkippable(magic) {
            guard bytes.count >= 8 else {
                self = .needsBytes(8)
                return
            }
            self = .skippable(magic: magic, size: 8 + Int64(bytes.loadLittleEndianUInt32(at: 4)))
            return
        }
        guard magic == FrameLimits.dataMagic else {
            self = .invalid(reason: "no zstd frame starts here (magic number \(hex32(magic)))", oversized: false)
            return
        }
        guard bytes.count >= 5 else {
            self = .needsBytes(5)
            return
        }
        let descriptor = bytes[4]
        guard descriptor & 0x08 == 0 else {
            self = .invalid(reason: "the frame header's reserved bit is set", oversized: false)
            return
        }
        let contentSizeFlag = Int(descriptor >> 6)
        let singleSegment = descriptor & 0x20 != 0
        let hasChecksum = descriptor & 0x04 != 0
        let dictionaryIDSize = [0, 1, 2, 4][Int(descriptor & 0x03)]
        let contentSizeSize = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]
        let headerSize = 5 + (singleSegment ? 0 : 1) + dictionaryIDSize + contentSizeSize
        guard bytes.count >= headerSize else {
            self = .needsBytes(headerSize)
            return
        }
        var cursor = 5
        if !singleSegment {
            let windowDescriptor = bytes[cursor]
            cursor += 1
            let windowLog = 10 + Int64(windowDescriptor >> 3)
            let windowBase: Int64 = 1 << windowLog
            let windowSize = windowBase + (windowBase / 8) * Int64(windowDescriptor & 0x07)
            guard windowSize <= 1 << Int64(FrameLimits.maximumWindowLog) else {
                self = .invalid(
                    reason: "the frame declares a \(windowSize)-byte window, more than the 2^27 bytes allowed",
                    oversized: true)
                return
            }
        }
        var dictionaryID: UInt32 = 0
        for index in 0..<dictionaryIDSize {
            dictionaryID |= UInt32(bytes[cursor + index]) << (8 * UInt32(index))
        }
        cursor += dictionaryIDSize
        var contentSize: Int64?
        if contentSizeSize > 0 {
            var value: UInt64 = 0
            for index in 0..<contentSizeSize {
                value |= UInt64(bytes[cursor + index]) << (8 * UInt64(index))
            }
            if contentSizeSize == 2 { value += 256 }
            guard value <= UInt64(FrameLimits.maximumContentSize) else {
                self = .invalid(
                    reason: "the frame declares \(value) bytes of content, more than the 256 MiB allowed",
                    oversized: true)
                return
            }
            contentSize = Int64(value)
        }
        let header = DataFrameHeader(
            headerSize: headerSize, contentSize: contentSize, hasChecksum: hasChecksum, dictionaryID: dictionaryID)
        // The largest frame that can decompress to the declared (or maximum) content size.
        let bound = Int(ZSTD_compressBound(Int(contentSize ?? FrameLimits.maximumContentSize))) + 64
        var position = headerSize
        while true {
            guard bytes.count >= position + 3 else {
                self = position + 3 > bound ? FrameProbe.tooLong(bound) : .needsBytes(position + 3)
                return
            }
            let blockHeader =
                UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
                | UInt32(bytes[position + 2]) << 16
            let isLast = blockHeader & 1 != 0
            let blockType = (blockHeader >> 1) & 0x03
            let blockSize = Int(blockHeader >> 3)
            guard blockType != 3 else {
                self = .invalid(reason: "block at frame offset \(position) has the reserved type", oversized: false)
                return
            }
            guard blockSize <= FrameLimits.maximumBlockSize else {
                self = .invalid(
                    reason: "block at frame offset \(position) declares \(blockSize) bytes, more than 128 KiB",
                    oversized: false)
                return
            }
            position += 3 + (blockType == 1 ? 1 : blockSize)
            if isLast { break }
            if position > bound {
                self = FrameProbe.tooLong(bound)
                return
            }
        }
        if hasChecksum { position += 4 }
        guard position <= bound else {
            self = FrameProbe.tooLong(bound)
            return
        }
        guard bytes.count >= position else {
            self = .needsBytes(position)
            return
        }
        self = .data(header, size: position)
    }

    private static func tooLong(_ bound: Int) -> FrameProbe {
        .invalid(reason: "the frame's blocks run past \(bound) bytes, more than its content can need", oversized: true)
    }
}

func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}

extension UnsafeRawBufferPointer {
    func loadLittleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func loadLittleEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
