/// Where a log's chain resumes after the one gap a salvage may leave (docs/log-format.md §6): the `seq` of the
/// first event kept after the lost ones, and that event's `prev` link, as `log.repaired` version 2 names them
/// (``DomainEvent/logRepaired(from:to:reason:resume:)``).
///
/// The event that names it is chained to the events before it as any other; the event after it must have
/// exactly this `seq` and this `prev` instead of following it. So the chain stays checkable end to end: the
/// gap is where the record says, and nowhere else.
public struct ResumePoint: Hashable, Sendable {
    /// The `seq` of the first event after the gap (greater than the record's own `seq`).
    public var seq: Int64

    /// The largest resume point a record may name: a log resumed there is still 2^62 events from the largest
    /// `seq`, so no reader's count of the `seq` after an event can overflow.
    public static let largestSeq: Int64 = 1 << 62
    /// That event's `prev`: 32 lowercase hex digits, the link to a line the log no longer holds.
    public var link: String

    public init(seq: Int64, link: String) {
        self.seq = seq
        self.link = link
    }
}

extension RecordedEvent {
    /// The resume point this event names: a `log.repaired` of version 2 with one, ahead of its own `seq`; nil for
    /// every other event (cheap: the version is compared before the type).
    public var resumePoint: ResumePoint? {
        guard version >= 2, type == EventType.logRepaired.rawValue,
            case .logRepaired(_, _, _, let resume?)? = try? DomainEvent(self), resume.seq > seq
        else { return nil }
        return resume
    }
}
