public import StintCore
public import StintLog

/// The log directory as an event store: zstd segments of JSON lines with the hash chain
/// (docs/log-format.md), read with ``LogReader`` and appended to with ``LogWriter``.
///
/// A store opened with `holdingLock` takes the writer's lock when it opens (repairing a torn tail) and keeps
/// it until ``close()``, so no other process appends meanwhile; otherwise each append takes the lock,
/// repairs what an interrupted writer left, compares the head, appends and syncs, and releases it.
///
/// ```swift
/// let store = try LogDirectoryStore.open(at: path, options: options)
/// let cursor = try store.batches(after: nil)
/// ```
public final class LogDirectoryStore: EventStore {
    /// The log directory.
    public let path: String
    /// How the store reads the log (checkpoints use the same reader).
    public let reader: LogReader
    let options: EngineOptions
    /// The instant the writer records the next batch at.
    private let instant: CommandInstant
    private var writer: LogWriter?
    private let holdsLock: Bool
    private var isClosed = false

    private init(
        path: String, reader: LogReader, writer: LogWriter?, instant: CommandInstant, options: EngineOptions
    ) {
        self.path = path
        self.reader = reader
        self.writer = writer
        self.holdsLock = writer != nil
        self.instant = instant
        self.options = options
    }

    deinit {
        writer?.close()
    }

    /// Opens the log directory at `path`.
    ///
    /// - Parameters:
    ///   - holdingLock: take the writer's lock now (repairing a torn tail) and keep it until ``close()``;
    ///     otherwise appends take it one at a time.
    /// - Throws: ``StintError`` (refused) when `path` is not a log or the lock is held beyond the configured
    ///   time, (damaged) for a log damaged before its tail or written by a newer Stint.
    ///   - tail: called once the lock is held: the end of the log as the last writer left it, if the caller
    ///     kept it (``tail()``), so that opening reads a few bytes instead of the last segment's frames.
    public static func open(
        at path: String, holdingLock: Bool = false, options: EngineOptions, tail: () -> LogTail? = { nil }
    ) throws(StintError) -> LogDirectoryStore {
        let instant = CommandInstant(options.clock())
        var writer: LogWriter?
        do {
            if holdingLock {
                writer = try LogWriter.open(
                    at: path, configuration: options.logConfiguration(clock: instant), tail: tail)
            }
            let reader = try LogReader(path: path, options: options.readOptions)
            guard reader.kind == .directory else {
                throw StintError(.refused, "\(path) is a file, not a log directory; give the directory of a log")
            }
            return LogDirectoryStore(path: path, reader: reader, writer: writer, instant: instant, options: options)
        } catch {
            writer?.close()
            throw StintError(error)
        }
    }

    /// Creates a log directory at `path` whose first event is `genesis`, and keeps its lock.
    ///
    /// - Throws: ``StintError`` (refused) when something other than an empty directory is at `path`, its
    ///   parent does not exist, or a write fails.
    public static func create(at path: String, genesis: EventDraft, recordedAt reading: Instant, options: EngineOptions)
        throws(StintError) -> LogDirectoryStore
    {
        try create(at: path, genesis: genesis, recordedAt: reading, options: options, receiving: nil)
    }

    /// ``create(at:genesis:recordedAt:options:)`` whose first event's `hlc` is received from `remote`.
    static func create(
        at path: String, genesis: EventDraft, recordedAt reading: Instant, options: EngineOptions,
        receiving remote: HLC?
    ) throws(StintError) -> LogDirectoryStore {
        let instant = CommandInstant(reading)
        let writer: LogWriter
        do {
            writer = try LogWriter.create(
                at: path, settingsEvent: genesis, configuration: options.logConfiguration(clock: instant),
                receiving: remote)
        } catch {
            throw StintError(error)
        }
        do {
            let reader = try LogReader(path: path, options: options.readOptions)
            return LogDirectoryStore(path: path, reader: reader, writer: writer, instant: instant, options: options)
        } catch {
            writer.close()
            throw StintError(error)
        }
    }

    /// The last event the store's own writer knows of (the first event, right after ``create``).
    var lastWrittenEvent: RecordedEvent? { writer?.lastEvent }

