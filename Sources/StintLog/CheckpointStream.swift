internal import CZstd
public import StintCore

/// A checkpoint file read a piece at a time: its header line is checked when it is opened, and its payload
/// is decompressed as it is read, straight into the reader's buffer. A merged checkpoint of a million events
/// (39 MB on disk, 54 MB of payload) is then never held whole, compressed or not.
///
/// The frame's checksum covers the whole content and is only known at its end: a reader keeps nothing it
/// built from the payload unless ``finish()`` says the payload had its declared size, the frame ended
/// there with its checksum verified, and nothing follows it in the file.
public final class CheckpointStream: CheckpointByteSource {
    /// What the checkpoint's header line says.
    public private(set) var header: CheckpointStore.Header
    /// How many payload bytes follow the header line.
    public private(set) var size: Int

    private let fileSystem: any LogFileSystem
    private let descriptor: Int32
    private let fileSize: Int64
    private let context: OpaquePointer
    /// Compressed bytes read from the file and not decompressed yet: `input[inputStart..<inputEnd]`.
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var fileOffset: Int64 = 0
    /// Payload bytes decompressed but not handed out yet (those after a line read).
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// How many payload bytes were handed out or held in `pending`.
    private var produced = 0
    private var frameEnded = false
    private var failed = false

    /// How many compressed bytes are read from the file at a time.
    static let readSize = 1 << 18
    /// The longest header line accepted.
    static let maximumLine = 1 << 16

    /// Opens the checkpoint at `path` and reads its header line; nil when the file cannot be read, is not
    /// one zstd frame with a checksum and a declared size, or its line is not a checkpoint header for `seq`.
    init?(fileSystem: any LogFileSystem, path: String, seq: Int64) {
        guard let descriptor = try? fileSystem.openFile(path, .readOnly) else { return nil }
        guard let size = try? fileSystem.size(of: descriptor) else {
            fileSystem.close(descriptor)
            return nil
        }
        self.fileSystem = fileSystem
        self.descriptor = descriptor
        fileSize = size
        context = ZSTD_createDCtx()
        _ = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, FrameLimits.maximumWindowLog)
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        // Placeholders until the header line is read.
        header = CheckpointStore.Header(head: LogHead(seq: 0, hash: ""), at: Instant(milliseconds: 0), version: 0)
        self.size = 0
        guard refill(), let contentSize = frameContentSize(), let line = readLine(maximum: Self.maximumLine),
            let json = try? JSON.parse(line),
            let header = CheckpointStore.header(json, seq: seq, payloadSize: contentSize - line.count - 1)
        else { return nil }
        self.header = header
        self.size = contentSize - line.count - 1
        produced -= line.count + 1  // The payload starts after the line.
    }

    deinit {
        fileSystem.close(descriptor)
        ZSTD_freeDCtx(context)
        input.deallocate()
    }

    /// The declared content size of the frame the file starts with, when it declares one, has a checksum,
    /// and is a data frame the log accepts.
    private func frameContentSize() -> Int? {
        var frame = ZSTD_frameHeader()
        let result = ZSTD_getFrameHeader(&frame, input.baseAddress, inputEnd)
        guard result == 0, frame.frameType == ZSTD_frame, frame.checksumFlag == 1,
            frame.frameContentSize <= UInt64(FrameLimits.maximumContentSize)
        else { return nil }
        return Int(frame.frameContentSize)
    }

    /// Reads the next compressed bytes of the file; false at its end or on a failed read.
    private func refill() -> Bool {
        guard fileOffset < fileSize,
            let count = try? fileSystem.read(descriptor, into: input, at: fileOffset), count > 0
        else { return false }
        fileOffset += Int64(count)
        inputStart = 0
        inputEnd = count
        return true
    }

    /// Decompresses into `out` until it is full or the frame ends; how many bytes it holds, nil on damage.
    private func decompress(into out: UnsafeMutableRawBufferPointer) -> Int? {
        guard !failed else { return nil }
        var output = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
        while output.pos < output.size, !frameEnded {
            if inputStart == inputEnd, !refill() {
                failed = true  // The file ends inside the frame.
                return nil
            }
            var source = ZSTD_inBuffer(src: input.baseAddress! + inputStart, size: inputEnd - inputStart, pos: 0)
            let result = ZSTD_decompressStream(context, &output, &source)
            inputStart += source.pos
            if stint_zstd_is_error(result) != 0 {
                failed = true
                return nil
            }
            if result == 0 { frameEnded = true }
        }
        produced += output.pos
        return output.pos
    }

    /// The content up to the next newline (which is read and dropped), at most `maximum` bytes; nil when
    /// there is no newline in them.
    public func readLine(maximum: Int) -> [UInt8]? {
        var searched = pendingStart
        while true {
            if let newline = pending[searched...].firstIndex(of: 0x0A) {
                let line = Array(pending[pendingStart..<newline])
                pendingStart = newline + 1
                return line
            }
            guard pending.count - pendingStart < maximum, !frameEnded else { return nil }
            searched = pending.count
            var piece = [UInt8](repeating: 0, count: 4096)
            guard let count = piece.withUnsafeMutableBytes({ decompress(into: $0) }) else { return nil }
            pending.append(contentsOf: piece[..<count])
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if pendingStart < pending.count {
            let count = min(buffer.count, pending.count - pendingStart)
            pending.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[pendingStart..<(pendingStart + count)]))
            }
            pendingStart += count
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            return count
        }
        return decompress(into: buffer)
    }

    /// Whether the payload was read whole and was exactly ``size`` bytes, the frame ended there with its
    /// checksum verified, and the file ends with the frame: only then may what was built from it be used.
    public func finish() -> Bool {
        guard !failed, pendingStart == pending.count, produced == size else { return false }
        if !frameEnded {
            // The end of the frame (its last block and checksum) may still be unread: nothing more may come.
            var spare: UInt8 = 0
            guard withUnsafeMutableBytes(of: &spare, { decompress(into: $0) }) == 0, frameEnded else { return false }
        }
        return inputStart == inputEnd && fileOffset == fileSize
    }
}
