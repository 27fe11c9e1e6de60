public import StintCore

/// The point of a log's history a read looks at.
public enum ReadPoint: Hashable, Sendable {
    /// Every event, with the clock's instant as "now".
    case latest
    /// The events recorded at or before the instant, which is also "now" (`--at`). In a space: the merged
    /// events whose hybrid logical clock reads at or before it.
    case at(Instant)
    /// Events 1…N, with the recorded time of event N as "now" (`--seq`). In a space: this device's event N
    /// and every event that sorts before it.
    case seq(Int64)
    /// In a space: the device's event N and every event that sorts before it in the merged history, with its
    /// recorded time as "now" (`--seq DEVICE:N`).
    case deviceSeq(DeviceID, Int64)
    /// In a space: exactly what the device had seen at the instant (all it had seen when nil): its own events
    /// recorded by then and, of every other device, the events its last ingestion by then took in (what
    /// its widget showed; `--as-known-by DEVICE[@T]`). "Now" is the instant, else the clock's.
    case knownBy(DeviceID, Instant?)

    /// The instant the projections of a fold up to this point are computed at — the clock's for the latest
    /// point, the point's own instant, or the recorded time of the point's event (`lastAt`, the fold's last) —
    /// the one "now" of every loader (issue 35, docs/decisions/0009-one-seam.md step 2b).
    ///
    /// - Parameters:
    ///   - reached: the `seq` the fold ended at, when the point's `seq` counts the fold's events (a single log);
    ///     nil for a space's merged fold, whose history already refused a `seq` its device does not have.
    /// - Returns: nil when the fold did not reach the point's `seq` (the log ends before it).
    func now(reached: Int64?, lastAt: Instant, clock: () -> Instant) -> Instant? {
        switch self {
        case .latest: return clock()
        case .at(let instant): return instant
        case .seq(let n):
            if let reached, reached != n { return nil }
            return lastAt
        case .deviceSeq: return lastAt
        case .knownBy(_, let instant): return instant ?? clock()
        }
    }

    /// The last `seq` a single log's fold up to this point reads (`--seq N`); nil when the point does not
    /// limit it.
    var seqLimit: Int64? { if case .seq(let n) = self { n } else { nil } }

    /// The last instant a single log's fold up to this point reads (`--at`); nil when the point does not
    /// limit it.
    var instantLimit: Instant? { if case .at(let instant) = self { instant } else { nil } }

    /// Whether the point names a device, which only a space has.
    var namesDevice: Bool {
        switch self {
        case .latest, .at, .seq: false
        case .deviceSeq, .knownBy: true
        }
    }
}
