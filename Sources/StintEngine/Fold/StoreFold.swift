import StintCore

/// The state a ``TimeLog`` decides commands against, kept by the rules of one kind of store: the seam between
/// deciding and folding (docs/decisions/0009-one-seam.md step 3). ``TimeLog`` holds one and asks it, never the
/// store's kind: ``LogFold`` for a single log (the strict fold, its read models and compact rebuild),
/// ``ReplicaFold`` for a space's replica (the merged fold of every device's events).
///
/// One command goes through it in this order: ``beforeCommand()``, ``catchUp(to:)`` to the store's head,
/// then per attempt ``beforeDeciding()``, ``prepare(for:)`` (and again when the command built on a slice
/// names records), ``include(namedBy:)``, ``check(_:now:reading:)``, and, once the store appended the
/// batch, ``appended(_:head:named:decided:)`` (or ``catchUp(to:)`` after a conflict); ``endCommand()`` at
/// the end, whatever happened.
protocol StoreFold: AnyObject {
    /// The log directory, or a description of the store.
    var path: String { get }
    /// The state commands are decided against (a slice, or the whole state; see ``TimeLog/state``).
    var state: LogState { get }
    /// The store's head as of ``state``.
    var head: StoreHead? { get }
    /// Whether ``state`` is a slice: a command that names records is built again once it holds them.
    var decidesOnSlice: Bool { get }
    /// The space a decision is for (its new tags take ids derived from it); nil for a single log.
    var decisionSpace: EntityID? { get }

    /// What the store takes in before a command is decided (a replica: what the other devices wrote).
    func beforeCommand() throws(StintError)
    /// Folds what other writers appended, up to `current` (the store's head).
    func catchUp(to current: StoreHead?) throws(StintError)
    /// Before each attempt at deciding: what every decision reads (a slice: the record that ended last).
    func beforeDeciding() throws(StintError)
    /// Makes ``state`` hold what deciding `command` reads: the records its references match, the inverses
    /// `undo` and `redo` append, or every record.
    func prepare(for command: Command) throws(StintError)
    /// Makes ``state`` hold the records the decided `events` name, before they are checked.
    func include(namedBy events: [DomainEvent]) throws(StintError)
    /// Folds `drafts` as the store will record them onto what the command was decided against, so that events
    /// that contradict the log are refused before anything is written.
    ///
    /// - Throws: ``StintError`` (refused) for events that do not fold.
    func check(_ drafts: [EventDraft], now: Instant, reading: Instant) throws(StintError)
    /// Takes in the batch the store appended (`events`, now at `head`): the check's fold when the store placed
    /// them as checked, else the events folded again. `named` are the records the command named and changed.
    func appended(
        _ events: [RecordedEvent], head: StoreHead, named: (references: [RecordRef], ids: [EntityID]),
        decided: [DomainEvent]
    ) throws(StintError)
    /// Forgets what the last ``check(_:now:reading:)`` kept: the command ended.
    func endCommand()
    /// Releases what the fold holds (read models); the store is closed by its owner.
    func close()
}

/// A store whose events a ``TimeLog`` folds by its own rules (a replica's merged history); the events of any
/// other store go through a single log's strict fold (``LogFold``).
protocol FoldingStore: EventStore {
    /// The fold of every event up to `head`.
    func makeFold(upTo head: StoreHead?, options: EngineOptions) throws(StintError) -> any StoreFold
}

extension [EventDraft] {
    /// The drafts as a store places them from `first` on (their `prev` links aside): what a check folds.
    func placed(from first: Int64, now: Instant, reading: Instant) -> [RecordedEvent] {
        enumerated().map { index, draft in
            RecordedEvent(
                seq: first + Int64(index), at: now, type: draft.type, version: draft.version,
                tx: count > 1 ? first : nil, clock: reading < now ? reading : nil,
                prev: RecordedEvent.genesisPrev, data: draft.data)
        }
    }
}

extension [RecordedEvent] {
    /// Whether the store placed these events where a check placed `checked` (a fold reads their `seq`, `at`
    /// and `tx`): the check's fold is then the fold after them.
    func arePlaced(as checked: [RecordedEvent]) -> Bool {
        count == checked.count && zip(self, checked).allSatisfy { $0.seq == $1.seq && $0.at == $1.at && $0.tx == $1.tx }
    }
}
