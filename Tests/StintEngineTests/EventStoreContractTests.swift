import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine
@testable import StintLog

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
        let firstLine = try fixture.lineHash(of: first)
        let (batch, second) = try store.appendExpectingSuccess([note("b")], at: fixture.clock.now)
        #expect(first.hash.utf8.count == 64)
        #expect(batch.events[0].prev == String(firstLine.prefix(32)), "prev links to the line before (§3)")
        #expect(second != first)
        #expect(try fixture.lineHash(of: second) != firstLine)
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
        #expect(
            positions == [
                try fixture.position(afterSeq: 1), try fixture.position(afterSeq: 4), try fixture.position(afterSeq: 5),
            ])
        #expect(try store.allBatches(after: positions[0]).count == 2)
        #expect(try store.allBatches(after: positions[1]).count == 1)
        #expect(throws: StintError.self, "inside the batch of seq 2…4") {
            try store.allBatches(after: fixture.kind == .merged ? fixture.position(afterSeq: 3) : StorePosition(seq: 3))
        }
        let beyond =
            fixture.kind == .merged
            ? StorePosition(merged: MergedPosition(seqs: [StoreFixture.device: 6])) : StorePosition(seq: 6)
        #expect(throws: StintError.self, "after the end") { try store.allBatches(after: beyond) }
    }

    /// What a fold trusts (LogState.apply checks none of it): every batch a store hands out follows the one
    /// before it, its events have consecutive seqs from 1, an at never earlier than the previous event's,
    /// and, in a batch of several, the tx and at of the batch's first event.
    @Test(arguments: StoreKind.allCases)
    func theBatchesAStoreHandsOutFollowEachOther(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.create()
        defer { store.close() }
        let start = fixture.clock.now
        // A clock that goes forth and back: placing clamps at, never the other way round.
        for (step, offset) in [5000, 1000, 9000, 9000, 2000, 12_000].enumerated() {
            let drafts = (0...(step % 3)).map { note("batch \(step) event \($0)") }
            try store.appendExpectingSuccess(drafts, at: start.adding(milliseconds: Int64(offset)))
        }
        var last: RecordedEvent?
        for batch in try store.allBatches() {
            let first = batch.events[0]
            #expect(first.seq == (last?.seq ?? 0) + 1)
            #expect(first.at >= last?.at ?? first.at)
            #expect(first.tx == (batch.events.count > 1 ? first.seq : nil))
            for (index, event) in batch.events.enumerated() {
                #expect(event.seq == first.seq + Int64(index))
                #expect(event.at == first.at && event.tx == first.tx && event.clock == first.clock)
            }
            #expect(batch.position == (try fixture.position(afterSeq: batch.events[batch.events.count - 1].seq)))
            last = batch.events.last
        }
        #expect(last?.seq == 13)
    }

    /// A log directory whose chain and frames are intact but whose events do not follow each other: the store
    /// stops before the first event that breaks the envelope and reports damage, so no fold ever sees it
    /// (the in-memory store cannot be handed such events: it holds only the batches it placed itself).
    @Test(arguments: EnvelopeBreak.allCases)
    func aLogDirectoryStoreStopsBeforeAnEventThatDoesNotFollow(envelope: EnvelopeBreak) throws {
        let fixture = StoreFixture(.logDirectory)
        let at = fixture.clock.now
        let tag = { (name: String) in
            DomainEvent.tagCreated(tagId: fixture.ids.next(), name: name, color: "#29BF12").draft
        }
        // Frames of (seq, at offset, tx, draft); the last frame breaks the envelope.
        var frames: [[(Int64, Int64, Int64?, EventDraft)]] = [
            [(1, 0, nil, fixture.genesis)], [(2, 1000, nil, tag("a"))],
            [(3, 2000, 3, tag("b")), (4, 2000, 3, tag("c"))],
        ]
        switch envelope {
        case .seqGap: frames.append([(6, 3000, nil, tag("d"))])
        case .seqRepeated: frames.append([(4, 3000, nil, tag("d"))])
        case .atGoesBack: frames.append([(5, 1999, nil, tag("d"))])
        case .batchAtDiffers: frames.append([(5, 3000, 5, tag("d")), (6, 3001, 5, tag("e"))])
        case .txOfAnotherBatch: frames.append([(5, 3000, 3, tag("d"))])
        }
        try HandWrittenLog.write(
            frames.map { $0.map { ($0.0, at.adding(milliseconds: $0.1), $0.2, $0.3) } }, to: fixture.path)

        let store = try LogDirectoryStore.open(at: fixture.path, options: fixture.options)
        defer { store.close() }
        let cursor = try store.batches(after: nil)
        var seqs: [Int64] = []
        while let batch = try cursor.next() { seqs += batch.events.map(\.seq) }
        #expect(seqs == [1, 2, 3, 4], "the store hands out the events before the break, and none after")
        #expect(cursor.damage?.category == .damaged)
        // (A repeated last seq is the head itself: the log's last line says it ends there.)
        if envelope != .seqRepeated {
            #expect(throws: StintError.self, "the fold stops where the store does, before the head") {
                try TimeLog.open(store: store, options: fixture.options)
            }
        }
    }

    /// The in-memory store keeps the log's bytes: the same batches at the same instants give the same heads.
    @Test func theInMemoryStoreGivesTheSameHeadsAsTheLogDirectory() throws {
        var heads: [StoreKind: [StoreHead]] = [:]
        for kind in [StoreKind.inMemory, .logDirectory] {
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

/// The ways an event can fail to follow the one before it (log-format §2).
enum EnvelopeBreak: String, CaseIterable, Sendable, CustomStringConvertible {
    case seqGap, seqRepeated, atGoesBack, batchAtDiffers, txOfAnotherBatch

    var description: String { rawValue }
}

/// A log directory written byte by byte: one data frame per group of events, with the hash chain linked
/// whatever the events' seq, at and tx, so that only the envelope checks can tell what is wrong.
enum HandWrittenLog {
    static func write(_ frames: [[(seq: Int64, at: Instant, tx: Int64?, draft: EventDraft)]], to path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        var prev = RecordedEvent.genesisPrev
        var segment: [UInt8] = []
        for frame in frames {
            var content: [UInt8] = []
            for (seq, at, tx, draft) in frame {
                let event = RecordedEvent(
                    seq: seq, at: at, type: draft.type, version: draft.version, tx: tx, prev: prev, data: draft.data)
                let line = event.encodedLine() + [0x0A]
                prev = SHA256Digest(of: line).link
                content += line
            }
            try content.withBytes { (bytes) throws(LogError) in
                try ZstdCompressor(level: 3).compress(bytes, appendingTo: &segment)
            }
        }
        try Data(segment).write(to: URL(fileURLWithPath: path + "/" + LogDirectory.segmentName(firstSeq: 1)))
        try Data(LogDirectory.formatText).write(to: URL(fileURLWithPath: path + "/" + LogDirectory.formatName))
    }
}
