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

/// The hybrid logical clock of one device (Kulkarni et al., "Logical Physical Clocks", 2014): the greatest
/// reading it has issued or seen, and the rules that issue the next one.
///
/// Time is an input: the physical reading `now` is passed in, never read. Every reading it issues is
/// greater than every reading it issued or received before, so the events of one device strictly increase,
/// and an event written after its device received another device's reading sorts after that reading,
/// whatever the physical clocks say.
///
/// ```swift
/// var clock = HybridLogicalClock(last: lastEventsHLC)
/// let hlc = try clock.tick(now: reading)   // the hlc of the batch about to be appended
/// ```
public struct HybridLogicalClock: Hashable, Sendable {
    /// The greatest reading issued or received.
    public private(set) var last: HLC

    /// A clock that continues after `last` (the `hlc` of the device's last event; ``HLC/zero`` for none).
    public init(last: HLC = .zero) {
        self.last = last
    }

    /// The reading of a local batch at physical time `now`: `now`'s milliseconds when they are after the last
    /// reading's, otherwise the last reading's successor (its counter bumped). A physical reading after
    /// ``HLC/maximumMilliseconds`` is not a time the log can hold and counts as not advancing. On error the
    /// clock is unchanged.
    ///
    /// - Throws: ``SyncError/Code/clockExhausted`` when the last reading is ``HLC/maximum``.
    public mutating func tick(now: Instant) throws(SyncError) -> HLC {
        let next: HLC
        if now.milliseconds > last.milliseconds, let physical = HLC(milliseconds: now.milliseconds, counter: 0) {
            next = physical
        } else {
            next = try last.successor()
        }
        last = next
        return next
    }

    /// The reading of the event that receives `remote` (another device's reading) at physical time `now`:
    /// greater than the last reading and than `remote`, with `now`'s milliseconds when they are after both.
    ///
    /// This is Kulkarni et al.'s receive rule: `l' = max(l, l_remote, pt)`; the counter is 0 when `pt` alone
    /// gives `l'`, otherwise one more than the greatest counter among the readings whose milliseconds are
    /// `l'`. A remote reading far ahead of `now` is adopted all the same (rule 9: accepted and flagged); the
    /// caller flags it with ``HLC/isFarAhead(of:)``.
    ///
    /// - Throws: ``SyncError/Code/clockExhausted`` when the greater of the two readings is ``HLC/maximum``;
    ///   the clock is then unchanged.
    public mutating func receive(_ remote: HLC, now: Instant) throws(SyncError) -> HLC {
        var clock = HybridLogicalClock(last: max(last, remote))
        let next = try clock.tick(now: now)
        self = clock
        return next
    }
}
