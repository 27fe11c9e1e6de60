public import StintCore
import StintLog
import Synchronization

/// An event store in memory, for tests and previews: the same placement, hash chain and append contract as
/// the log directory, without files.
///
/// Handles made with ``reopened()`` share the events, as two processes opening the same log do, so that
/// concurrent writers can be tested without a disk.
///
/// ```swift
/// let store = InMemoryEventStore()
/// let log = try TimeLog.create(in: store, timeZone: "Europe/Berlin", firstWeekday: 2, options: options)
/// ```
public final class InMemoryEventStore: EventStore, Sendable, CustomStringConvertible {
    private final class Storage: Sendable {
        struct Contents {
            var batches: [StoredBatch] = []
            var lastDigest: SHA256Digest?
        }
        let contents = Mutex(Contents())
    }

    private let storage: Storage
    private let isClosed = Mutex(false)

    /// An empty store.
    public init() {
        storage = Storage()
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Another handle on the same events.
    public func reopened() -> InMemoryEventStore {
        InMemoryEventStore(storage: storage)
    }

    public var description: String { "an in-memory store" }

    /// Every event of the store, in order.
    public var events: [RecordedEvent] {
        storage.contents.withLock { $0.batches.flatMap(\.events) }
    }

    public func head() throws(StintError) -> StoreHead? {
        storage.contents.withLock { Self.head(of: $0) }
    }

    public func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor {
        let (batches, head) = storage.contents.withLock { ($0.batches, Self.head(of: $0)) }
        let seq = position?.seq ?? 0
        guard seq >= 0, seq <= head?.position.seq ?? 0 else {
            throw StintError(.refused, "the store ends before \(position!): it has no such position")
        }
        // Positions are batch ends: find the first batch after it.
        let start = batches.partitionPoint { $0.position.seq <= seq }
        guard start == 0 || batches[start - 1].position.seq == seq else {
            throw StintError(.refused, "\(position!) is inside a batch, not after one")
        }
        return Cursor(batches: batches[start...])
    }

    public func append(
        _ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?
    ) throws(StintError) -> AppendOutcome {
        guard !isClosed.withLock({ $0 }) else {
            throw StintError(.refused, "this handle on the in-memory store was closed; open another to append")
        }
        let result: Result<AppendOutcome, LogError> = storage.contents.withLock { contents in
            let current = Self.head(of: contents)
            guard current == expected else { return .success(.conflict(current: current)) }
            let encoder = BatchEncoder(lastEvent: contents.batches.last?.events.last, lastDigest: contents.lastDigest)
            do throws(LogError) {
                let encoded = try encoder.encode(drafts, reading: reading)
                let batch = StoredBatch(events: encoded.events)
                contents.batches.append(batch)
                contents.lastDigest = encoded.digest
                return .success(.appended(batch, head: Self.head(of: contents)!))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let error): throw StintError(error)
        }
    }

    public func close() {
        isClosed.withLock { $0 = true }
    }

    private static func head(of contents: Storage.Contents) -> StoreHead? {
        guard let last = contents.batches.last, let digest = contents.lastDigest else { return nil }
        return StoreHead(position: last.position, hash: digest.hex)
    }

    private final class Cursor: StoreBatchCursor {
        private var remaining: ArraySlice<StoredBatch>

        init(batches: ArraySlice<StoredBatch>) {
            remaining = batches
        }

        func next() throws(StintError) -> StoredBatch? {
            remaining.popFirst()
        }

        var damage: StintError? { nil }
    }
}

extension Array {
    /// The index of the first element for which `belongsBefore` is false, given that it is true for a prefix.
    fileprivate func partitionPoint(_ belongsBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
