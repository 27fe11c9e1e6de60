import Foundation
import Testing

@testable import StintCore

/// The compact fold against the reference fold (`LogState.apply`): on random logs (commands through
/// `decide`, bursts of undo and redo, imports, re-imports and un-imports, tag renames, deletes and
/// restores), the whole state after every batch is the same, and an event placed where it does not belong
/// is refused by both or applied by both with the same result.
@Suite struct CompactFoldTests {
    /// Fixed seeds, or STINT_TEST_SEED.
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0xC0_0001, 0xC0_0002, 0xC0_0003, 0xC0_0004]
    }

    @Test(arguments: seeds)
    func randomLogsFoldToTheReferenceStateAfterEveryBatch(seed: UInt64) throws {
        print("CompactFoldTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var log = RandomCompactLog(seed: seed)
        var compact = try #require(CompactFold(genesis: log.run.log.events[0], capacity: 4))
        var folded = 1
        var kinds: [EventType: Int] = [:]
        var deepest = 0
        for _ in 0..<1200 {
            log.step()
            deepest = max(deepest, log.run.log.state.undoStack.count)
            let events = log.run.log.events
            for event in events[folded...] {
                let applied = compact.apply(event)
                #expect(applied, "seed \(seed): the compact fold refused \(event.seq) \(event.type)")
                kinds[EventType(rawValue: event.type)!, default: 0] += 1
            }
            folded = events.count
            // The first difference is enough to see (the states differ after it).
            guard compact.logState == log.run.log.state else {
                #expect(compact.logState == log.run.log.state, "seed \(seed) at seq \(compact.lastSeq)")
                return
            }
        }
        // The logs exercise every kind of event the fold applies.
        for type in EventType.allCases where type != .logCreated {
            #expect(kinds[type, default: 0] > 0, "seed \(seed): no \(type.rawValue)")
        }
        #expect(deepest == LogState.undoLimit, "the undo stack filled up")
        #expect(compact.lastSeq > 1500)
    }

    @Test(arguments: seeds)
    func eventsOutOfPlaceAreRefusedAsByTheReference(seed: UInt64) throws {
        var log = RandomCompactLog(seed: seed)
        for _ in 0..<400 { log.step() }
        let events = log.run.log.events
        var random = SplitMix64(seed: seed ^ 0xFA11)
        var refused = 0
        var applied = 0
        for _ in 0..<60 {
            // The log up to a random point, then an event of elsewhere in the log placed there.
            let cut = Int(random.next() % UInt64(events.count - 1)) + 1
            var reference = try LogState.fold(events[..<cut])
            var compact = try #require(CompactFold(genesis: events[0], capacity: 0))
            for event in events[1..<cut] where !compact.apply(event) { Issue.record("refused \(event.seq)") }
            let moved = try DomainEvent(events[Int(random.next() % UInt64(events.count - 1)) + 1])
            let placed = TestLog.place([moved], after: reference.lastSeq, at: reference.lastAt)[0]
            let referenceApplied = (try? reference.apply(placed)) != nil
            let compactApplied = compact.apply(placed)
            #expect(compactApplied == referenceApplied, "seed \(seed): \(moved) after \(cut)")
            if referenceApplied {
                applied += 1
                #expect(compact.logState == reference, "seed \(seed): \(moved) after \(cut)")
            } else {
                refused += 1
            }
        }
        #expect(refused > 10 && applied > 5, "refused \(refused), applied \(applied)")
    }

    @Test func aLogThatDoesNotStartWithLogCreatedIsNotFolded() throws {
        var log = RandomCompactLog(seed: 7)
        for _ in 0..<5 { log.step() }
        #expect(CompactFold(genesis: log.run.log.events[1], capacity: 0) == nil)
        var compact = try #require(CompactFold(genesis: log.run.log.events[0], capacity: 0))
        let again = TestLog.place(
            [try DomainEvent(log.run.log.events[0])], after: 1, at: log.run.log.events[0].at)[0]
        let applied = compact.apply(again)
        #expect(!applied)
    }

    @Test func theInverseArrayIsCompactedWithoutChangingTheStacks() throws {
        // Thousands of single-event batches: the inverses of batches that left the stack are dropped.
        var log = TestLog(zone: "UTC", now: "2026-01-05T08:00:00.000Z", ids: SequentialIDs())
        for _ in 0..<3000 {
            log.advance(minutes: 5)
            try log.run(.start(tag: .untagged, comment: "c", at: nil, switching: true, force: false))
        }
        try log.run(.undo)
        try log.run(.undo)
        try log.run(.redo)
        var compact = try #require(CompactFold(genesis: log.events[0], capacity: 0))
        for event in log.events.dropFirst() where !compact.apply(event) { Issue.record("refused \(event.seq)") }
        #expect(compact.inverses.count < 4096 + 400)
        #expect(compact.logState == log.state)
    }
}

