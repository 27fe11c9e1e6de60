public import StintCore

/// Where the events of a log are kept: the seam between the engine and storage.
///
/// A store reads batches after a position, reports its head, and appends one decided batch atomically,
/// only if its head is still the one the batch was decided against (optimistic concurrency, as an expected
/// revision in EventStoreDB). The store places the events (`seq`, `at`, `tx`, `clock`, the hash chain) and
/// checks their order and continuity when it reads them; above it, positions are opaque.
///
/// The log directory (``LogDirectoryStore``) and ``InMemoryEventStore`` are the implementations; both pass
/// one contract test suite. ``TimeLog`` runs commands against any of them:
///
/// ```swift
/// let store = InMemoryEventStore()
/// let log = try TimeLog.create(in: store, timeZone: "UTC", firstWeekday: 2, options: options)
/// ```
public protocol EventStore: AnyObject {
    /// The position and hash after the store's last batch; nil when the store holds no events.
    func head() throws(StintError) -> StoreHead?

    /// The batches after `position` (all of them for nil), in order.
    ///
    /// - Throws: ``StintError`` (refused) for a position this store never gave out, or I/O failures.
    func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor

    /// Appends `drafts` as one batch recorded at `reading`, if the store's head is `expected`.
    ///
    /// The batch is appended whole and durably, or not at all. When another writer appended first, nothing
    /// is appended and the result is ``AppendOutcome/conflict(current:)``: read the batches after the
    /// expected position, decide again, and append with the new head.
    ///
    /// - Throws: ``StintError`` (refused) for an empty batch, a draft that cannot be stored or a failed write
    ///   (nothing is appended), (damaged) when the stored events cannot be read to their end.
    func append(_ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?)
        throws(StintError) -> AppendOutcome

    /// Releases what the store holds (a lock, open files). Later appends are refused.
    func close()
}

/// A place in a store's sequence of batches: after some batch, or before the first.
///
/// Opaque to everything above the store: a `seq` for a single log today, a frontier of device positions or
/// a database id for other stores.
public struct StorePosition: Hashable, Sendable, CustomStringConvertible {
    /// The `seq` of the last event at or before the position; in a ``MergedStore``, the number of events up to
    /// it.
    package let seq: Int64
    /// In a ``MergedStore``: how far each device's events reach and the key of the last event.
    package let merged: MergedPosition?

    package init(seq: Int64) {
        self.seq = seq
        merged = nil
    }

    package init(merged: MergedPosition) {
        seq = merged.seqs.values.reduce(0, +)
        self.merged = merged
    }

    public var description: String {
        guard let merged else { return "seq \(seq)" }
        return "event \(seq) of the merged history" + (merged.lastKey.map { " (\($0))" } ?? "")
    }
}

/// A place in a ``MergedStore``'s merged history: per device the last `seq` before it, and the merge key of the
/// last event before it (docs/decisions/0007 §1.3).
package struct MergedPosition: Hashable, Sendable {
    package var seqs: [DeviceID: Int64]
    package var lastKey: MergeKey?

    package init(seqs: [DeviceID: Int64] = [:], lastKey: MergeKey? = nil) {
        self.seqs = seqs
        self.lastKey = lastKey
    }
}

/// A store's head: the position after its last batch and the hash that commits to every event up to it.
public struct StoreHead: Hashable, Sendable, CustomStringConvertible {
    public let position: StorePosition
    /// The SHA-256 of the last event's line, 64 lowercase hex digits (log-format §3).
    public let hash: String

    package init(position: StorePosition, hash: String) {
        self.position = position
        self.hash = hash
    }

    /// `<seq>:<hash>`, the form `stint verify` prints.
    public var description: String { "\(position.seq):\(hash)" }
}

/// One batch as a store holds it: the events one command appended, and the position after them.
public struct StoredBatch: Hashable, Sendable {
    public let events: [RecordedEvent]
    public let position: StorePosition
    /// The device whose log holds the batch, in a store that merges several (a space's replica); nil in a
    /// single log's store.
    public let device: DeviceID?

    package init(events: [RecordedEvent]) {
        self.events = events
        position = StorePosition(seq: events[events.count - 1].seq)
        device = nil
    }

    package init(events: [RecordedEvent], position: StorePosition, device: DeviceID? = nil) {
        self.events = events
        self.position = position
        self.device = device
    }

    /// The `seq` of the first event.
    public var firstSeq: Int64 { events[0].seq }
    /// The `seq` of the last event.
    public var lastSeq: Int64 { events[events.count - 1].seq }
}

/// What an append did.
public enum AppendOutcome: Hashable, Sendable {
    /// The batch is stored; `head` is the store's head after it.
    case appended(StoredBatch, head: StoreHead)
    /// Another writer appended first: nothing was appended; `current` is the store's head now.
    case conflict(current: StoreHead?)
}

/// Reads a store's batches in order.
public protocol StoreBatchCursor: AnyObject {
    /// The next batch; nil at the end of the store, or where damage stopped reading (see ``damage``).
    func next() throws(StintError) -> StoredBatch?

    /// Why reading stopped before the store's end, when damage stopped it; the batches returned before are
    /// the intact prefix.
    var damage: StintError? { get }
}
