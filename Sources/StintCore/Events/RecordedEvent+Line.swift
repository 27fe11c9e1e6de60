/// Why a line of a log is not a valid event.
public struct EventLineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

extension RecordedEvent {
    /// The canonical line of this event, without the trailing newline.
    public func encodedLine() -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(192)
        appendLine(to: &output)
        return output
    }

    /// Appends the canonical line of this event, without the trailing newline.
    public func appendLine(to output: inout [UInt8]) {
        output.append(contentsOf: RecordedEvent.seqPrefix)
        JSON.appendInteger(seq, to: &output)
        output.append(contentsOf: RecordedEvent.atKey)
        at.appendISO8601(to: &output)
        output.append(contentsOf: RecordedEvent.typeKey)
        JSON.appendString(type, to: &output)
        output.append(contentsOf: RecordedEvent.versionKey)
        JSON.appendInteger(Int64(version), to: &output)
        if let tx {
            output.append(contentsOf: RecordedEvent.txKey)
            JSON.appendInteger(tx, to: &output)
        }
        if let clock {
            output.append(contentsOf: RecordedEvent.clockKey)
            clock.appendISO8601(to: &output)
            output.append(0x22)
        }
        // Each member of the pair is written when present, so that an event holding one without the other
        // encodes to a line every decoder refuses rather than to a line that silently drops it.
        if let device {
            output.append(contentsOf: RecordedEvent.deviceKey)
            device.appendHex(to: &output)
            output.append(0x22)
        }
        if let hlc {
            output.append(contentsOf: RecordedEvent.hlcKey)
            JSON.appendInteger(hlc.milliseconds, to: &output)
            output.append(0x2C)
            JSON.appendInteger(Int64(hlc.counter), to: &output)
            output.append(0x5D)
        }
        output.append(contentsOf: RecordedEvent.prevKey)
        output.append(contentsOf: prev.utf8)
        output.append(contentsOf: RecordedEvent.dataKey)
        switch payload {
        case .json(let json): json.append(to: &output)
        case .decoded(let event): event.appendData(to: &output)
        }
        output.append(0x7D)
    }

    // The byte sequences the encoder writes between the values, from the one declaration of the keys.
    static let seqPrefix = EnvelopeKey.seq.lead
    static let atKey = EnvelopeKey.at.leadQuoted
    static let typeKey = EnvelopeKey.type.afterQuoted
    static let versionKey = EnvelopeKey.version.lead
    static let txKey = EnvelopeKey.tx.lead
    static let clockKey = EnvelopeKey.clock.leadQuoted
    static let deviceKey = EnvelopeKey.device.leadQuoted
    /// `,"hlc":[`.
    static let hlcKey = EnvelopeKey.hlc.lead + [0x5B]
    static let prevKey = EnvelopeKey.prev.leadQuoted
    static let dataKey = EnvelopeKey.data.afterQuoted

    /// Decodes one line of a log (without its newline).
    ///
    /// Accepts the envelope's keys in any order (so that a hand-written `.jsonl` file can be read), but
    /// every key must be known, present when required, and of the right type.
    /// - Throws: `EventLineError` saying what is wrong with the line.
    public init(line: some Collection<UInt8>) throws(EventLineError) {
        let bytes = Array(line)
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(EventLineError) in
            try RecordedEvent(lineBytes: buffer)
        }
    }

    /// Decodes an event from its JSON envelope.
    public init(json: JSON) throws(EventLineError) {
        guard let fields = json.objectFields else { throw EventLineError("an event must be a JSON object") }
        var seq: Int64?
        var at: Instant?
        var type: String?
        var version: Int?
        var tx: Int64?
        var clock: Instant?
        var device: DeviceID?
        var hlc: HLC?
        var prev: String?
        var data: JSON?
        for field in fields {
            guard let key = EnvelopeKey(rawValue: field.key) else {
                throw EventLineError("unknown envelope key \"\(field.key)\"")
            }
            switch key {
            case .seq:
                guard let value = field.value.intValue, value >= 1 else {
                    throw EventLineError("\"seq\" must be an integer ≥ 1")
                }
                seq = value
            case .at:
                guard let text = field.value.stringValue, let value = Instant(canonical: text) else {
                    throw EventLineError("\"at\" must be an ISO 8601 UTC instant with milliseconds")
                }
                at = value
            case .type:
                guard let text = field.value.stringValue, RecordedEvent.isValidTypeName(text) else {
                    throw EventLineError("\"type\" must be a dotted lowercase name such as timer.started")
                }
                type = text
            case .version:
                guard let value = field.value.intValue, value >= 1, value <= Int64(Int32.max) else {
                    throw EventLineError("\"v\" must be an integer ≥ 1")
                }
                version = Int(value)
            case .tx:
                guard let value = field.value.intValue, value >= 1 else {
                    throw EventLineError("\"tx\" must be an integer ≥ 1")
                }
                tx = value
            case .clock:
                guard let text = field.value.stringValue, let value = Instant(canonical: text) else {
                    throw EventLineError("\"clock\" must be an ISO 8601 UTC instant with milliseconds")
                }
                clock = value
            case .device:
                do {
                    device = try DeviceID(json: field.value)
                } catch {
                    throw EventLineError(error.message)
                }
            case .hlc:
                do {
                    hlc = try HLC(json: field.value)
                } catch {
                    throw EventLineError(error.message)
                }
            case .prev:
                guard let text = field.value.stringValue, RecordedEvent.isValidPrev(text) else {
                    throw EventLineError("\"prev\" must be 32 lowercase hexadecimal digits")
                }
                prev = text
            case .data:
                guard case .object = field.value else { throw EventLineError("\"data\" must be a JSON object") }
                data = field.value
            }
        }
        guard let seq else { throw EventLineError("missing \"seq\"") }
        guard let at else { throw EventLineError("missing \"at\"") }
        guard let type else { throw EventLineError("missing \"type\"") }
        guard let version else { throw EventLineError("missing \"v\"") }
        guard let prev else { throw EventLineError("missing \"prev\"") }
        guard let data else { throw EventLineError("missing \"data\"") }
        if let tx, tx > seq { throw EventLineError("\"tx\" \(tx) is after the event's own seq \(seq)") }
        if device != nil && hlc == nil {
            throw EventLineError("\"device\" without \"hlc\": log format 2 writes both or neither")
        }
        if hlc != nil && device == nil {
            throw EventLineError("\"hlc\" without \"device\": log format 2 writes both or neither")
        }
        self.init(
            seq: seq, at: at, type: type, version: version, tx: tx, clock: clock, device: device, hlc: hlc,
            prev: prev, data: data)
    }

    /// Whether `text` is a persisted type name: lowercase words of letters and digits joined by dots.
    public static func isValidTypeName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64, bytes.first != 0x2E, bytes.last != 0x2E else { return false }
        var previousWasDot = false
        for byte in bytes {
            if byte == 0x2E {
                if previousWasDot { return false }
                previousWasDot = true
                continue
            }
            previousWasDot = false
            guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
            else { return false }
        }
        return true
    }

    static func isValidPrev(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 32 && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
