import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine

/// A kind of store ``TimeLog`` has never heard of, with a fold of its own, made here in the tests: commands run
/// on it through the fold seam (``StoreFold``, ``FoldingStore``) without a line of `TimeLog` knowing it
/// (docs/decisions/0009-one-seam.md step 3).
@Suite struct ToyStoreTests {
    /// An in-memory store that folds its events its own way: the whole state, and a tally of what it was asked.
    /// Sendable for ``LogSource/init(store:name:)``: the tests read and write it from one thread.
    final class ToyStore: FoldingStore, @unchecked Sendable {
        let events = InMemoryEventStore()
        private(set) var folds: [ToyFold] = []

        func head() throws(StintError) -> StoreHead? { try events.head() }
        func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor {
            try events.batches(after: position)
        }
        func append(_ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?)
            throws(StintError) -> AppendOutcome
        {
            try events.append(drafts, recordedAt: reading, expecting: expected)
        }
        func close() { events.close() }

        func makeFold(upTo head: StoreHead?, options: EngineOptions) throws(StintError) -> any StoreFold {
            let fold = try ToyFold(store: self, upTo: head)
            folds.append(fold)
            return fold
        }
    }

    /// Every event applied by the strict rules to the whole state, re-folded from the start on catch-up.
    final class ToyFold: StoreFold {
        let path = "toy"
        private(set) var state: LogState
        private(set) var head: StoreHead?
        private let store: ToyStore
        private(set) var asked: [String] = []
        private var checked: (state: LogState, events: [RecordedEvent])?

        init(store: ToyStore, upTo head: StoreHead?) throws(StintError) {
            self.store = store
            state = try Self.fold(store, upTo: head)
            self.head = head
        }

        var decidesOnSlice: Bool { false }
        var decisionSpace: EntityID? { nil }

        func beforeCommand() { asked.append("beforeCommand") }
        func catchUp(to current: StoreHead?) throws(StintError) {
            asked.append("catchUp")
            guard current != head else { return }
            state = try Self.fold(store, upTo: current)
            head = current
        }
        func beforeDeciding() { asked.append("beforeDeciding") }
        func prepare(for command: Command) { asked.append("prepare") }
        func include(namedBy events: [DomainEvent]) { asked.append("include") }
        func check(_ drafts: [EventDraft], now: Instant, reading: Instant) throws(StintError) {
            asked.append("check")
            var next = state
            let events = drafts.placed(from: state.lastSeq + 1, now: now, reading: reading)
            do {
                for event in events { try next.apply(event) }
            } catch {
                throw StintError(.refused, "the toy store refuses: \(error.message)")
            }
            checked = (next, events)
        }
        func appended(
            _ events: [RecordedEvent], head: StoreHead, named: (references: [RecordRef], ids: [EntityID]),
            decided: [DomainEvent]
        ) throws(StintError) {
            asked.append("appended")
            guard let checked, events.arePlaced(as: checked.events) else {
                state = try Self.fold(store, upTo: head)
                self.head = head
                return
            }
            state = checked.state
            self.head = head
        }
        func endCommand() {
            asked.append("endCommand")
            checked = nil
        }
        func close() {}

        static func fold(_ store: ToyStore, upTo head: StoreHead?) throws(StintError) -> LogState {
            var state: LogState?
            let cursor = try store.batches(after: nil)
            var reached: StorePosition?
            while reached != head?.position, let batch = try cursor.next() {
                do throws(DomainError) {
                    for event in batch.events {
                        if state == nil { state = try LogState(genesis: event) } else { try state!.apply(event) }
                    }
                } catch {
                    throw StintError(error)
                }
                reached = batch.position
            }
            guard let state else { throw StintError(.damaged, "the toy store holds no events") }
            return state
        }
    }

    @Test func commandsRunOnAStoreTimeLogDoesNotKnowThroughItsOwnFold() throws {
        let clock = FixedClock(Instant(canonical: "2026-12-01T09:00:00.000Z")!)
        let ids = IncrementingIDs()
        let options = EngineOptions(clock: clock.reading, newID: ids.generator)
        let toy = ToyStore()
        let log = try TimeLog.create(in: toy, timeZone: "Europe/Berlin", firstWeekday: 2, options: options)
        defer { log.close() }
        try #require(toy.folds.count == 1, "create(in:) did not ask the store for its fold")
        clock.advance(milliseconds: 60_000)
        try log.execute(.start(tag: .name("code")))
        clock.advance(milliseconds: 1_800_000)
        try log.execute(.stop())
        clock.advance(milliseconds: 60_000)
        try log.execute(.undo)
        let fold = toy.folds[0]
        #expect(
            fold.asked.prefix(7)
                == ["beforeCommand", "catchUp", "beforeDeciding", "prepare", "include", "check", "appended"])
        #expect(fold.asked.filter { $0 == "appended" }.count == 3)
        #expect(log.state == fold.state)
        #expect(log.state.runningRecordIds.count == 1, "undo of the stop left the timer running")

        // Another writer's command on the same store: the first catches up through its fold.
        let other = try TimeLog.open(store: toy, options: options)
        try #require(toy.folds.count == 2)
        clock.advance(milliseconds: 60_000)
        try other.execute(.stop())
        clock.advance(milliseconds: 60_000)
        try log.execute(.start(tag: .name("mail")))
        #expect(log.state.records.count == 2)
        #expect(log.state == (try ToyFold.fold(toy, upTo: try toy.head())))
    }
}
