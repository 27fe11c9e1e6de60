import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The stores every contract test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case inMemory
    case logDirectory
    /// A one-device space: the founder's replica (docs/decisions/0007 §11 step 6).
    case merged

    var description: String { rawValue }
}

/// One store of a kind holding a log's first event, and further handles on it (as other processes would
/// open the same log).
final class StoreFixture {
    let kind: StoreKind
    /// The device of a merged store.
    static let device = DeviceID(high: 0x3f2a_9c4e_0b1d_4c6e, low: 0x9f00_5a7b_8c9d_0e1f)
    let directory = TemporaryDirectory()
    let clock = FixedClock("2026-11-29T09:00:00.000Z")
    let ids = IncrementingIDs()
    private var memory: InMemoryEventStore?

    init(_ kind: StoreKind) {
        self.kind = kind
    }

    var options: EngineOptions {
        var options = EngineOptions(clock: clock.reading, newID: ids.generator, lockTimeout: .milliseconds(200))
        options.deviceIdentity = DeviceIdentity(file: directory.appending("state/stint/device")) { Self.device }
        return options
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
        case .merged:
            LogDirectoryStoreCreation.create(at: path, genesis: genesis, reading: clock.now, options: options)
            _ = try Space.initSpace(log: path, folder: directory.appending("sync"), options: options)
            return try MergedStore.open(log: path, holdingLock: false, options: options)
        }
    }

    /// The position after the event at `seq` of the store's log (of its device, for a merged store).
    func position(afterSeq seq: Int64) throws -> StorePosition {
        guard kind == .merged else { return StorePosition(seq: seq) }
        let device = Self.device
        let event = try #require(try LogReader(path: path).events(from: seq).next())
        let key = MergeKey(hlc: event.hlc ?? HLC(impliedBy: event.at), device: device, seq: seq)
        return StorePosition(merged: MergedPosition(seqs: [device: seq], lastKey: key))
    }

    /// The SHA-256 of the line the store's head ends with (a merged store's head hashes its frontier, whose
    /// one device's head is that line's).
    func lineHash(of head: StoreHead) throws -> String {
        guard kind == .merged else { return head.hash }
        let device = Self.device
        let frontier = try Space.open(log: path, options: options).frontier()
        #expect(frontier.hash == head.hash, "the head is the frontier's")
        return try #require(frontier.heads[device]).hash
    }

    /// Another handle on the same store.
    func reopen() throws -> any EventStore {
        switch kind {
        case .inMemory:
            guard let memory else { throw StintError(.refused, "create the store first") }
            return memory.reopened()
        case .logDirectory:
            return try LogDirectoryStore.open(at: path, options: options)
        case .merged:
            return try MergedStore.open(log: path, holdingLock: false, options: options)
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
