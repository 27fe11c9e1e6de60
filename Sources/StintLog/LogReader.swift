import StintCore

/// Reads the events of a log, a single segment file, a plain `.jsonl` file, or bytes from a stream,
/// without taking the writer's lock.
///
/// Reading streams frame by frame with memory bounded by one frame, verifies each frame's checksum before
/// using any of its lines (so a batch is never seen in part), and can start at any `seq`: it finds the
/// segment by name and, in a sealed segment, seeks to the right frame through the seal index. An incomplete
/// last frame is treated as not yet written. Damage stops reading at the intact prefix and is reported as
/// the cursor's ``LogBatchCursor/warning``.
///
/// ```swift
/// let reader = try LogReader(path: "work.stint")
/// let events = try reader.events(from: 1)
/// while let event = try events.next() { print(event.seq, event.type) }
/// if let warning = events.warning { print("warning: \(warning)") }
/// ```
public struct LogReader: Sendable {
    /// How a reader reads.
    public struct Options: Sendable {
        /// The most bytes asked of the file system by one read (default 256 KiB).
        public var readChunkSize: Int
        /// Whether each event's `prev` is checked against the hash of the line before it (default true).
        public var checksChain: Bool
        /// Whether each line must be the canonical encoding of the event it decodes to (default false;
        /// verification and ingestion, which copies events by re-encoding them, check it).
        public var checksCanonical = false
        /// How many threads prepare the segments of a log directory ahead of the checks: read, decompress,
        /// decode and hash them (default ``defaultWorkers``: the processors online, at most 4). With 1 (or a
        /// single segment, a file or a stream) the calling thread reads everything itself; less than 1 counts
        /// as 1. The results, the warnings and the errors are the same for every count.
        public var workers: Int
        /// Whether a batch read from a data frame that holds it alone, every line checked without a problem,
        /// carries that frame's compressed bytes (``LogBatch/sourceFrame``; default false): ingestion asks, so
        /// that a mirror takes the frames the device wrote instead of compressing them again. Sealed frames
        /// hold many batches and carry none.
        package var keepsFrames = false
        /// The file operations (default ``POSIXFileSystem``).
        @_spi(FaultInjection) public var fileSystem: any LogFileSystem

        /// The default options.
        public init(readChunkSize: Int = 256 << 10, checksChain: Bool = true, workers: Int = Options.defaultWorkers) {
            self.readChunkSize = max(1, readChunkSize)
            self.checksChain = checksChain
            self.workers = max(1, workers)
            self.fileSystem = POSIXFileSystem()
        }

        /// The default number of workers: the processors online, at most 4.
        public static var defaultWorkers: Int { SegmentPipeline.defaultWorkerCount }
    }

    /// What a reader reads.
    public enum Kind: Hashable, Sendable {
        /// A log directory (`format`, segments).
        case directory
        /// One file: a segment (`.jsonl.zst`, zstd frames) or plain lines (`.jsonl`), told apart by content.
        case file
        /// Bytes from a stream or from memory, compressed or plain, told apart by content.
        case stream
    }

    enum Source: Sendable {
        case directory(String)
        case file(String)
        case stream(Int32)
        case bytes([UInt8])
    }

    let source: Source
    /// The path or name used in messages and locations.
    public let name: String
    /// The options this reader was made with.
    public let options: Options
    /// The version in the `format` file of a log directory opened by path (1 or 2); nil otherwise.
    private(set) var directoryFormat: Int?

    /// A reader of the log directory or file at `path`.
    ///
    /// - Throws: ``LogError/Code/notFound`` when nothing is at `path`; for a directory,
    ///   ``LogError/Code/notALog`` without a valid `format` file and ``LogError/Code/newerFormat`` when it
    ///   names a newer version.
    public init(path: String, options: Options = Options()) throws(LogError) {
        let kind: FileKind?
        do {
            kind = try options.fileSystem.kind(of: path)
        } catch {
            throw LogError.io(error, "look at \(path)", path: path)
        }
        switch kind {
        case nil:
            throw LogError(.notFound, "no log at \(path): nothing exists at that path")
        case .directory:
            directoryFormat = try LogDirectory(path: path, fileSystem: options.fileSystem).checkFormat()
            source = .directory(path)
        case .regularFile, .other:
            source = .file(path)
        }
        name = path
        self.options = options
    }

    /// A reader of bytes the caller already has, such as standard input it read (`stint … -`).
    public init(bytes: [UInt8], name: String = "-", options: Options = Options()) {
        source = .bytes(bytes)
        self.name = name
        self.options = options
    }

    /// A reader of a stream the caller opened, read from its current position (a pipe, standard input).
    ///
    /// The descriptor stays the caller's: the reader never closes it. A stream can be read once.
    public init(fileDescriptor: Int32, name: String = "-", options: Options = Options()) {
        source = .stream(fileDescriptor)
        self.name = name
        self.options = options
    }

    /// What this reader reads.
    public var kind: Kind {
        switch source {
        case .directory: return .directory
        case .file: return .file
        case .stream, .bytes: return .stream
        }
    }

    /// The batches whose last event is at or after `seq`, in order; the first may start before `seq`,
    /// since batches are never split.
    public func batches(from seq: Int64 = 1) throws(LogError) -> LogBatchCursor {
        LogBatchCursor(engine: try ReadEngine(reader: self, from: seq, check: checkOptions()), from: seq)
    }

    /// The events from `seq` on, in order.
    public func events(from seq: Int64 = 1) throws(LogError) -> LogEventCursor {
        LogEventCursor(batches: try batches(from: seq), from: seq)
    }

    /// The `seq` of the last event (0 for a log without events).
    ///
    /// For a directory this reads only the last segment: its seal index when it is sealed, otherwise its
    /// frames, decoding just the last line of the last whole frame; the cost does not grow with the log.
    /// Other sources are read through.
    public func lastSeq() throws(LogError) -> Int64 {
        if case .directory(let path) = source {
            return try ReadEngine.lastSeq(ofDirectory: path, options: options).seq
        }
        let cursor = try batches()
        while try cursor.next() != nil {}
        return cursor.lastSeq
    }

    /// How many events come before the log's last segment, from the segments' names alone (for a
    /// directory; other sources are read through, as ``lastSeq()`` reads them): a lower bound of the log's
    /// length that reads no segment, for sizing what a read of the log will hold.
    public func eventsBeforeLastSegment() throws(LogError) -> Int64 {
        guard case .directory(let path) = source else { return try lastSeq() }
        let segments = try LogDirectory(path: path, fileSystem: options.fileSystem).listing().segments
        return max(0, (segments.last?.firstSeq ?? 1) - 1)
    }

    /// The head at `seq`: the SHA-256 of that event's line; nil when the log (or its intact prefix) ends
    /// before `seq`.
    public func head(at seq: Int64) throws(LogError) -> LogHead? {
        var check = checkOptions()
        check.digestOfSeq = seq
        let engine = try ReadEngine(reader: self, from: seq, check: check)
        while let batch = try engine.nextBatch() {
            if batch.lastSeq >= seq { break }
        }
        return engine.checker.recordedDigest.map { LogHead(seq: seq, hash: $0.hex) }
    }

    /// The head of the log: its last event's `seq` and the SHA-256 of its line; nil for an empty log.
    public func head() throws(LogError) -> LogHead? {
        let last = try lastSeq()
        return last == 0 ? nil : try head(at: last)
    }

    func checkOptions() -> CheckOptions {
        var check = CheckOptions()
        check.checksChain = options.checksChain
        check.checksCanonical = options.checksCanonical
        check.directoryFormat = directoryFormat
        return check
    }
}
