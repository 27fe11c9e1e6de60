/// Where a log directory ends: its last segment's name, size and last bytes (at most ``LogTail/endByteCount``:
/// the end of the last frame, with its checksum). What a reader compares to know that a log is still as it
/// was when something was computed from it, without reading its events: an append, a seal or a repair
/// changes it. A replica's read models keep one per device (docs/read-models.md).
public struct LogEnd: Hashable, Sendable {
    /// The last segment's file name.
    public var segment: String
    /// Its size in bytes.
    public var size: Int64
    /// Its last bytes.
    public var endBytes: [UInt8]

    public init(segment: String, size: Int64, endBytes: [UInt8]) {
        self.segment = segment
        self.size = size
        self.endBytes = endBytes
    }

    /// Whether an open segment file (the one this end names) has this size and these last bytes.
    func isEnd(of descriptor: Int32, fileSystem: any LogFileSystem) throws(SystemCallError) -> Bool {
        let size = try fileSystem.size(of: descriptor)
        let count = endBytes.count
        guard size == self.size && Int64(count) <= size else { return false }
        let end = try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
            count: count, at: size - Int64(count))
        return end == endBytes
    }
}

extension LogReader {
    /// Where this log directory ends now; nil for other sources, and for a directory without segments or whose
    /// last segment cannot be read. Reads a directory listing and a few bytes.
    public func end() -> LogEnd? {
        guard case .directory(let path) = source else { return nil }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        let fileSystem = options.fileSystem
        guard let last = try? directory.listing().segments.last,
            let descriptor = try? fileSystem.openFile(directory.path(last.name), .readOnly)
        else { return nil }
        defer { fileSystem.close(descriptor) }
        guard let end = try? LogTail.end(of: descriptor, fileSystem: fileSystem) else { return nil }
        return LogEnd(segment: last.name, size: end.size, endBytes: end.bytes)
    }

    /// Whether this log directory ends at `end`: its last segment has that name, size and last bytes. Reads a
    /// directory listing and a few bytes; false for other sources.
    public func ends(at end: LogEnd) -> Bool {
        guard case .directory(let path) = source else { return false }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        guard let last = try? directory.listing().segments.last, last.name == end.segment else { return false }
        let fileSystem = options.fileSystem
        guard let descriptor = try? fileSystem.openFile(directory.path(last.name), .readOnly) else { return false }
        defer { fileSystem.close(descriptor) }
        return (try? end.isEnd(of: descriptor, fileSystem: fileSystem)) == true
    }
}
