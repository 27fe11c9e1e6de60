import Testing

@testable import StintCore

/// A log in memory for domain tests: decides commands, places their events as a writer would (seq, at,
/// tx, a dummy prev) and folds them, so every test goes through the same path as the CLI.
struct TestLog {
    private(set) var events: [RecordedEvent] = []
    private(set) var state: LogState
    var now: Instant
    let newID: () -> EntityID

    static let logId = EntityID("10000000-0000-4000-8000-000000000000")!

    init(zone: String = "UTC", now: String = "2026-11-29T09:00:00.000Z", ids: SequentialIDs = SequentialIDs()) {
        self.init(zone: zone, now: now, newID: ids.next)
    }

    init(zone: String, now: String, newID: @escaping () -> EntityID) {
        let calendar = LogCalendar(timeZone: zone, firstWeekday: 2)!
        self.now = Instant(canonical: now)!
        self.newID = newID
        let genesis = RecordedEvent(
            seq: 1, at: self.now, type: "log.created", version: 1, prev: RecordedEvent.genesisPrev,
            data: DomainEvent.logCreated(LogSettings(logId: TestLog.logId, calendar: calendar)).data)
        events = [genesis]
        state = try! LogState(genesis: genesis)
    }

    var context: DecisionContext { DecisionContext(now: now, newID: newID) }

    /// Decides `command` at `now` and appends and folds its events.
    @discardableResult
    mutating func run(_ command: Command) throws(DomainError) -> Decision {
        let decision = try decide(command, state: state, context: context)
        try append(decision.events)
        return decision
    }

    /// Appends events as one batch at `now`, as a writer would, and folds them.
    mutating func append(_ batch: [DomainEvent]) throws(DomainError) {
        for event in TestLog.place(batch, after: state.lastSeq, at: now) {
            try state.apply(event)
            events.append(event)
        }
    }

    /// The recorded events of a batch appended after `seq`.
    static func place(_ batch: [DomainEvent], after seq: Int64, at: Instant) -> [RecordedEvent] {
        let start = seq + 1
        return batch.enumerated().map { index, event in
            let draft = event.draft
            return RecordedEvent(
                seq: start + Int64(index), at: at, type: draft.type, version: draft.version,
                tx: batch.count > 1 ? start : nil, prev: RecordedEvent.genesisPrev, data: draft.data)
        }
    }

    mutating func advance(minutes: Int64) {
        now = now.adding(milliseconds: minutes * 60_000)
    }

    /// A time argument parsed as the CLI would.
    func time(_ text: String) -> ParsedTime {
        try! TimeArgument.parse(text, now: now, calendar: state.calendar)
    }

    /// The record with this id (live).
    func record(_ id: EntityID) -> Record? { state.records[id] }

    func tag(_ name: String) -> StintCore.Tag? { state.tag(named: name) }

    /// The comparable part of the projection source.
    var snapshot: Snapshot { Snapshot(state.projectionSource) }
}

/// Ids whose first four hex digits count up (`0001…`, `0002…`), so short prefixes name one record.
final class SequentialIDs: @unchecked Sendable {
    private var count: UInt64 = 0
    private var queued: [EntityID] = []

    init() {}

    /// Makes the next calls return these ids first.
    func queue(_ ids: [EntityID]) { queued += ids }

    func next() -> EntityID {
        if !queued.isEmpty { return queued.removeFirst() }
        count += 1
        return SequentialIDs.id(count)
    }

    static func id(_ number: UInt64) -> EntityID {
        EntityID(high: number << 48 | 0x4000, low: 0x8000_0000_0000_0000 | number)
    }
}

/// `ProjectionSource` without its calendar, as an `Equatable` value.
struct Snapshot: Equatable, CustomStringConvertible {
    var tags: [EntityID: StintCore.Tag]
    var records: [Record]
    var recentTagIds: [EntityID]

    init(_ source: ProjectionSource) {
        tags = source.tags
        records = source.records
        recentTagIds = source.recentTagIds
    }

    var description: String {
        "tags: \(tags.values.sorted { $0.id < $1.id }), records: \(records), recent: \(recentTagIds)"
    }
}

func instant(_ text: String) -> Instant { Instant(canonical: text)! }

/// Runs `body` and returns the code of the `DomainError` it throws (nil when it does not throw).
func errorCode<T>(_ body: () throws(DomainError) -> T) -> DomainError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.code
    }
}

/// Runs `body` and returns the `DomainError` it throws (nil when it does not throw).
func domainError<T>(_ body: () throws(DomainError) -> T) -> DomainError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
