/// An event as it stands in the log: the envelope the writer assigned around a domain payload.
///
/// One line of a segment is the canonical JSON of one `RecordedEvent` (see docs/log-format.md):
/// `{"seq":…,"at":…,"type":…,"v":…,["tx":…,]["clock":…,]["device":…,"hlc":[…],]"prev":…,"data":{…}}`.
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
    /// The device that wrote the event (log format 2); nil on a format-1 line. Present exactly when ``hlc`` is.
    public var device: DeviceID? {
        get { stamp.flags & Stamp.hasDevice == 0 ? nil : DeviceID(high: stamp.high, low: stamp.low) }
        set {
            stamp.high = newValue?.high ?? 0
            stamp.low = newValue?.low ?? 0
            stamp.flags = newValue == nil ? stamp.flags & ~Stamp.hasDevice : stamp.flags | Stamp.hasDevice
        }
    }
    /// The hybrid logical clock reading of the event's batch (log format 2); nil on a format-1 line. Present
    /// exactly when ``device`` is.
    public var hlc: HLC? {
        get { stamp.flags & Stamp.hasHLC == 0 ? nil : HLC(milliseconds: stamp.milliseconds, counter: stamp.counter) }
        set {
            stamp.milliseconds = newValue?.milliseconds ?? 0
            stamp.counter = newValue?.counter ?? 0
            stamp.flags = newValue == nil ? stamp.flags & ~Stamp.hasHLC : stamp.flags | Stamp.hasHLC
        }
    }
    /// Whether the event carries `device` or `hlc` (log format 2): one test of a byte, for readers that check
    /// the pair only when it is there.
    package var hasStamp: Bool { stamp.flags != 0 }
    /// The first 16 bytes of the SHA-256 of the previous event's line (with its newline), in lowercase
    /// hex; 32 zeros for `seq` 1.
    public var prev: String
    /// The payload, an object whose shape `type` and `version` define (Events/README.md).
    public var data: JSON {
        get {
            switch payload {
            case .json(let json): return json
            case .decoded(let event): return event.data
            }
        }
        set { payload = .json(newValue) }
    }

    /// How the payload is held: as JSON, or, for an event read from a canonical line, as the domain event it
    /// decodes to (whose canonical payload is exactly the JSON the line holds), so that reading a log does
    /// not build a JSON tree per event only for the fold to decode it again.
    enum Payload: Sendable {
        case json(JSON)
        case decoded(DomainEvent)
    }

    var payload: Payload

    /// Log format 2's `device` and `hlc`, packed in 32 bytes where the two optionals took 40: reading a log
    /// copies each event several times, so its size shows in the time to read a format-1 log (`stint verify`
    /// of 1M events, callgrind: +1.5 % instructions with the optionals, +1.1 % packed; a class holding the
    /// pair out of line cost more in reference counting than it saved).
    struct Stamp: Hashable, Sendable {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var milliseconds: Int64 = 0
        var counter: UInt32 = 0
        /// ``hasDevice`` and ``hasHLC``.
        var flags: UInt8 = 0

        static let hasDevice: UInt8 = 1
        static let hasHLC: UInt8 = 2
    }

    var stamp = Stamp()

    /// An event with its envelope; `device` and `hlc` (log format 2) are given both or neither.
    public init(
        seq: Int64, at: Instant, type: String, version: Int, tx: Int64? = nil, clock: Instant? = nil,
        device: DeviceID? = nil, hlc: HLC? = nil, prev: String, data: JSON
    ) {
        self.init(
            seq: seq, at: at, type: type, version: version, tx: tx, clock: clock, device: device, hlc: hlc,
            prev: prev, payload: .json(data))
    }

    init(
        seq: Int64, at: Instant, type: String, version: Int, tx: Int64?, clock: Instant?, device: DeviceID? = nil,
        hlc: HLC? = nil, prev: String, payload: Payload
    ) {
        self.seq = seq
        self.at = at
        self.type = type
        self.version = version
        self.tx = tx
        self.clock = clock
        self.prev = prev
        self.payload = payload
        self.device = device
        self.hlc = hlc
    }

    /// The domain event, when the payload was decoded while reading the line.
    var decodedEvent: DomainEvent? {
        if case .decoded(let event) = payload { return event }
        return nil
    }

    public static func == (lhs: RecordedEvent, rhs: RecordedEvent) -> Bool {
        guard lhs.seq == rhs.seq, lhs.at == rhs.at, lhs.type == rhs.type, lhs.version == rhs.version,
            lhs.tx == rhs.tx, lhs.clock == rhs.clock, lhs.device == rhs.device, lhs.hlc == rhs.hlc,
            lhs.prev == rhs.prev
        else { return false }
        if case .decoded(let left) = lhs.payload, case .decoded(let right) = rhs.payload { return left == right }
        return lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(at)
        hasher.combine(type)
        hasher.combine(version)
        hasher.combine(tx)
        hasher.combine(clock)
        hasher.combine(device)
        hasher.combine(hlc)
        hasher.combine(prev)
        hasher.combine(data)
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
