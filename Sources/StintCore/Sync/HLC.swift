/// A hybrid logical clock reading, `[ms, counter]`: the merge order's first key
/// (docs/decisions/0007-multi-device-sync.md).
///
/// `milliseconds` follows the physical clocks of the devices (it is never behind the writer's clock and
/// never behind any reading the writer has seen); `counter` orders readings within one millisecond. Readings
/// compare by `milliseconds`, then `counter`. Every reading can be shown as an instant: `milliseconds` is at
/// most ``maximumMilliseconds``, 9999-12-31T23:59:59.999Z, the last instant the log's ISO 8601 form holds.
public struct HLC: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch, 0…``maximumMilliseconds``.
    public let milliseconds: Int64
    /// Orders readings with the same `milliseconds`.
    public let counter: UInt32

    /// The last millisecond a reading may have: 9999-12-31T23:59:59.999Z.
    public static let maximumMilliseconds: Int64 = 253_402_300_799_999
    /// The smallest reading, before every event.
    public static let zero = HLC(uncheckedMilliseconds: 0, counter: 0)
    /// The greatest reading; a clock that reaches it can issue no more (``SyncError/Code/clockExhausted``).
    public static let maximum = HLC(uncheckedMilliseconds: maximumMilliseconds, counter: .max)
    /// How far ahead of a reader's clock a reading may be before it is flagged (conflict rule 9): one day.
    public static let farAheadTolerance: Int64 = 86_400_000

    /// A reading; nil when `milliseconds` is outside 0…``maximumMilliseconds``.
    public init?(milliseconds: Int64, counter: UInt32) {
        guard (0...HLC.maximumMilliseconds).contains(milliseconds) else { return nil }
        self.init(uncheckedMilliseconds: milliseconds, counter: counter)
    }

    private init(uncheckedMilliseconds milliseconds: Int64, counter: UInt32) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    /// The reading an event without an `hlc` (log format 1) is read with: `[at, 0]`, so that a format-1
    /// log merges in its own `seq` order (ties within one device are broken by `seq`).
    public init(impliedBy at: Instant) {
        self.init(uncheckedMilliseconds: min(max(at.milliseconds, 0), HLC.maximumMilliseconds), counter: 0)
    }

    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
    }

    /// The smallest reading after this one: the next counter, or, when the counter is at its maximum, the
    /// next millisecond with counter 0 (a clock that issued 2³² readings in one millisecond runs one
    /// millisecond ahead rather than stopping).
    ///
    /// - Throws: ``SyncError/Code/clockExhausted`` after ``maximum``.
    public func successor() throws(SyncError) -> HLC {
        if counter < .max { return HLC(uncheckedMilliseconds: milliseconds, counter: counter + 1) }
        guard milliseconds < HLC.maximumMilliseconds else {
            throw SyncError(
                .clockExhausted,
                "the hybrid logical clock is at its maximum, [\(milliseconds),\(counter)]: a device wrote a reading "
                    + "at the end of year 9999; find it with `stint sync status` and fork it off")
        }
        return HLC(uncheckedMilliseconds: milliseconds + 1, counter: 0)
    }

    /// Whether this reading is more than ``farAheadTolerance`` ahead of `now`, a reader's clock (conflict
    /// rule 9: such an event is accepted, ordered by its reading, and flagged).
    public func isFarAhead(of now: Instant) -> Bool {
        milliseconds > now.milliseconds && milliseconds - now.milliseconds > HLC.farAheadTolerance
    }

    /// `[ms,counter]`, the envelope's form.
    public var description: String { "[\(milliseconds),\(counter)]" }
}
