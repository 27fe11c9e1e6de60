/// Decodes an event line that is in the canonical form (docs/log-format.md §2.2) straight from its bytes.
///
/// The general path parses a line into a ``JSON`` tree (checking every object for duplicate keys through
/// a set of strings) and then looks the envelope's members up by name. A line written by Stint has the
/// envelope's keys in a fixed order, and a flat payload of strings and integers, so this decoder reads it
/// in one pass with no intermediate tree: the envelope's members in their order, the type interned among
/// the known type names, and the payload as a flat object whose members keep their order.
///
/// It is only a fast path. It returns nil whenever the line is anything else (keys in another order,
/// whitespace, escapes that are not the canonical ones, nested payload values, numbers that are not small
/// integers, an unknown type name, a value the envelope refuses), and the caller then uses the general
/// decoder, which accepts or refuses the line with its own message. Whatever this decoder accepts, the
/// general decoder accepts too and decodes to an equal ``RecordedEvent``, and the line it accepted is exactly
/// that event's ``RecordedEvent/encodedLine()``, so verification need not re-encode it
/// (`CanonicalLineDecoderTests` checks all three claims on the example logs, on random logs and on mutated
/// lines, and the event-decoder fuzz target checks them on whatever it finds).
enum CanonicalLineDecoder {
    /// The event of a canonical line (without its newline); nil to defer to the general decoder.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> RecordedEvent? {
        var cursor = ByteCursor(line)
        guard cursor.expect(Keys.seq), let seq = cursor.positiveInteger(),
            cursor.expect(Keys.at), let at = cursor.instant(),
            cursor.expect(Keys.type), let typeIndex = cursor.knownType(),
            cursor.expect(Keys.version), let version = cursor.positiveInteger(), version <= Int64(Int32.max)
        else { return nil }
        var tx: Int64?
        if cursor.expect(Keys.tx) {
            guard let value = cursor.positiveInteger(), value <= seq else { return nil }
            tx = value
        }
        var clock: Instant?
        if cursor.expect(Keys.clock) {
            guard let value = cursor.instant() else { return nil }
            clock = value
        }
        var device: DeviceID?
        var hlc: HLC?
        // A format-1 line has `,"prev"` here: one byte tells it from `,"device"` before the key is compared.
        if cursor.peek(2) == 0x64, cursor.expect(Keys.device) {
            // Log format 2: the pair, in canonical form only (no leading zero, no `-0`, lowercase hex).
            guard let id = cursor.deviceID(), cursor.expect(Keys.hlc), let reading = cursor.hlcReading() else {
                return nil
            }
            device = id
            hlc = reading
        }
        guard cursor.expect(Keys.prev), let prev = cursor.prev(), cursor.expect(Keys.data) else { return nil }
        let known = CanonicalLineDecoder.declarations[typeIndex]
        let payloadStart = cursor.index
        var payload: RecordedEvent.Payload?
        if Int(version) == known.version,
            let event = cursor.domainEvent(known), cursor.take(0x7D), cursor.atEnd
        {
            payload = .decoded(event)
        } else {
            cursor.index = payloadStart
            if let data = cursor.flatObject(), cursor.take(0x7D), cursor.atEnd { payload = .json(data) }
        }
        guard let payload else { return nil }
        return RecordedEvent(
            seq: seq, at: at, type: known.type.rawValue, version: Int(version), tx: tx, clock: clock, device: device,
            hlc: hlc, prev: prev, payload: payload)
    }

    /// The envelope's key sequences, each with the punctuation around it, from the one declaration of the
    /// keys (``EnvelopeKey``).
    enum Keys {
        static let seq = EnvelopeKey.seq.lead
        static let at = EnvelopeKey.at.leadQuoted
        static let type = EnvelopeKey.type.leadQuoted
        static let version = EnvelopeKey.version.lead
        static let tx = EnvelopeKey.tx.lead
        static let clock = EnvelopeKey.clock.leadQuoted
        static let device = EnvelopeKey.device.leadQuoted
        /// The closing quote of `device`'s value is read with it; then `,"hlc":[`.
        static let hlc = EnvelopeKey.hlc.lead + [0x5B]
        static let prev = EnvelopeKey.prev.leadQuoted
        static let data = EnvelopeKey.data.lead
    }

    /// The known type names as bytes (never freed, so that comparing them costs no reference counting), in
    /// the order of ``declarations``.
    nonisolated(unsafe) static let typeNames: [UnsafeBufferPointer<UInt8>] = EventType.allCases.map {
        EventField.immortal(Array($0.rawValue.utf8))
    }

    /// The declaration of each known type, in the order of ``typeNames`` (its type's raw value is a shared
    /// `String`, not allocated per event).
    static let declarations: [EventDeclaration] = EventType.allCases.map(\.declaration)
}

extension RecordedEvent {
    /// Decodes one line of a log (without its newline): through ``CanonicalLineDecoder`` when the line is
    /// canonical, otherwise through the general JSON parser and ``init(json:)``.
    ///
    /// Accepts and refuses exactly the lines ``init(json:)`` of the parsed line does, with the same result.
    /// - Throws: `EventLineError` saying what is wrong with the line.
    public init(lineBytes line: UnsafeBufferPointer<UInt8>) throws(EventLineError) {
        self = try RecordedEvent.decode(lineBytes: line).event
    }

    /// Decodes one line of a log (without its newline) as ``init(lineBytes:)`` does, and says whether the
    /// line is known to be canonical: true when ``CanonicalLineDecoder`` read it, since it accepts only the
    /// canonical encoding of the event it returns (the event's ``encodedLine()`` is the line, byte for
    /// byte); false when the general decoder read it, which says nothing either way.
    ///
    /// - Throws: `EventLineError` saying what is wrong with the line.
    public static func decode(
        lineBytes line: UnsafeBufferPointer<UInt8>
    ) throws(EventLineError) -> (event: RecordedEvent, isKnownCanonical: Bool) {
        if let event = CanonicalLineDecoder.decode(line) { return (event, true) }
        let json: JSON
        do {
            json = try JSON.parse(line)
        } catch {
            throw EventLineError("not valid JSON: \(error)")
        }
        return (try RecordedEvent(json: json), false)
    }
}
