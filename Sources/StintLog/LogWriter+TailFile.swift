public import StintCore

/// The `tail` file of a log directory (docs/log-format.md §1, §5.4): where a writer left the active segment —
/// its name, its size, and the offset of its last frame — so that the next writer opens the log by reading that
/// one frame instead of every frame of the segment. A cache: a missing, torn or stale one costs a full recovery,
/// never an event.
///
/// The file is four lines of text and the SHA-256 of them: `stint-tail 1`, the segment's name, its size, the
/// last frame's offset, then 64 hex digits.
struct TailFile: Hashable {
    static let name = "tail"
    static let header = "stint-tail 1"

    var segment: String
    var size: Int64
    var lastFrameOffset: Int64

    /// The file's bytes.
    var bytes: [UInt8] {
        DigestSealedText.seal(Array("\(TailFile.header)\n\(segment)\n\(size)\n\(lastFrameOffset)\n".utf8))
    }

    init(segment: String, size: Int64, lastFrameOffset: Int64) {
        self.segment = segment
        self.size = size
        self.lastFrameOffset = lastFrameOffset
    }

    /// Parses a tail file; nil for anything but the exact form with a matching digest.
    init?(bytes: [UInt8]) {
        guard let text = DigestSealedText.body(of: bytes) else { return nil }
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard lines.count == 5, lines[0] == TailFile.header, lines[4].isEmpty,
            LogDirectory.firstSeq(ofSegment: lines[1]) != nil, let size = Int64(lines[2]),
            let offset = Int64(lines[3]), offset >= 0, offset < size
        else { return nil }
        self.init(segment: lines[1], size: size, lastFrameOffset: offset)
    }

    /// The `tail` file of `directory`, when there is one that parses.
    static func read(in directory: LogDirectory) -> TailFile? {
        let fileSystem = directory.fileSystem
        guard let descriptor = try? fileSystem.openFile(directory.path(name), .readOnly) else { return nil }
        defer { fileSystem.close(descriptor) }
        guard
            let bytes = try? ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
                count: 4096, at: 0)
        else { return nil }
        return TailFile(bytes: bytes)
    }

    /// The last event of the one whole data frame from `offset` to `end`, the end of the file, and the digest of
    /// its line; nil when the file is not that.
    static func lastEvent(
        inFrameAt offset: Int64, endingAt end: Int64, of descriptor: Int32, fileSystem: any LogFileSystem,
        chunkSize: Int, decompressor: ZstdDecompressor
    ) -> (event: RecordedEvent, digest: SHA256Digest)? {
        guard (try? fileSystem.size(of: descriptor)) == end else { return nil }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: fileSystem), startingAt: offset, chunkSize: chunkSize,
            decompressor: decompressor)
        guard case .data(_, let size, let header, let content) = try? scanner.next(), offset + Int64(size) == end,
            SegmentLayout.isSegmentFrame(header),
            content.count > 1, content[content.count - 1] == 0x0A
        else { return nil }
        var start = content.count - 1
        while start > 0 && content[start - 1] != 0x0A { start -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: content[start..<content.count])
        guard let event = try? RecordedEvent(line: line.dropLast()) else { return nil }
        return (event, SHA256Digest(of: line))
    }
}

extension LogWriter {
    /// Writes the `tail` file for the active segment as this writer leaves it (through `tail.tmp` and a rename,
    /// not synced: a torn or lost one only costs the next writer a full recovery); removes a `tail` file once the
    /// log ends with a sealed segment (whose end is cheap to find) or the last frame's offset is not known.
    /// Failures are ignored: the file is a cache.
    func recordTailFile() {
        guard configuration.keepsTailFile, failure == nil else { return }
        let target = directory.path(TailFile.name)
        guard let active, let lastFrameOffset = active.lastFrameOffset else {
            if (try? fileSystem.kind(of: target)) != nil { try? fileSystem.removeFile(target) }
            return
        }
        let tail = TailFile(segment: active.name, size: active.size, lastFrameOffset: lastFrameOffset)
        writeCacheFile(named: TailFile.name, tail.bytes)
    }

    /// Takes the log's end from the `tail` file when the last segment is still as it describes: the same name and
    /// size, with one whole data frame (its checksum verified) from the recorded offset to the end, whose last line
    /// is the last event. Returns false, changing nothing, when there is no such file, it does not parse, the
    /// segment differs, or temporary files show an interrupted operation: the caller then recovers as without it.
    func recoverFromTailFile() throws(LogError) -> Bool {
        guard configuration.keepsTailFile, let tail = TailFile.read(in: directory) else { return false }
        let listing = try directory.listing()
        guard listing.temporaryFiles.isEmpty, let last = listing.segments.last, last.name == tail.segment else {
            return false
        }
        let segmentPath = directory.path(last.name)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(segmentPath, .readWrite)
        } catch {
            throw LogError.io(error, "open segment \(last.name)", path: segmentPath)
        }
        guard
            let event = TailFile.lastEvent(
                inFrameAt: tail.lastFrameOffset, endingAt: tail.size, of: descriptor, fileSystem: fileSystem,
                chunkSize: configuration.readChunkSize, decompressor: decompressor), event.event.seq >= last.firstSeq
        else {
            fileSystem.close(descriptor)
            return false
        }
        lastEvent = event.event
        lastSeq = event.event.seq
        lastDigest = event.digest
        active = ActiveSegment(
            name: last.name, firstSeq: last.firstSeq, descriptor: descriptor, size: tail.size,
            lastFrameOffset: tail.lastFrameOffset)
        if let active, active.size >= configuration.sealThreshold {
            try sealActiveSegment()
            recordTailFile()
        }
        return true
    }
}

extension LogReader {
    /// The last event of a log directory as the `tail` file a writer left points at it (docs/log-format.md §5.4),
    /// checked as a writer opening from the file checks it: the last segment has the file's name and size, and one
    /// whole data frame, its checksum verified, runs from the recorded offset to the end. Nil when there is no
    /// such file or the log is not as it says (read ``lastEvent(checkingChain:)`` then). The event is not
    /// checked against the lines before it.
    public func lastEventFromTailFile() -> RecordedEvent? {
        guard case .directory(let path) = source else { return nil }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        guard let tail = TailFile.read(in: directory), let last = try? directory.listing().segments.last,
            last.name == tail.segment,
            let descriptor = try? options.fileSystem.openFile(directory.path(last.name), .readOnly)
        else { return nil }
        defer { options.fileSystem.close(descriptor) }
        guard
            let found = TailFile.lastEvent(
                inFrameAt: tail.lastFrameOffset, endingAt: tail.size, of: descriptor, fileSystem: options.fileSystem,
                chunkSize: options.readChunkSize, decompressor: ZstdDecompressor()), found.event.seq >= last.firstSeq
        else { return nil }
        return found.event
    }
}
