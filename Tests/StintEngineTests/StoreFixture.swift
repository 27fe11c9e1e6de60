import StintCore
import StintEngine
import TestSupport

/// The stores every contract test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case inMemory
    case logDirectory

    var description: String { rawValue }
}

/// One store of a kind holding a log's first event, and further handles on it (as other processes would
/// open the same log).
final class StoreFixture {
    let kind: StoreKind
    let directory = TemporaryDirectory()
    let clock = FixedClock("2026-11-29T09:00:00.000Z")
    let ids = IncrementingIDs()
    private var memory: InMemoryEventStore?

    init(_ kind: StoreKind) {
        self.kind = kind
    }

    var options: EngineOptions {
        EngineOptions(clock: clock.reading, newID: ids.generator, lockTimeout: .milliseconds(200))
    }

    var path: String { directory.appending("log") }

    /// The first event of a log.
    var genesis: EventDraft {
        DomainEvent.logCreated(LogSettings(logId: ids.next(), calendar: LogCalendar(timeZone: "UTC", firstWeekday: 2)!))
            .draft
    }

    /// Creates the store with its first event and returns a handle that does not hold a lock.
    func create() throws -> any EventStore {
        switch kind {
        case .inMemory:
            let store = InMemoryEventStore()
            guard case .appended = try store.append([genesis], recordedAt: clock.now, expecting: nil) else {
                throw StintError(.refused, "an empty in-memory store refused its first event")
            }
            memory = store
            return store
        case .logDirectory:
            LogDirectoryStoreCreation.create(at: path, genesis: genesis, reading: clock.now, options: options)
            return try LogDirectoryStore.open(at: path, options: options)
        }
    }

    /// Another handle on the same store.
    func reopen() throws -> any EventStore {
        switch kind {
        case .inMemory:
            guard let memory else { throw StintError(.refused, "create the store first") }
            return memory.reopened()
        case .logDirectory:
            return try LogDirectoryStore.open(at: path, options: options)
        }
    }
}

/// Creating a log directory takes its lock; the fixture releases it at once, so that its handles compete.
enum LogDirectoryStoreCreation {
    static func create(at path: String, genesis: EventDraft, reading: Instant, options: EngineOptions) {
        let store = try? LogDirectoryStore.create(at: path, genesis: genesis, recordedAt: reading, options: options)
        store?.close()
    }
}

extension EventStore {
    /// Every batch after `position`.
    func allBatches(after position: StorePosition? = nil) throws -> [StoredBatch] {
        let cursor = try batches(after: position)
        var batches: [StoredBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        if let damage = cursor.damage { throw damage }
        return batches
    }

    /// Appends and expects it to succeed.
    @discardableResult
    func appendExpectingSuccess(_ drafts: [EventDraft], at reading: Instant) throws -> (StoredBatch, StoreHead) {
        guard case .appended(let batch, let head) = try append(drafts, recordedAt: reading, expecting: try head())
        else {
            throw StintError(.refused, "the append met a conflict")
        }
        return (batch, head)
    }
}

/// A draft that the log layer stores as it is (the store does not interpret payloads).
func note(_ text: String) -> EventDraft {
    EventDraft(type: "test.noted", version: 1, data: .object(["text": .string(text)]))
}

/// A store whose next append is preceded by another writer's append, made between the command's decision and
/// its append: the race that the expected head exists for.
final class RacingStore: EventStore {
    let base: any EventStore
    var raceBeforeNextAppend: (() throws -> Void)?

    init(_ base: any EventStore) {
        self.base = base
    }

    func head() throws(StintError) -> StoreHead? { try base.head() }

    func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor {
        try base.batches(after: position)
    }

    func append(_ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?)
        throws(StintError) -> AppendOutcome
    {
        if let race = raceBeforeNextAppend {
            raceBeforeNextAppend = nil
            do { try race() } catch { throw StintError(.refused, "the racing writer failed: \(error)") }
        }
        return try base.append(drafts, recordedAt: reading, expecting: expected)
    }

    func close() { base.close() }
}