    /// The last event and the head the store's writer knows, checked when it opened the log and as it wrote
    /// (what ``LogReader/lastEvent(checkingChain:)`` reads again); nil without the lock or events.
    var lastWritten: (event: RecordedEvent, head: LogHead)? { writer?.lastWritten }

    /// Where the store's writer appends next while the last segment is active (``LogWriter/activeEnd``).
    var activeEnd: (segment: String, size: Int64)? { writer?.activeEnd }

    /// The end of the log as this store's writer leaves it, for the next ``open(at:holdingLock:options:tail:)``;
    /// nil when the store does not hold the lock.
    public func tail() -> LogTail? {
        writer?.tail()
    }

    public func head() throws(StintError) -> StoreHead? {
        do throws(LogError) {
            if let writer { return writer.head.map(StoreHead.init) }
            return try reader.head().map(StoreHead.init)
        } catch {
            throw StintError(error)
        }
    }

    public func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor {
        let seq = position?.seq ?? 0
        let cursor: LogBatchCursor
        do throws(LogError) {
            // The writer holding the lock knows the end without reading (the last frame of an active
            // segment can be a whole import).
            let last = if let writer { writer.head?.seq ?? 0 } else { try reader.lastSeq() }
            if seq > 0, last < seq {
                throw LogError(.invalidInput, "the log at \(path) ends before \(position!): it has no such position")
            }
            cursor = try reader.batches(from: seq + 1)
        } catch {
            throw StintError(error)
        }
        return Cursor(cursor, after: position)
    }

    public func append(
        _ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?
    ) throws(StintError) -> AppendOutcome {
        try append(drafts, recordedAt: reading, expecting: expected, receiving: nil)
    }

    /// ``append(_:recordedAt:expecting:)`` whose batch's hybrid logical clock first receives `remote`, the
    /// newest reading of other devices' events the replica holds (``LogWriter/append(_:receiving:)``).
    func append(
        _ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?, receiving remote: HLC?
    ) throws(StintError) -> AppendOutcome {
        guard !isClosed else {
            throw StintError(.refused, "the store of \(path) was closed; open the log again to append")
        }
        let writer: LogWriter
        if let held = self.writer {
            writer = held
        } else {
            do throws(LogError) {
                writer = try LogWriter.open(at: path, configuration: options.logConfiguration(clock: instant))
            } catch {
                throw StintError(error)
            }
        }
        defer { if !holdsLock { writer.close() } }
        let current = writer.head.map(StoreHead.init)
        guard current == expected else { return .conflict(current: current) }
        do {
            instant.value = reading
            let events = try writer.append(drafts, receiving: remote)
            guard let head = writer.head else {
                throw StintError(.refused, "the log at \(path) has no head after an append")
            }
            return .appended(StoredBatch(events: events), head: StoreHead(head))
        } catch {
            throw StintError(error)
        }
    }

    public func close() {
        isClosed = true
        writer?.close()
        writer = nil
    }

    private final class Cursor: StoreBatchCursor {
        private let cursor: LogBatchCursor
        /// The position the first batch must follow, until it is read.
        private var after: StorePosition?

        init(_ cursor: LogBatchCursor, after position: StorePosition?) {
            self.cursor = cursor
            after = position
        }

        func next() throws(StintError) -> StoredBatch? {
            let batch: LogBatch?
            do throws(LogError) {
                batch = try cursor.next()
            } catch {
                throw StintError(error)
            }
            guard let batch else { return nil }
            if let position = after {
                after = nil
                // The batch after the position's event, or after the gap that event (a `log.repaired`) names.
                let follows =
                    batch.firstSeq == position.seq + 1
                    || (batch.firstSeq > position.seq && cursor.lastSeqBefore == position.seq)
                guard follows else {
                    throw StintError(.refused, "\(position) is inside a batch, not after one")
                }
            }
            return StoredBatch(events: batch.events)
        }

        var damage: StintError? {
            cursor.warning.map { StintError(.damaged, $0.message) }
        }
    }
}

extension StoreHead {
    /// The head of a log directory.
    init(_ head: LogHead) {
        self.init(position: StorePosition(seq: head.seq), hash: head.hash)
    }

    /// The head in the log layer's terms.
    var logHead: LogHead { LogHead(seq: position.seq, hash: hash) }
}
