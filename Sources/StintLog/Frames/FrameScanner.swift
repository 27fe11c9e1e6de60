/// One frame found by a ``FrameScanner``.
enum ScannedFrame {
    /// A data frame whose checksum verified; `content` is valid until the scanner's next call.
    case data(offset: Int64, size: Int, header: DataFrameHeader, content: UnsafeRawBufferPointer)
    /// A seal frame (skippable, magic 0x184D2A5E); `payload` is valid until the scanner's next call.
    case seal(offset: Int64, size: Int, payload: UnsafeRawBufferPointer)
    /// Another skippable frame, skipped.
    case skippable(offset: Int64, size: Int64, magic: UInt32)
    /// The bytes ended exactly after the previous frame.
    case end(offset: Int64)
    /// The bytes end inside the frame that starts at `offset` (every header read so far was valid).
    case incomplete(offset: Int64)
    /// The frame at `offset` is not readable. The scanner stays at `offset`: only
    /// ``FrameScanner/findNextValidFrame()`` moves it on, because a damaged block header can make a frame
    /// look longer than it was and hide the start of the next one.
    case unreadable(offset: Int64, reason: String, oversized: Bool)
}

/// Reads a sequence of zstd frames from a ``ByteSource`` with memory bounded by the largest frame.
///
/// Bytes are read in chunks of a configurable size (so tests can feed them one byte at a time), kept in
/// one reusable buffer, and released frame by frame. A data frame is returned only once it is whole and
/// its content checksum verified, so callers never see part of a frame.
final class FrameScanner {
    private let source: ByteSource
    private let chunkSize: Int
    private let decompressor: ZstdDecompressor
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var exhausted = false
    /// The offset in the source of the next frame (the byte at `buffer[start]`).
    private(set) var offset: Int64
    /// The compressed bytes of the data frame ``next()`` returned last, as the source holds them; nil after
    /// any other result. Valid, like the frame's content, until the next call.
    private(set) var lastDataFrame: UnsafeRawBufferPointer?

    /// The largest remainder ``findNextValidFrame()`` reads into memory to look for a valid frame.
    static let maximumSearch = 512 << 20

    init(source: ByteSource, startingAt offset: Int64 = 0, chunkSize: Int, decompressor: ZstdDecompressor) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        self.decompressor = decompressor
        self.offset = offset
        buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(4096, min(self.chunkSize, 1 << 20)), alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    private var available: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<end])
    }

    /// The next frame.
    func next() throws(SystemCallError) -> ScannedFrame {
        lastDataFrame = nil
        while true {
            switch FrameProbe(available) {
            case .needsBytes(let count):
                guard try fill(toAtLeast: count) else {
                    return end == start ? .end(offset: offset) : .incomplete(offset: offset)
                }
            case .invalid(let reason, let oversized):
                return .unreadable(offset: offset, reason: reason, oversized: oversized)
            case .skippable(let magic, let size):
                let frameOffset = offset
                if magic == FrameLimits.sealMagic && size - 8 <= FrameLimits.maximumSealPayload {
                    guard try fill(toAtLeast: Int(size)) else { return .incomplete(offset: frameOffset) }
                    let payload = UnsafeRawBufferPointer(rebasing: buffer[(start + 8)..<(start + Int(size))])
                    consume(Int(size))
                    return .seal(offset: frameOffset, size: Int(size), payload: payload)
                }
                guard try skip(size) else { return .incomplete(offset: frameOffset) }
                return .skippable(offset: frameOffset, size: size, magic: magic)
            case .data(let header, let size):
                let frameOffset = offset
                let frame = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + size)])
                do {
                    let content = try decompressor.decompress(frame, header: header)
                    consume(size)
                    lastDataFrame = frame
                    return .data(offset: frameOffset, size: size, header: header, content: content)
                } catch {
                    return .unreadable(offset: frameOffset, reason: error.reason, oversized: error.oversized)
                }
            }
        }
    }

    /// What ``FrameScanner/findNextValidFrame()`` found.
    enum Search {
        /// A valid frame starts at this offset; the scanner has moved there.
        case found(Int64)
        /// Nothing valid follows.
        case nothing
        /// The rest of the source is larger than ``FrameScanner/maximumSearch``; it was not searched.
        case tooLargeToSearch
    }

    /// Looks for the first offset after the current one (where an unreadable frame starts) at which a whole,
    /// checksum-valid data frame or a valid seal frame starts, reading the rest of the source into memory;
    /// moves the scanner there when found.
    func findNextValidFrame() throws(SystemCallError) -> Search {
        lastDataFrame = nil
        while try fill(toAtLeast: end - start + chunkSize) {
            if end - start > FrameScanner.maximumSearch { return .tooLargeToSearch }
        }
        let bytes = available
        var position = 1
        while position + 4 <= bytes.count {
            let magic = bytes.loadLittleEndianUInt32(at: position)
            if magic == FrameLimits.dataMagic || magic == FrameLimits.sealMagic,
                isValidFrame(UnsafeRawBufferPointer(rebasing: bytes[position...]))
            {
                consume(position)
                return .found(offset)
            }
            position += 1
        }
        return .nothing
    }

    /// Whether `bytes` start with a whole, checksum-valid data frame or a valid seal frame.
    private func isValidFrame(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch FrameProbe(bytes) {
        case .data(let header, let size):
            return (try? decompressor.decompress(UnsafeRawBufferPointer(rebasing: bytes[0..<size]), header: header))
                != nil
        case .skippable(let magic, let size):
            guard magic == FrameLimits.sealMagic, size <= Int64(bytes.count) else { return false }
            return (try? SealIndex(payload: UnsafeRawBufferPointer(rebasing: bytes[8..<Int(size)]))) != nil
        case .needsBytes, .invalid:
            return false
        }
    }

    private func consume(_ count: Int) {
        start += count
        offset += Int64(count)
    }

    /// Reads until at least `count` bytes are buffered; false when the source ends first.
    private func fill(toAtLeast count: Int) throws(SystemCallError) -> Bool {
        while end - start < count {
            if exhausted { return false }
            makeRoom(for: count)
            let room = min(chunkSize, buffer.count - end)
            let read = try source.read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + room)]),
                at: offset + Int64(end - start))
            if read == 0 {
                exhausted = true
            } else {
                end += read
            }
        }
        return true
    }

    /// Makes the buffer able to hold `count` bytes from `start` with room for at least one more read.
    private func makeRoom(for count: Int) {
        let needed = max(count, end - start + 1)
        if buffer.count - start >= needed { return }
        let kept = end - start
        if buffer.count < needed {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(needed, buffer.count * 2), alignment: 16)
            if kept > 0 {
                UnsafeMutableRawBufferPointer(rebasing: grown[0..<kept]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            }
            buffer.deallocate()
            buffer = grown
        } else if kept > 0 {
            (buffer.baseAddress! + 0).copyMemory(from: buffer.baseAddress! + start, byteCount: kept)
        }
        start = 0
        end = kept
    }

    /// Moves past `count` bytes, reading and discarding what is not buffered; false when the source ends
    /// first.
    private func skip(_ count: Int64) throws(SystemCallError) -> Bool {
        var remaining = count
        while remaining > 0 {
            if end == start {
                guard try fill(toAtLeast: 1) else { return false }
            }
            let step = Int(min(Int64(end - start), remaining))
            consume(step)
            remaining -= Int64(step)
        }
        return true
    }
}
