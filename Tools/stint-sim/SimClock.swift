// The simulated time: one true time for the whole run, and per device a physical clock that reads it
// skewed, drifting, jittering and sometimes stepped back (decision 0007 §9).
import StintCore
import Synchronization

/// The true time of the simulation, in milliseconds since 1970; only the simulation advances it.
final class TrueTime: Sendable {
    static let start: Int64 = 1_796_115_600_000  // 2026-12-01T09:00:00Z
    private let value = Mutex<Int64>(TrueTime.start)

    var now: Int64 { value.withLock { $0 } }

    func advance(by milliseconds: Int64) { value.withLock { $0 += milliseconds } }
}

/// A device's physical clock: true time + skew + drift (parts per million of the time elapsed) + jitter +
/// the sum of the steps back it took (an NTP correction, a person setting the clock).
final class DeviceClock: Sendable {
    let skew: Int64
    let driftPPM: Int64
    let jitter: Int64
    private let trueTime: TrueTime
    private let state: Mutex<(random: SplitMix64, steppedBack: Int64)>

    /// Skew within ±6 h, or for one device in four up to 3 days ahead; drift within ±500 ppm; jitter ≤ 2 s.
    init(trueTime: TrueTime, random: inout SplitMix64) {
        self.trueTime = trueTime
        let farAhead = Int.random(in: 0..<4, using: &random) == 0
        skew =
            farAhead
            ? Int64.random(in: 0...(3 * 86_400_000), using: &random)
            : Int64.random(in: -21_600_000...21_600_000, using: &random)
        driftPPM = Int64.random(in: -500...500, using: &random)
        jitter = Int64.random(in: 0...2_000, using: &random)
        state = Mutex((SplitMix64(seed: random.next()), 0))
    }

    /// The clock's reading now.
    func reading() -> Instant {
        let now = trueTime.now
        return state.withLock { state in
            let noise = jitter == 0 ? 0 : Int64.random(in: -jitter...jitter, using: &state.random)
            let drift = (now - TrueTime.start) / 1_000_000 * driftPPM
            return Instant(milliseconds: now + skew + drift + noise - state.steppedBack)
        }
    }

    /// Sets the clock back by `milliseconds`, from now on.
    func stepBack(_ milliseconds: Int64) { state.withLock { $0.steppedBack += milliseconds } }
}

/// New ids for one device, from its own seeded generator.
final class SeededIDs: Sendable {
    private let random: Mutex<SplitMix64>

    init(seed: UInt64) { random = Mutex(SplitMix64(seed: seed)) }

    func next() -> EntityID {
        random.withLock { EntityID(randomBits: $0.next(), $0.next()) }
    }
}
