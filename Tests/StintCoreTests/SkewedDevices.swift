@testable import StintCore

/// A seeded simulation of a few devices with skewed, drifting and jittering clocks that write batches and
/// ingest each other's logs, for the clock and merge properties (`HLCCausalityTests`, `MergeOrderTests`).
///
/// Every batch gets an `hlc` from its device's `HybridLogicalClock` and an `at` as `BatchEncoder` gives it
/// (the clock's reading, never before the device's previous `at`); ingesting another device's log up to some
/// `seq` is itself a batch (`sync.ingested`), whose clock first receives the last ingested `hlc`. Vector
/// clocks record what each event causally follows, independently of both.
struct SkewedDevices {
    /// One event of the simulation.
    struct Event: Hashable {
        var device: Int
        var seq: Int64
        var hlc: HLC
        var at: Instant
        /// The `seq` of the batch's first event.
        var batch: Int64
        /// Per device, how many of its events this one causally follows (itself included for its own device).
        var vector: [Int64]
        /// The latest physical reading any device had taken when this event was written.
        var latestReading: Instant

        /// Whether `self` happened before `other`: `other` was written by a device that had seen `self`.
        func happened(before other: Event) -> Bool {
            self != other && other.vector[device] >= seq
        }
    }

    /// A device's physical clock: true time + skew + drift (parts per million) + jitter, which can make
    /// successive readings go back (an NTP step, a user changing the clock).
    struct PhysicalClock {
        var skew: Int64
        var driftPPM: Int64
        var jitter: Int64

        func reading(at trueTime: Int64, using random: inout SplitMix64) -> Instant {
            let noise = jitter == 0 ? 0 : Int64.random(in: -jitter...jitter, using: &random)
            let drift = (trueTime - SkewedDevices.start) / 1_000_000 * driftPPM
            return Instant(milliseconds: trueTime + skew + drift + noise)
        }
    }

    let ids: [DeviceID]
    var physical: [PhysicalClock]
    var clocks: [HybridLogicalClock]
    var logs: [[Event]]
    var vectors: [[Int64]]
    static let start: Int64 = 1_764_500_000_000
    var trueTime = SkewedDevices.start
    var random: SplitMix64
    /// Readings an ingesting device flagged as more than a day ahead of its clock (rule 9).
    var flagged = 0
    /// The latest physical reading taken by any device so far.
    var latestReading = Instant(milliseconds: 0)

    init(seed: UInt64, devices: Int) {
        random = SplitMix64(seed: seed)
        var ids: [DeviceID] = []
        for _ in 0..<devices { ids.append(DeviceID(using: &random)) }
        self.ids = ids
        physical = []
        for _ in 0..<devices {
            // Skews up to ±6 hours, one device in four up to 3 days ahead; drift up to ±500 ppm; jitter ≤ 2 s.
            let farAhead = Int.random(in: 0..<4, using: &random) == 0
            let skew =
                farAhead
                ? Int64.random(in: 0...(3 * 86_400_000), using: &random)
                : Int64.random(in: -21_600_000...21_600_000, using: &random)
            physical.append(
                PhysicalClock(
                    skew: skew, driftPPM: Int64.random(in: -500...500, using: &random),
                    jitter: Int64.random(in: 0...2_000, using: &random)))
        }
        clocks = Array(repeating: HybridLogicalClock(), count: devices)
        logs = Array(repeating: [], count: devices)
        vectors = Array(repeating: Array(repeating: 0, count: devices), count: devices)
    }

    /// Runs `steps` random steps: time passes (sometimes not at all), a device writes a batch of one to three
    /// events, or a device ingests a prefix of another device's log.
    mutating func run(steps: Int) throws {
        for _ in 0..<steps {
            trueTime += [0, 1, 7, 1_000, 60_000, 3_600_000].randomElement(using: &random)!
            let device = Int.random(in: 0..<ids.count, using: &random)
            let other = Int.random(in: 0..<ids.count, using: &random)
            if other != device, Int64(logs[other].count) > vectors[device][other], Bool.random(using: &random) {
                let upTo = Int64.random(in: (vectors[device][other] + 1)...Int64(logs[other].count), using: &random)
                try ingest(device: device, from: other, upTo: upTo)
            } else {
                try write(device: device, count: Int.random(in: 1...3, using: &random), received: nil)
            }
        }
    }

    /// `device` ingests `from`'s log up to `upTo` and records it in a batch of its own.
    mutating func ingest(device: Int, from source: Int, upTo: Int64) throws {
        let last = logs[source][Int(upTo) - 1]
        for (index, known) in last.vector.enumerated() { vectors[device][index] = max(vectors[device][index], known) }
        try write(device: device, count: 1, received: last.hlc)
    }

    /// `device` appends a batch of `count` events, after receiving `received` when it ingested.
    mutating func write(device: Int, count: Int, received: HLC?) throws {
        let now = physical[device].reading(at: trueTime, using: &random)
        latestReading = max(latestReading, now)
        let hlc: HLC
        if let received {
            if received.isFarAhead(of: now) { flagged += 1 }
            hlc = try clocks[device].receive(received, now: now)
        } else {
            hlc = try clocks[device].tick(now: now)
        }
        let at = max(now, logs[device].last?.at ?? now)
        let first = Int64(logs[device].count) + 1
        for offset in 0..<Int64(count) {
            vectors[device][device] = first + offset
            logs[device].append(
                Event(
                    device: device, seq: first + offset, hlc: hlc, at: at, batch: first, vector: vectors[device],
                    latestReading: latestReading))
        }
    }

    func key(_ event: Event) -> MergeKey { MergeKey(hlc: event.hlc, device: ids[event.device], seq: event.seq) }

    /// The control the issue asks for: the merge by display time, (`at`, device, seq).
    func wallClockKey(_ event: Event) -> (Instant, DeviceID, Int64) { (event.at, ids[event.device], event.seq) }

    /// Every event, in no particular order.
    var events: [Event] { logs.flatMap { $0 } }
}

/// The pairs of an order in which an event comes before one it happened before: causality broken.
func causalityViolations(in order: [SkewedDevices.Event]) -> Int {
    var violations = 0
    for (index, later) in order.enumerated() {
        for earlier in order[index...] where earlier.happened(before: later) { violations += 1 }
    }
    return violations
}
