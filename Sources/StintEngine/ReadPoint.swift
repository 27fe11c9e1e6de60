public import StintCore

/// The point of a log's history a read looks at.
public enum ReadPoint: Hashable, Sendable {
    /// Every event, with the clock's instant as "now".
    case latest
    /// The events recorded at or before the instant, which is also "now" (`--at`).
    case at(Instant)
    /// Events 1…N, with the recorded time of event N as "now" (`--seq`).
    case seq(Int64)
}
