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
    /// The log directory or file; for a replica, its own log.
    package let reader: LogReader
    /// For a log that is part of a space (a replica, docs/decisions/0007): its merged history, which every
    /// read of the source reads instead of the own log alone.
    package let space: MergedHistory?

    package init(reader: LogReader, space: MergedHistory? = nil) {
        self.reader = reader
        self.space = space
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
                return LogSource(reader: reader, space: MergedHistory(log: path, options: options))
            }
            return LogSource(reader: reader)
        } catch {
            throw StintError(error)
        }
    }

    /// Bytes the caller already has, compressed or plain, such as standard input it read.
    public init(bytes: [UInt8], name: String) {
        reader = LogReader(bytes: bytes, name: name)
        space = nil
    }

    /// Whether the log is part of a space: its reads are of the merged history of every device.
    public var isReplica: Bool { space != nil }

    /// The devices whose logs a replica holds (its own and every mirror), in id order; none for a log that
    /// is not part of a space.
    public func devices() throws(StintError) -> [DeviceID] {
        guard let space else { return [] }
        let opened = try Space.open(log: space.log, options: space.options)
        return Array(Set(try opened.mirroredDevices() + [opened.device])).sorted()
    }

    /// The path or name used in messages.
    public var name: String { reader.name }

    /// The log's settings (time zone, first weekday), read from its first event.
    ///
    /// - Throws: ``StintError`` (damaged) for a log without events or whose first event is not a valid
    ///   `log.created`.
    public func settings() throws(StintError) -> LogSettings {
        if let space {
            guard let settings = try Space.open(log: space.log, options: space.options).settings() else {
                throw StintError(
                    .damaged,
                    "no log of the space at \(space.log) begins with log.created yet; run 'stint sync' to bring in the "
                        + "founding device's")
            }
            return settings
        }
        guard let first = try events().next() else {
            throw StintError(.damaged, "the log \(name) has no events; create a log with 'stint init'")
        }
        do {
            return try LogState(genesis: first).settings
        } catch {
            throw StintError(error)
        }
    }

    /// The events from `seq` on, in order, each checked (checksums, order, hash chain) before it is handed
    /// out; damage ends the walk at the intact prefix and is the cursor's ``EventCursor/warning``.
    public func events(from seq: Int64 = 1) throws(StintError) -> EventCursor {
        if let space, seq <= 1 {
            let (store, cursor) = try space.batches()
            return EventCursor(merged: cursor, closing: store)
        }
        do {
            return EventCursor(try reader.events(from: seq))
        } catch {
            throw StintError(error)
        }
    }

    /// The `seq` of the last event (0 for a log without events); cheap for a directory, a read through
    /// for other sources. nil when it cannot be read.
    public func lastSeq() -> Int64? {
        guard space == nil else { return nil }
        return try? reader.lastSeq()
    }
}

/// The events of a ``LogSource``, one at a time; made by ``LogSource/events(from:)``.
public final class EventCursor {
    private let cursor: LogEventCursor?
    /// A replica's merged batches, the store they come from, and the events of the current batch not handed
    /// out yet.
    private let merged: (any StoreBatchCursor)?
    private let store: MergedStore?
    private var pending: ArraySlice<RecordedEvent> = []
    /// In a replica's merged history, the device of the last event handed out (the events a log held before
    /// it became part of a space carry none); nil for a log.
    public private(set) var device: DeviceID?

    init(_ cursor: LogEventCursor) {
        self.cursor = cursor
        merged = nil
        store = nil
    }

    init(merged: any StoreBatchCursor, closing store: MergedStore) {
        cursor = nil
        self.merged = merged
        self.store = store
    }

    deinit {
        store?.close()
    }

    /// The next event; nil at the end of the log or of its intact prefix.
    ///
    /// - Throws: ``StintError`` when a read fails.
    public func next() throws(StintError) -> RecordedEvent? {
        guard let cursor else {
            if pending.isEmpty, let batch = try merged?.next() {
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
    public var warning: String? { cursor?.warning?.description ?? merged?.damage?.message }
}
