/// Where a ``FrameScanner`` gets its bytes: a file read at explicit offsets, a stream read in order, or
/// bytes already in memory.
enum ByteSource {
    /// A file read with `pread`, so that scanning can start at any offset; the descriptor is owned by
    /// whoever created the source.
    case file(descriptor: Int32, fileSystem: any LogFileSystem)
    /// A pipe or terminal read with `read` from its current position.
    case stream(descriptor: Int32, fileSystem: any LogFileSystem)
    /// Bytes the caller already has (for example, standard input it read itself).
    case memory([UInt8])
    /// A stream whose first bytes were already read (to tell compressed from plain input); they are
    /// returned first.
    case prefixedStream(prefix: [UInt8], descriptor: Int32, fileSystem: any LogFileSystem)

    /// Reads up to `buffer.count` bytes at `offset` (ignored by streams, which read in order).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        switch self {
        case .file(let descriptor, let fileSystem):
            return try fileSystem.read(descriptor, into: buffer, at: offset)
        case .stream(let descriptor, let fileSystem):
            return try fileSystem.read(descriptor, into: buffer, at: nil)
        case .memory(let bytes):
            guard offset < Int64(bytes.count) else { return 0 }
            let count = min(buffer.count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[Int(offset)..<(Int(offset) + count)]))
            }
            return count
        case .prefixedStream(let prefix, let descriptor, let fileSystem):
            if offset < Int64(prefix.count) {
                return try ByteSource.memory(prefix).read(into: buffer, at: offset)
            }
            return try fileSystem.read(descriptor, into: buffer, at: nil)
        }
    }

    /// Whether reading can start at any offset (false for streams, which can only skip forward by reading).
    var isSeekable: Bool {
        switch self {
        case .file, .memory: return true
        case .stream, .prefixedStream: return false
        }
    }
}

extension ByteSource {
    /// Reads up to `count` bytes at `offset`, fewer only when the source ends first.
    func readFully(count: Int, at offset: Int64) throws(SystemCallError) -> [UInt8] {
        guard count > 0 else { return [] }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        let done = try readFully(into: buffer, at: offset)
        return Array(buffer[0..<done])
    }

    /// Fills `buffer` from `offset`; how many bytes it holds, fewer than its size only when the source ends
    /// first.
    func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            let read = try self.read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
            if read == 0 { break }
            done += read
        }
        return done
    }
}
