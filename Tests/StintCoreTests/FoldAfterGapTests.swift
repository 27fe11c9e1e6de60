import Foundation
import Testing

@testable import StintCore

/// The folds after the one gap a salvage leaves (docs/log-format.md §3; decision 0008 step 2b part 3): random
/// logs lose a run of batches to a `log.repaired` that names the batch after them as its resume point. The
/// events after it may stop, edit or undo what the lost ones made; the strict fold ignores those instead of
/// refusing them, the compact fold ignores the same ones and holds the same state after every event, the
/// state's checkpoint and parts keep the gap, and the projection fold leaves the rest to the strict one.
@Suite struct FoldAfterGapTests {
    /// A random log with the events of batches `a` up to `b` replaced by the record.
    struct Gapped {
        let events: [RecordedEvent]
        let record: RecordedEvent
        /// The same log without the record: the events after the gap follow the prefix directly.
        let withoutRecord: [RecordedEvent]

        init(seed: UInt64) throws {
            var log = RandomCompactLog(seed: seed)
            for _ in 0..<600 { log.step() }
            let all = log.run.log.events
            let starts = all.indices.filter { $0 > 1 && all[$0].batchStart == all[$0].seq }
            var random = SplitMix64(seed: seed ^ 0x6A9)
            let a = starts[Int(random.next() % UInt64(starts.count / 2))]
            let later = starts.filter { $0 > a + 20 }
            let b = later[Int(random.next() % UInt64(min(later.count, 40)))]
            let repaired = DomainEvent.logRepaired(
                from: all[a].seq, to: all[b].seq - 1, reason: "a test's gap",
                resume: ResumePoint(seq: all[b].seq, link: "0123456789abcdef0123456789abcdef"))
            record = TestLog.place([repaired], after: all[a - 1].seq, at: all[a - 1].at)[0]
            events = Array(all[..<a]) + [record] + Array(all[b...])
            withoutRecord = Array(all[..<a]) + Array(all[b...])
        }
    }

    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return (1...12).map { 0x6A_0000 + $0 }
    }

    @Test func theStrictAndCompactFoldsIgnoreTheSameEventsAfterTheGap() throws {
        var refusedWithoutRecord = 0
        for seed in Self.seeds {
            let log = try Gapped(seed: seed)
            var reference = try LogState(genesis: log.events[0])
            var compact = try #require(CompactFold(genesis: log.events[0], capacity: 16))
            for event in log.events.dropFirst() {
                try reference.apply(event)
                let applied = compact.apply(event)
                #expect(applied, "seed \(seed): the compact fold refused \(event.seq)")
                if event.seq == log.record.seq {
                    #expect(reference.resumedAfterRepair == event.seq)
                    #expect(reference.undoStack.isEmpty && reference.redoStack.isEmpty)
                }
                guard compact.logState == reference else {
                    #expect(compact.logState == reference, "seed \(seed) at seq \(event.seq)")
                    return
                }
            }
            #expect(reference.lastSeq == log.events.last!.seq)
            // Without the record, the same events are damage somewhere (or the gap lost nothing they name): the
            // compact fold then lists some it ignored, all after the record.
            if (try? LogState.fold(log.withoutRecord)) == nil {
                refusedWithoutRecord += 1
                #expect(!compact.ignoredAfterGap.isEmpty, "seed \(seed)")
            }
            #expect(compact.ignoredAfterGap.allSatisfy { $0 > log.record.seq })

            // The gap survives the compact checkpoint and the read models' parts.
            let restored = try reference.compactCheckpoint.withUnsafeBytes { (bytes) throws(DomainError) in
                try LogState(compactCheckpoint: bytes)
            }
            #expect(restored == reference)
            #expect(restored.resumedAfterRepair == log.record.seq)
            #expect(compact.compactCheckpoint == reference.compactCheckpoint)
            #expect(try LogState(parts: reference.parts).resumedAfterRepair == log.record.seq)
        }
        #expect(refusedWithoutRecord >= Self.seeds.count / 2, "the gaps lose too little to test the folds")
    }

    @Test func beforeAnyGapAViolationIsStillDamage() throws {
        let log = try Gapped(seed: 0x6A_0001)
        var state = try LogState.fold(log.events[..<Int(log.record.seq - 1)])
        #expect(state.resumedAfterRepair == nil)
        let stop = TestLog.place(
            [.timerStopped(recordId: SequentialIDs.id(999_999), end: state.lastAt)], after: state.lastSeq,
            at: state.lastAt)[
                0]
        let stopped = (try? state.apply(stop)) != nil
        #expect(!stopped)
        var compact = try #require(CompactFold(genesis: log.events[0], capacity: 16))
        for event in log.events[1..<Int(log.record.seq - 1)] where !compact.apply(event) {
            Issue.record("the compact fold refused \(event.seq)")
        }
        let compactStopped = compact.apply(stop)
        #expect(!compactStopped)
    }

    /// A record that names a resume point empties the undo stack: inside a batch whose inverses go on that
    /// stack, it is damage (not a trap), in both folds.
    @Test func aRepairWithAResumePointInsideABatchIsDamage() throws {
        let log = try Gapped(seed: 0x6A_0003)
        let index = Int(log.record.seq - 1)
        var state = try LogState.fold(log.events[..<index])
        var compact = try #require(CompactFold(genesis: log.events[0], capacity: 16))
        for event in log.events[1..<index] where !compact.apply(event) { Issue.record("refused \(event.seq)") }
        let repaired = try DomainEvent(log.record)
        let started = DomainEvent.timerStarted(
            recordId: SequentialIDs.id(888_888), start: state.lastAt, tagId: nil, comment: nil)
        for batch in [[started, repaired], [repaired, started]] {
            let placed = TestLog.place(batch, after: state.lastSeq, at: state.lastAt)
            var reference = state
            let folded = (try? placed.forEach { (event) throws(DomainError) in try reference.apply(event) }) != nil
            #expect(!folded, "\(batch)")
            var copy = compact
            let compactFolded = placed.allSatisfy { copy.apply($0) }
            #expect(!compactFolded, "\(batch)")
        }
        _ = state.lastSeq
        state = try LogState.fold(log.events[...index])
        #expect(state.resumedAfterRepair == log.record.seq)
    }

    @Test func theProjectionFoldLeavesWhatFollowsAGapToTheStrictFold() throws {
        let log = try Gapped(seed: 0x6A_0002)
        let index = Int(log.record.seq - 1)
        var before = ProjectionState(try LogState.fold(log.events[..<index]))
        let folded = (try? before.apply(log.record)) != nil
        #expect(!folded)
        let after = try LogState.fold(log.events[...index])
        var projection = ProjectionState(after)
        #expect(projection.resumedAfterRepair == log.record.seq)
        let next = (try? projection.apply(log.events[index + 1])) != nil
        #expect(!next)
        let restored = try ProjectionState(checkpoint: projection.checkpointJSON)
        #expect(restored == projection)
    }
}
