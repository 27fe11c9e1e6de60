public import StintCore

/// The events one command appended together: all or none of them are in the log.
///
/// A batch of one event has no `tx`; the events of a larger batch all carry `tx` = the `seq` of the first.
/// All events of a batch share one `at`.
public struct LogBatch: Hashable, Sendable {
    /// The events, in `seq` order; never empty.
    public var events: [RecordedEvent]

    /// The compressed bytes of the data frame the batch was read from, as the log holds them, when a reader
    /// asked for them (``LogReader/Options/keepsFrames``) and that frame held this batch and nothing else,
    /// every line of it checked without a problem; nil otherwise. A mirror's writer appends them instead of
    /// compressing the batch again, once it has checked that they decompress to the lines it would write
    /// (``LogWriter/appendRecorded(read:sealedCopies:)``). Not part of the batch's equality: the same events
    /// compress to other bytes at another level.
    package var sourceFrame: [UInt8]?

    /// A batch of the given events (at least one).
    public init(events: [RecordedEvent]) {
        self.events = events
    }

    public static func == (lhs: LogBatch, rhs: LogBatch) -> Bool {
        lhs.events == rhs.events
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
    }

    /// The `seq` of the first event.
    public var firstSeq: Int64 { events[0].seq }
    /// The `seq` of the last event.
    public var lastSeq: Int64 { events[events.count - 1].seq }
}
