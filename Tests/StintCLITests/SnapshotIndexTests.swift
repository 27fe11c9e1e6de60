import Foundation
import StintCore
import StintEngine
import StintLog
import TestSupport
import Testing

/// The fast snapshot path (`SnapshotIndex`, used by `replay` and `widget`) gives the plain projection's
/// value at every batch of random logs, and `PublishReplay` decides what a plain simulation decides.
@Suite struct SnapshotIndexTests {
    struct Scenario: CustomTestStringConvertible, Sendable {
        var seed: UInt64
        var timeZone: String
        var firstWeekday: Int
        var start: String

        var testDescription: String { "seed \(seed), \(timeZone), first weekday \(firstWeekday)" }
    }

    static let scenarios = [
        Scenario(seed: 20_260_308, timeZone: "America/New_York", firstWeekday: 1, start: "2026-02-20T13:00:00.000Z"),
        Scenario(seed: 20_260_329, timeZone: "Europe/Berlin", firstWeekday: 2, start: "2026-03-10T07:00:00.000Z"),
        Scenario(seed: 7, timeZone: "Asia/Kolkata", firstWeekday: 7, start: "2026-10-20T03:30:00.000Z"),
        Scenario(seed: 11, timeZone: "UTC", firstWeekday: 2, start: "2026-12-20T00:00:00.000Z"),
    ]

    @Test(arguments: scenarios)
    func indexedSnapshotEqualsThePlainProjectionAfterEveryBatch(_ scenario: Scenario) throws {
        print("SnapshotIndexTests seed \(scenario.seed)")
        var log = SyntheticLog(
            seed: scenario.seed, timeZone: scenario.timeZone, firstWeekday: scenario.firstWeekday,
            start: scenario.start)
        log.grow(toEvents: 1_000)
        let batches = Dictionary(grouping: log.events, by: \.batchStart).values.sorted { $0[0].seq < $1[0].seq }
        var state = try LogState(genesis: log.events[0])
        var index = SnapshotIndex(state: state)
        var compared = 0
        for batch in batches.dropFirst() {
            for event in batch { try state.apply(event) }
            index.update(after: batch, state: state)
            let at = batch[0].at
            // At the batch's time, and later (the window moves while the index stays).
            let nows = [
                at, state.calendar.startOfNextDay(after: at), at.adding(milliseconds: 9 * 86_400_000),
                at.adding(milliseconds: 40 * 86_400_000),
            ]
            for now in nows where compared % 5 == 0 || now == at {
                let plain = WidgetData(source: state.projectionSource, now: now)
                let fast = index.snapshot(of: state, now: now)
                #expect(fast == plain, "seq \(batch[0].seq), now \(now.iso8601), seed \(scenario.seed)")
                if fast != plain { return }
            }
            compared += 1
        }
        #expect(compared > 350)
        // A fresh index of the final state agrees with the one kept up to date.
        var fresh = SnapshotIndex(state: state)
        #expect(fresh.snapshot(of: state, now: log.now) == index.snapshot(of: state, now: log.now))
    }

    @Test(arguments: scenarios.prefix(2))
    func publishReplayMatchesAPlainSimulationOfTheApp(_ scenario: Scenario) throws {
        print("SnapshotIndexTests seed \(scenario.seed)")
        var log = SyntheticLog(
            seed: scenario.seed, timeZone: scenario.timeZone, firstWeekday: scenario.firstWeekday,
            start: scenario.start)
        log.grow(toEvents: 1_000)
        let directory = TemporaryDirectory()
        let path = directory.appending("log.jsonl")
        try log.write(to: path)
        let options = EngineOptions(clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 0, low: 0) })
        for since in [nil, log.events[log.events.count / 2].at] {
            let replay = try PublishReplay(source: try LogSource.open(path: path), since: since, options: options)
            // The plain simulation: fold everything, project every state with WidgetData(source:now:).
            var state: LogState?
            var onDisk: WidgetData?
            var activity: LiveActivityContent?
            var activityStart: Instant?
            var steps = 0
            for event in log.events {
                if state == nil { state = try LogState(genesis: event) } else { try state!.apply(event) }
                guard event.seq == log.events.last!.seq || log.events[Int(event.seq)].batchStart != event.batchStart
                else { continue }
                let at = event.at
                let snapshot = WidgetData(source: state!.projectionSource, now: at)
                let writes = onDisk.map { !snapshot.isEquivalent(to: $0) || $0.isStale(at: at) } ?? true
                let action = LiveActivityPlan.decide(
                    current: activity, startedAt: activityStart, timers: snapshot.runningTimers, at: at)
                if let since, at < since {
                    // A replay from a point takes an activity shown there as started at its last batch.
                    if writes { onDisk = snapshot }
                    activity =
                        snapshot.runningTimers.isEmpty
                        ? nil : LiveActivityContent(runningTimers: snapshot.runningTimers)
                    activityStart = activity == nil ? nil : at
                    continue
                }
                let step = try #require(try replay.next(), "seq \(event.seq)")
                #expect(step.batch.lastSeq == event.seq)
                #expect(step.snapshot == snapshot, "seq \(event.seq)")
                #expect(step.writesSnapshot == writes, "seq \(event.seq)")
                #expect(step.liveActivity == action, "seq \(event.seq)")
                if writes { onDisk = snapshot }
                if case .start = action { activityStart = at }
                if let start = activityStart, LiveActivityPlan.systemEnd(ofActivityStartedAt: start) <= at,
                    action == .none
                {
                    // iOS had ended the activity and no timer runs: none is shown.
                    activity = nil
                    activityStart = nil
                }
                activity = action.content ?? (action == .end ? nil : activity)
                if activity == nil { activityStart = nil }
                steps += 1
            }
            #expect(try replay.next() == nil)
            #expect(steps > 60)
        }
    }

    /// Not timed by default (timings fail on busy machines); `STINT_REPLAY_BENCH=1` prints the cost of
    /// replaying a log of 100 000 events, and `STINT_REPLAY_BENCH_LOG=PATH` keeps the log there (for
    /// timing a release build of `stint replay --log PATH`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STINT_REPLAY_BENCH"] == "1"))
    func replayOfAHundredThousandEvents() throws {
        var log = SyntheticLog(seed: 100_000, start: "2020-01-06T13:00:00.000Z")
        log.grow(toEvents: 100_000, referencingRecords: false)
        let directory = TemporaryDirectory()
        let path = ProcessInfo.processInfo.environment["STINT_REPLAY_BENCH_LOG"] ?? directory.appending("log.jsonl")
        try log.write(to: path)
        let options = EngineOptions(clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 0, low: 0) })
        let clock = ContinuousClock()
        var steps = 0
        var writes = 0
        let elapsed = try clock.measure {
            let replay = try PublishReplay(source: try LogSource.open(path: path), since: nil, options: options)
            while let step = try replay.next() {
                steps += 1
                if step.writesSnapshot { writes += 1 }
            }
        }
        print("replay of \(log.events.count) events, \(steps) batches, \(writes) writes: \(elapsed)")
        #expect(steps > 40_000)
    }
}