/// A random log for the compact fold: the domain tests' random commands, with bursts of undo and redo and
/// batches of imports, re-imports and un-imports appended as an import would.
struct RandomCompactLog {
    var run: RandomRun
    var random: SplitMix64
    var importCount = 0

    init(seed: UInt64) {
        run = RandomRun(seed: seed)
        random = SplitMix64(seed: seed ^ 0x1A1A)
    }

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func step() {
        run.log.advance(minutes: Int64(random.next() % 120))
        if chance(4) {
            try! run.log.append(bookkeepingBatch())
            return
        }
        if chance(8) {
            let batch = importBatch()
            if !batch.isEmpty { try! run.log.append(batch) }
            return
        }
        let burst = chance(6) ? Int(random.next() % 6) + 2 : 1
        for _ in 0..<burst {
            let command: Command =
                burst > 1
                ? (chance(60) ? .undo : .redo)
                : chance(8) ? .deleteTag(name: RandomRun.names.randomElement(using: &random)!) : run.randomCommand()
            if let decision = try? decide(command, state: run.log.state, context: run.log.context) {
                try! run.log.append(decision.events)
            }
        }
    }

    /// A batch of bookkeeping: an ingestion of one or two devices, a join or a fork of a space, or a repair's
    /// record (between commands, where an undo or a redo must still find its entry).
    mutating func bookkeepingBatch() -> [DomainEvent] {
        let device = DeviceID(high: random.next(), low: random.next())
        let head = String(repeating: "ab", count: 32)
        let upTo = Int64(random.next() % 1000) + 1
        switch random.next() % 5 {
        case 4: return [.logRepaired(from: upTo, to: upTo + 3, reason: "the frame does not decompress", resume: nil)]
        case 0: return [.deviceJoined(spaceId: TestLog.logId, device: device, name: chance(50) ? "laptop" : nil)]
        case 1: return [.deviceForked(from: device, upTo: upTo, head: head)]
        case 2: return [.syncIngested(from: device, upTo: upTo, head: head)]
        default:
            let other = DeviceID(high: random.next(), low: random.next())
            return [
                .syncIngested(from: min(device, other), upTo: upTo, head: head),
                .syncIngested(from: max(device, other), upTo: upTo + 1, head: head),
            ]
        }
    }

    /// New imported records (some running, some tagged with a deleted tag), new values for imported ones,
    /// and imported records withdrawn.
    mutating func importBatch() -> [DomainEvent] {
        let state = run.log.state
        var events: [DomainEvent] = []
        let tags = state.tags.keys.sorted()
        let imported = state.importProvenance.keys.filter { state.records[$0] != nil }.sorted()
        var touched: Set<EntityID> = []
        for _ in 0..<Int(random.next() % 4) + 1 {
            let end = run.log.now.adding(milliseconds: -Int64(random.next() % 86_400_000))
            let start = end.adding(milliseconds: -Int64(random.next() % 7_200_000))
            let tag = tags.isEmpty || chance(30) ? nil : tags[Int(random.next() % UInt64(tags.count))]
            let comment = chance(50) ? nil : ["imported", "from watson", "notes"].randomElement(using: &random)!
            let choice = random.next() % 10
            if choice < 5 || imported.isEmpty {
                importCount += 1
                let source = ImportSource(system: chance(50) ? .timewarrior : .watson, identity: "i\(importCount)")
                let record = Record(
                    id: run.ids.next(), start: start, end: chance(10) ? nil : end, tagId: tag, comment: comment)
                events.append(.recordImported(record, source: source))
            } else {
                let id = imported[Int(random.next() % UInt64(imported.count))]
                guard touched.insert(id).inserted, let provenance = state.importProvenance[id] else { continue }
                if choice < 8 {
                    let record = Record(id: id, start: start, end: end, tagId: tag, comment: comment)
                    events.append(.recordReimported(record, source: provenance.source))
                } else {
                    events.append(.recordUnimported(recordId: id))
                }
            }
        }
        return events
    }
}
