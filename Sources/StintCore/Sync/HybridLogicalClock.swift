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
