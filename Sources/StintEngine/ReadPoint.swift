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

    /// Whether the point names a device, which only a space has.
    var namesDevice: Bool {
        switch self {
        case .latest, .at, .seq: false
        case .deviceSeq, .knownBy: true
        }
    }
}
