/// An event as it stands in the log: the envelope the writer assigned around a domain payload.
///
/// One line of a segment is the canonical JSON of one `RecordedEvent` (see docs/log-format.md):
/// `{"seq":…,"at":…,"type":…,"v":…,["tx":…,]["clock":…,]"prev":…,"data":{…}}`.
public struct RecordedEvent: Hashable, Sendable {
    /// Position in the log, 1-based and gapless.
    public var seq: Int64
    /// When the writer recorded the event (never earlier than the previous event's `at`).
    public var at: Instant
    /// The persisted type string, such as `timer.started`.
    public var type: String
    /// The schema version of `type` that `data` follows.
    public var version: Int
    /// The `seq` of the first event of this event's batch; nil when the batch holds this event alone.
    public var tx: Int64?
    /// The clock reading when it was earlier than the previous event's `at` and `at` was clamped to it.
    public var clock: Instant?
    /// The first 16 bytes of the SHA-256 of the previous event's line (with its newline), in lowercase
    /// hex; 32 zeros for `seq` 1.
    public var prev: String
    /// The payload, an object whose shape `type` and `version` define (Events/README.md).
    public var data: JSON

    public init(
        seq: Int64, at: Instant, type: String, version: Int, tx: Int64? = nil, clock: Instant? = nil,
        prev: String, data: JSON
    ) {
        self.seq = seq
        self.at = at
        self.type = type
        self.version = version
        self.tx = tx
        self.clock = clock
        self.prev = prev
        self.data = data
    }

    /// The `seq` of the first event of the batch this event belongs to.
    public var batchStart: Int64 { tx ?? seq }

    /// The domain payload without the envelope.
    public var draft: EventDraft { EventDraft(type: type, version: version, data: data) }

    /// The `prev` of the first event of a log.
    public static let genesisPrev = String(repeating: "0", count: 32)
}

/// A domain event before the writer has placed it in the log: its type, schema version and payload.
public struct EventDraft: Hashable, Sendable {
    public var type: String
    public var version: Int
    public var data: JSON

    public init(type: String, version: Int, data: JSON) {
        self.type = type
        self.version = version
        self.data = data
    }
}
