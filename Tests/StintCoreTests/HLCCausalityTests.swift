import Foundation
import Testing

@testable import StintCore

/// The hybrid logical clock's promises under random skewed, drifting and jittering clocks (`SkewedDevices`),
/// with the control the issue asks for: ordering by wall time (`at`) breaks causality under the same skew,
/// so the causality check is known to be able to fail.
@Suite struct HLCCausalityTests {
    static let steps = 300

    /// Fixed seeds (always run, so CI is repeatable), a fresh one (so runs explore), or STINT_TEST_SEED.
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0x5717_0014, 0x5717_0015, 0x5717_0016, UInt64.random(in: 0...UInt64.max)]
    }

    @Test(arguments: seeds)
    func causallyLaterEventsSortLaterWhateverTheClocksSay(seed: UInt64) throws {
        print("HLCCausalityTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var simulation = SkewedDevices(seed: seed, devices: 2 + Int(seed % 4))
        try simulation.run(steps: Self.steps)
        let order = simulation.events.sorted { simulation.key($0) < simulation.key($1) }
        #expect(causalityViolations(in: order) == 0, "seed \(seed)")
    }

    @Test(arguments: seeds)
    func eachDevicesReadingsStrictlyIncreaseBetweenBatchesAndAreSharedWithinOne(seed: UInt64) throws {
        var simulation = SkewedDevices(seed: seed, devices: 3)
        try simulation.run(steps: Self.steps)
        for log in simulation.logs {
            for (previous, event) in zip(log, log.dropFirst()) {
                if event.batch == previous.batch {
                    #expect(event.hlc == previous.hlc, "seed \(seed), seq \(event.seq)")
                } else {
                    #expect(previous.hlc < event.hlc, "seed \(seed), seq \(event.seq)")
                }
                // The hlc never falls behind `at`, the writer's clock clamped to never go back.
                #expect(event.hlc.milliseconds >= event.at.milliseconds, "seed \(seed), seq \(event.seq)")
            }
        }
    }

    /// Kulkarni et al.'s bound: a reading's milliseconds are never after the latest physical reading any
    /// device had taken (the clock follows the fastest clock, it does not run away), and the counter stays
    /// small (it only counts batches within one millisecond).
    @Test(arguments: seeds)
    func readingsNeverRunAheadOfEveryPhysicalClock(seed: UInt64) throws {
        var simulation = SkewedDevices(seed: seed, devices: 2 + Int(seed % 4))
        try simulation.run(steps: Self.steps)
        for event in simulation.events {
            #expect(event.hlc.milliseconds <= event.latestReading.milliseconds, "seed \(seed), \(event)")
            #expect(event.hlc.counter < UInt32(Self.steps), "seed \(seed), \(event)")
        }
    }

    /// The control: merged by (`at`, device, seq), the same histories put an event before one it happened
    /// before. If this stopped failing, the simulation would no longer exercise skew, and the property above
    /// would prove nothing.
    @Test func orderingByWallTimeBreaksCausalityUnderSkew() throws {
        var broken = 0
        for seed in Self.seeds {
            var simulation = SkewedDevices(seed: seed, devices: 2 + Int(seed % 4))
            try simulation.run(steps: Self.steps)
            let order = simulation.events.sorted { simulation.wallClockKey($0) < simulation.wallClockKey($1) }
            let violations = causalityViolations(in: order)
            print(
                "seed \(seed): ordered by wall time, \(violations) pairs of \(order.count) events out of causal order")
            if violations > 0 { broken += 1 }
        }
        #expect(broken > 0, "ordering by wall time kept causality on every seed: the simulation lost its skew")
        // With skews of hours, it breaks on the fixed seeds, not only on a lucky one.
        var fixed = SkewedDevices(seed: 0x5717_0014, devices: 3)
        try fixed.run(steps: Self.steps)
        let order = fixed.events.sorted { fixed.wallClockKey($0) < fixed.wallClockKey($1) }
        #expect(causalityViolations(in: order) > 0)
    }

    @Test func aDeviceFarAheadIsFollowedAndFlagged() throws {
        // Device 1's clock is three days ahead; device 0 ingests its log and writes after it.
        var simulation = SkewedDevices(seed: 7, devices: 2)
        simulation.physical[0] = .init(skew: 0, driftPPM: 0, jitter: 0)
        simulation.physical[1] = .init(skew: 3 * 86_400_000, driftPPM: 0, jitter: 0)
        try simulation.write(device: 1, count: 1, received: nil)
        try simulation.ingest(device: 0, from: 1, upTo: 1)
        try simulation.write(device: 0, count: 1, received: nil)
        #expect(simulation.flagged == 1)
        let ahead = simulation.logs[1][0]
        for event in simulation.logs[0] {
            #expect(simulation.key(ahead) < simulation.key(event))
            #expect(event.at < ahead.at, "the display time stays the device's own clock")
        }
    }

    @Test func concurrentEventsWithEqualReadingsAreOrderedByDevice() throws {
        let low = DeviceID(high: 1, low: 0)
        let high = DeviceID(high: 0xFFFF_0000_0000_0000, low: 0)
        var first = HybridLogicalClock()
        var second = HybridLogicalClock()
        let now = Instant(milliseconds: 1_764_500_000_000)
        let a = MergeKey(hlc: try first.tick(now: now), device: high, seq: 1)
        let b = MergeKey(hlc: try second.tick(now: now), device: low, seq: 9)
        #expect(a.hlc == b.hlc)
        #expect(try MergeOrder.merge([[a], [b]]) { $0 } == [b, a])
        #expect(b < a && b.description == "\(low):9")
    }
}
