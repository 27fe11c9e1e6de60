import StintCore
import TestSupport
import Testing

@testable import StintEngine

/// The contract every event store keeps; each test runs against every implementation.
@Suite struct EventStoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func appendedBatchesAreReadBackInOrderWithTheirPlaces(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let start = fixture.clock.now
        try store.appendExpectingSuccess([note("a")], at: start.adding(milliseconds: 1000))
        try store.appendExpectingSuccess([note("b"), note("c"), note("d")], at: start.adding(milliseconds: 2000))
        try store.appendExpectingSuccess([note("e")], at: start.adding(milliseconds: 3000))

        let batches = try store.allBatches()
        #expect(batches.map { $0.events.map(\.seq) } == [[1], [2], [3, 4, 5], [6]])
        #expect(batches[2].events.map(\.tx) == [3, 3, 3], "a batch of several events carries tx = its first seq")
        #expect(batches[1].events[0].tx == nil)
        #expect(batches[2].events.allSatisfy { $0.at == start.adding(milliseconds: 2000) })
        #expect(batches.flatMap(\.events).map { $0.data["text"]?.stringValue } == [nil, "a", "b", "c", "d", "e"])

        let after = try store.allBatches(after: batches[1].position)
        #expect(after == Array(batches[2...]))
        #expect(try store.allBatches(after: batches[3].position).isEmpty)
        #expect(try store.head()?.position == batches[3].position)
    }

    @Test(arguments: StoreKind.allCases)
    func theEventsAreChainedAndTheHeadHashesTheLastLine(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let (_, first) = try store.appendExpectingSuccess([note("a")], at: fixture.clock.now)
        let (batch, second) = try store.appendExpectingSuccess([note("b")], at: fixture.clock.now)
        #expect(first.hash.utf8.count == 64)
        #expect(batch.events[0].prev == String(first.hash.prefix(32)), "prev links to the line before (§3)")
        #expect(second != first)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchRecordedWithAClockBehindTheLastEventIsPlacedAtIt(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let later = fixture.clock.now.adding(milliseconds: 60_000)
        try store.appendExpectingSuccess([note("a")], at: later)
        let (batch, _) = try store.appendExpectingSuccess([note("b")], at: fixture.clock.now)
        #expect(batch.events[0].at == later)
        #expect(batch.events[0].clock == fixture.clock.now)
    }

    @Test(arguments: StoreKind.allCases)
    func anAppendAgainstAStaleHeadIsAConflictAndAppendsNothing(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let first = try fixture.create()
        defer { first.close() }
        let second = try fixture.reopen()
        defer { second.close() }
        let seen = try second.head()
        #expect(seen == (try first.head()))

        let (_, moved) = try first.appendExpectingSuccess([note("first writer")], at: fixture.clock.now)
        let outcome = try second.append([note("second writer")], recordedAt: fixture.clock.now, expecting: seen)
        #expect(outcome == .conflict(current: moved))
        #expect(try first.allBatches().flatMap(\.events).count == 2, "nothing was appended")

        // Decided again against the new head, the append goes through.
        guard
            case .appended(let batch, _) = try second.append(
                [note("second writer")], recordedAt: fixture.clock.now, expecting: moved)
        else {
            Issue.record("the append against the current head met a conflict")
            return
        }
        #expect(batch.events.map(\.seq) == [3])
    }

    @Test(arguments: StoreKind.allCases)
    func anAppendExpectingAnEmptyStoreConflictsWithAnyEvent(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let outcome = try store.append([note("x")], recordedAt: fixture.clock.now, expecting: nil)
        #expect(outcome == .conflict(current: try store.head()))
    }

    @Test(arguments: StoreKind.allCases)
    func theHeadAndTheBatchesAreTheSameAfterReopening(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        try store.appendExpectingSuccess([note("a"), note("b")], at: fixture.clock.now)
        let head = try store.head()
        let batches = try store.allBatches()
        store.close()

        let reopened = try fixture.reopen()
        defer { reopened.close() }
        #expect(try reopened.head() == head)
        #expect(try reopened.allBatches() == batches)
    }

    @Test(arguments: StoreKind.allCases)
    func aClosedHandleRefusesAppends(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        let head = try store.head()
        store.close()
        #expect(throws: StintError.self) {
            try store.append([note("late")], recordedAt: fixture.clock.now, expecting: head)
        }
        let reopened = try fixture.reopen()
        defer { reopened.close() }
        #expect(try reopened.head() == head)
    }

    @Test(arguments: StoreKind.allCases)
    func anEmptyBatchIsRefused(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let head = try store.head()
        #expect(throws: StintError.self) { try store.append([], recordedAt: fixture.clock.now, expecting: head) }
        #expect(try store.head() == head)
    }

    @Test(arguments: StoreKind.allCases)
    func positionsAfterEachBatchAreReadFromAndOthersAreRefused(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        try store.appendExpectingSuccess([note("a"), note("b"), note("c")], at: fixture.clock.now)
        try store.appendExpectingSuccess([note("d")], at: fixture.clock.now)
        let positions = try store.allBatches().map(\.position)
        #expect(positions == [StorePosition(seq: 1), StorePosition(seq: 4), StorePosition(seq: 5)])
        #expect(try store.allBatches(after: positions[0]).count == 2)
        #expect(try store.allBatches(after: positions[1]).count == 1)
        #expect(throws: StintError.self, "inside the batch of seq 2…4") {
            try store.allBatches(after: StorePosition(seq: 3))
        }
        #expect(throws: StintError.self, "after the end") { try store.allBatches(after: StorePosition(seq: 6)) }
    }

    /// The in-memory store keeps the log's bytes: the same batches at the same instants give the same heads.
    @Test func theInMemoryStoreGivesTheSameHeadsAsTheLogDirectory() throws {
        var heads: [StoreKind: [StoreHead]] = [:]
        for kind in StoreKind.allCases {
            let fixture = StoreFixture(kind)
            let store = try fixture.create()
            defer { store.close() }
            var seen: [StoreHead] = [try #require(try store.head())]
            for step in 1...5 {
                let drafts = (0..<step).map { note("batch \(step) event \($0)") }
                let (_, head) = try store.appendExpectingSuccess(
                    drafts, at: fixture.clock.now.adding(milliseconds: Int64(step) * 1000))
                seen.append(head)
            }
            heads[kind] = seen
        }
        #expect(heads[.inMemory] == heads[.logDirectory])
    }
}
