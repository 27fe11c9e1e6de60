import StintCore

/// What a writer left at the end of the log: enough for the next writer to open the log without reading
/// its last segment, when nothing changed since.
///
/// A writer opened with a tail (``LogWriter/open(at:configuration:tail:)``) compares the last segment's name,
/// size and last bytes with it; when they match, the log ends where the tail says, and the last event is the
/// tail's line, so opening reads a few bytes instead of checking every frame of the active segment (or
/// decompressing the last frame of a sealed one, which can hold a whole import). When anything differs, the
/// writer checks the log's end as without a tail. Used only when the `checked` file vouches for every segment.
public struct LogTail: Hashable, Sendable {
    /// How many bytes of the segment's end are compared.
    static let endByteCount = 32

    /// The last segment's file name.
    public var segment: String
    /// Its size in bytes.
    public var size: Int64
    /// Its last bytes (at most 32): the end of the last frame, with its checksum.
    public var endBytes: [UInt8]
    /// Whether the segment is sealed (the next append starts a new one).
    public var sealed: Bool
    /// The last event's line, without its newline.
    public var lastLine: [UInt8]

    public init(segment: String, size: Int64, endBytes: [UInt8], sealed: Bool, lastLine: [UInt8]) {
        self.segment = segment
        self.size = size
        self.endBytes = endBytes
        self.sealed = sealed
        self.lastLine = lastLine
    }

    /// The size and last bytes (at most ``endByteCount``) of an open segment file: what a tail records of it.
    static func end(
        of descriptor: Int32, fileSystem: any LogFileSystem
    ) throws(SystemCallError) -> (size: Int64, bytes: [UInt8]) {
        let size = try fileSystem.size(of: descriptor)
        let count = Int(min(Int64(endByteCount), size))
        let bytes = try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
            count: count, at: size - Int64(count))
        return (size, bytes)
    }

    /// The segment's end this tail records.
    public var end: LogEnd { LogEnd(segment: segment, size: size, endBytes: endBytes) }

    /// Whether an open segment file (the one this tail names) ends as this tail says: it has the tail's size
    /// and its last bytes are the tail's.
    func isEnd(of descriptor: Int32, fileSystem: any LogFileSystem) throws(SystemCallError) -> Bool {
        try end.isEnd(of: descriptor, fileSystem: fileSystem)
    }
}

extension LogWriter {
    /// The log's end as this writer leaves it; nil before the first event or after a failure.
    public func tail() -> LogTail? {
        guard failure == nil, let lastEvent, let last = try? directory.listing().segments.last else { return nil }
        let segmentPath = directory.path(last.name)
        guard let descriptor = try? fileSystem.openFile(segmentPath, .readOnly) else { return nil }
        defer { fileSystem.close(descriptor) }
        guard let end = try? LogTail.end(of: descriptor, fileSystem: fileSystem) else { return nil }
        return LogTail(
            segment: last.name, size: end.size, endBytes: end.bytes, sealed: active == nil,
            lastLine: lastEvent.encodedLine())
    }

    /// Takes the log's end from `tail` when the last segment is as the tail describes it; returns false
    /// (changing nothing) when it is not, or when temporary files show an interrupted operation.
    func recover(from tail: LogTail) throws(LogError) -> Bool {
        let listing = try directory.listing()
        var line = tail.lastLine
        line.append(0x0A)
        // The tail's line must be the one the `checked` file vouched for: a tail kept elsewhere (the read models)
        // can be stale, foreign or damaged, and a wrong line would chain the next append to a wrong `prev`.
        guard listing.temporaryFiles.isEmpty, let last = listing.segments.last, last.name == tail.segment,
            let event = try? RecordedEvent(line: tail.lastLine), event.seq >= last.firstSeq,
            let vouchedHead, vouchedHead.seq == event.seq, vouchedHead.digest == SHA256Digest(of: line)
        else { return false }
        let segmentPath = directory.path(last.name)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(segmentPath, tail.sealed ? .readOnly : .readWrite)
        } catch {
            throw LogError.io(error, "open segment \(last.name)", path: segmentPath)
        }
        let matches: Bool
        do throws(SystemCallError) {
            matches = try tail.isEnd(of: descriptor, fileSystem: fileSystem)
        } catch {
            fileSystem.close(descriptor)
            throw LogError.io(error, "read segment \(last.name)", path: segmentPath)
        }
        guard matches else {
            fileSystem.close(descriptor)
            return false
        }
        lastEvent = event
        lastSeq = event.seq
        lastDigest = SHA256Digest(of: line)
        if tail.sealed {
            fileSystem.close(descriptor)
        } else {
            active = ActiveSegment(name: last.name, firstSeq: last.firstSeq, descriptor: descriptor, size: tail.size)
        }
        if let active, active.size >= configuration.sealThreshold {
            try sealActiveSegment()
        }
        return true
    }
}

extension LogReader {
    /// Whether this log directory ends as `tail` describes: its last segment has the tail's name, size and
    /// last bytes. Reads a directory listing and a few bytes; false for other sources.
    public func ends(as tail: LogTail) -> Bool { ends(at: tail.end) }
}
