public import StintCore
import Synchronization

/// A clock that reads a set instant and moves only when told to.
public final class FixedClock: Sendable {
    private let current: Mutex<Instant>

    public init(_ instant: Instant) {
        current = Mutex(instant)
    }

    /// Parses a canonical instant such as `2026-11-29T13:07:09.123Z`; traps on anything else.
    public convenience init(_ text: String) {
        self.init(Instant(canonical: text)!)
    }

    public var now: Instant { current.withLock { $0 } }

    public func set(_ instant: Instant) {
        current.withLock { $0 = instant }
    }

    public func advance(milliseconds: Int64) {
        current.withLock { $0 = $0.adding(milliseconds: milliseconds) }
    }

    /// A closure for APIs that take a clock.
    public var reading: @Sendable () -> Instant {
        { self.now }
    }
}
