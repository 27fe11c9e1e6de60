public import StintCore

/// The events one command appended together: all or none of them are in the log.
///
/// A batch of one event has no `tx`; the events of a larger batch all carry `tx` = the `seq` of the first.
/// All events of a batch share one `at`.
public struct LogBatch: Hashable, Sendable {
    /// The events, in `seq` order; never empty.
    public var events: [RecordedEvent]

    /// A batch of the given events (at least one).
    public init(events: [RecordedEvent]) {
        self.events = events
    }

    /// The `seq` of the first event.
    public var firstSeq: Int64 { events[0].seq }
    /// The `seq` of the last event.
    public var lastSeq: Int64 { events[events.count - 1].seq }
}
