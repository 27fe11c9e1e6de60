public import StintCore
import Synchronization

/// Hands out predictable ids: `00000000-0000-4000-8000-000000000001`, `…002`, and so on.
public final class IncrementingIDs: Sendable {
    private let counter = Mutex<UInt64>(0)

    public init(startingAfter start: UInt64 = 0) {
        counter.withLock { $0 = start }
    }

    /// The next id.
    public func next() -> EntityID {
        let value = counter.withLock { counter -> UInt64 in
            counter += 1
            return counter
        }
        return EntityID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | value)
    }

    /// A closure for APIs that take an id generator.
    public var generator: @Sendable () -> EntityID {
        { self.next() }
    }
}
