public import StintCore
@_spi(FaultInjection) package import StintLog

/// A log to read, without taking the writer's lock: a log directory, one segment file (`.jsonl.zst`), a
/// plain `.jsonl` file, or the bytes of one (standard input).
///
/// The engine's reads (``LogView``, ``ProjectionView``, ``RecordsView``, ``RecordStream``,
/// ``PublishReplay``), the audit walk over its events and ``verify(expecting:validatingEach:)`` all start
/// from a source; what the log layer does underneath (frames, segments, checkpoints) stays behind it.
///
/// ```swift
/// let source = try LogSource.open(path: path, options: options)
/// let events = try source.events()
/// while let event = try events.next() { print(event.seq, event.type) }
/// ```
public struct LogSource: Sendable {
    /// The log directory or file; for a replica, its own log; nil for a store that is not a log.
    package let reader: LogReader?
    /// How the views of the store are folded: the read side's seam (``ReadFold``).
    package let fold: any ReadFold

    /// A single log's source.
    package init(reader: LogReader) {
        self.init(reader: reader, fold: LogReadFold(reader: reader))
    }

    package init(reader: LogReader?, fold: any ReadFold) {
        self.reader = reader
        self.fold = fold
    }

    /// The events of `store`, an ``EventStore`` the engine keeps no caches for (an ``InMemoryEventStore``, an
    /// app's own): every view folds its batches from the first by a single log's rules. The caller keeps the
    /// store open while the source and its views are read, and closes it.
    ///
    /// - Parameter name: what messages call the store.
    public init(store: any EventStore & Sendable, name: String) {
        self.init(reader: nil, fold: StoreReadFold(store: store, name: name))
    }

    /// The log directory or file at `path`, read through `options`' file system (the real one for nil).
    ///
    /// - Throws: ``StintError`` (refused) when nothing is at `path` (``StintError/isMissingLog``) or a
    ///   directory is not a log, (damaged) when its format is newer than this build.
    public static func open(path: String, options: EngineOptions? = nil) throws(StintError) -> LogSource {
        let readerOptions = options?.readOptions ?? LogReader.Options()
        do {
            let reader = try LogReader(path: path, options: readerOptions)
            if let options, reader.kind == .directory, Space.isReplica(log: path, options: options) {
                let history = MergedHistory(log: path, options: options)
                return LogSource(reader: reader, fold: ReplicaReadFold(own: reader, history: history))
            }
            return LogSource(reader: reader)
        } catch {
            throw StintError(error)
        }
    }

    /// Bytes the caller already has, compressed or plain, such as standard input it read.
    public init(bytes: [UInt8], name: String) {
        self.init(reader: LogReader(bytes: bytes, name: name))
    }

    /// Whether the log is part of a space: its reads are of the merged history of every device.
    public var isReplica: Bool { fold.mergesDevices }

    /// The devices whose logs a replica holds (its own and every mirror), in id order; none for a log that
    /// is not part of a space.
    public func devices() throws(StintError) -> [DeviceID] { try fold.devices() }

    /// The path or name used in messages.
    public var name: String { fold.name }

    /// The log's settings (time zone, first weekday), read from its first event (a replica's: the founding
    /// device's).
    ///
    /// - Throws: ``StintError`` (damaged) for a log without events or whose first event is not a valid
    ///   `log.created`.
    public func settings() throws(StintError) -> LogSettings { try fold.settings() }

    /// The events from `seq` on, in order, each checked (checksums, order, hash chain) before it is handed
    /// out; damage ends the walk at the intact prefix and is the cursor's ``EventCursor/warning``.
    public func events(from seq: Int64 = 1) throws(StintError) -> EventCursor { try fold.events(from: seq) }

    /// The `seq` of the last event of a single log (0 for a log without events); cheap for a directory, a
    /// read through for a file or bytes. nil when it cannot be read, and for a replica or another store.
    public func lastSeq() -> Int64? { fold.lastSeq() }
}

/// The events of a ``LogSource``, one at a time; made by ``LogSource/events(from:)``.
public final class EventCursor {
    private let cursor: LogEventCursor?
    /// A store's batches (a replica's merged history), what closes the store they come from, and the events of
    /// the current batch not handed out yet.
    private let batches: (any StoreBatchCursor)?
    private let close: (() -> Void)?
    private var pending: ArraySlice<RecordedEvent> = []
    /// In a replica's merged history, the device of the last event handed out (the events a log held before
    /// it became part of a space carry none); nil for a log.
    public private(set) var device: DeviceID?

    init(_ cursor: LogEventCursor) {
        self.cursor = cursor
        batches = nil
        close = nil
    }

    /// The events of a store's `batches`, after `pending` (the rest of a batch already read); `close` closes
    /// the store when the cursor goes.
    init(_ batches: any StoreBatchCursor, pending: [RecordedEvent] = [], close: (() -> Void)? = nil) {
        cursor = nil
        self.batches = batches
        self.pending = pending[...]
        self.close = close
    }

    deinit {
        close?()
    }

    /// The next event; nil at the end of the log or of its intact prefix.
    ///
    /// - Throws: ``StintError`` when a read fails.
    public func next() throws(StintError) -> RecordedEvent? {
        guard let cursor else {
            if pending.isEmpty, let batch = try batches?.next() {
                pending = batch.events[...]
                device = batch.device
            }
            return pending.popFirst()
        }
        do {
            return try cursor.next()
        } catch {
            throw StintError(error)
        }
    }

    /// Why the walk ended before the end of the log (where the damage is and what it is), if it did.
    public var warning: String? { cursor?.warning?.description ?? batches?.damage?.message }
}
