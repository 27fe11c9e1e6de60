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
/// general decoder accepts too and decodes to an equal ``RecordedEvent`` (`CanonicalLineDecoderTests`
/// checks both claims on the example logs, on random logs and on mutated lines).
enum CanonicalLineDecoder {
    /// The event of a canonical line (without its newline); nil to defer to the general decoder.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> RecordedEvent? {
        var cursor = ByteCursor(line)
        guard cursor.expect(Keys.seq), let seq = cursor.positiveInteger(),
            cursor.expect(Keys.at), let at = cursor.instant(),
            cursor.expect(Keys.type), let known = cursor.knownType(),
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
        guard cursor.expect(Keys.prev), let prev = cursor.prev(), cursor.expect(Keys.data) else { return nil }
        let payloadStart = cursor.index
        var payload: RecordedEvent.Payload?
        if Int(version) == known.currentVersion,
            let event = cursor.domainEvent(known), cursor.take(0x7D), cursor.atEnd
        {
            payload = .decoded(event)
        } else {
            cursor.index = payloadStart
            if let data = cursor.flatObject(), cursor.take(0x7D), cursor.atEnd { payload = .json(data) }
        }
        guard let payload else { return nil }
        return RecordedEvent(
            seq: seq, at: at, type: known.rawValue, version: Int(version), tx: tx, clock: clock, prev: prev,
            payload: payload)
    }

    /// The envelope's key sequences, each with the punctuation around it.
    enum Keys {
        static let seq = Array(#"{"seq":"#.utf8)
        static let at = Array(#","at":""#.utf8)
        static let type = Array(#","type":""#.utf8)
        static let version = Array(#","v":"#.utf8)
        static let tx = Array(#","tx":"#.utf8)
        static let clock = Array(#","clock":""#.utf8)
        static let prev = Array(#","prev":""#.utf8)
        static let data = Array(#","data":"#.utf8)
    }

    /// The known type names as bytes, with their type (whose raw value is a shared `String`, not allocated
    /// per event).
    static let typeNames: [([UInt8], EventType)] = EventType.allCases.map { (Array($0.rawValue.utf8), $0) }
}

/// A forward-only reader over the bytes of one line.
struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` if it is next.
    mutating func expect(_ literal: [UInt8]) -> Bool {
        guard bytes.count - index >= literal.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        index += literal.count
        return true
    }

    /// A decimal integer ≥ 1 of at most 18 digits without a leading zero (a canonical `seq`, `v` or `tx`).
    mutating func positiveInteger() -> Int64? {
        guard let value = integer(), value >= 1 else { return nil }
        return value
    }

    /// A canonical integer: an optional minus sign, no leading zero, at most 18 digits, not followed by a
    /// fraction or an exponent (those are left to the general parser).
    mutating func integer() -> Int64? {
        let start = index
        let negative = take(0x2D)
        let digitsStart = index
        var value: Int64 = 0
        while index < bytes.count, bytes[index] &- 0x30 < 10 {
            value = value &* 10 &+ Int64(bytes[index] &- 0x30)
            index += 1
        }
        let count = index - digitsStart
        guard count >= 1, count <= 18, count == 1 || bytes[digitsStart] != 0x30 else {
            index = start
            return nil
        }
        if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x65 || bytes[index] == 0x45 {
            index = start
            return nil
        }
        if negative && value == 0 {
            // `-0` is an integer to the general parser too (`Int64("-0")` is 0).
            return 0
        }
        return negative ? -value : value
    }

    /// A canonical instant (24 bytes) followed by its closing quote.
    mutating func instant() -> Instant? {
        guard bytes.count - index >= 25, bytes[index + 24] == 0x22 else { return nil }
        let value = Instant(canonicalBytes: UnsafeBufferPointer(rebasing: bytes[index..<(index + 24)]))
        index += 25
        return value
    }

    /// One of the known type names followed by its closing quote.
    mutating func knownType() -> EventType? {
        guard let end = closingQuote() else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[index..<end])
        candidates: for (candidate, type) in CanonicalLineDecoder.typeNames where candidate.count == name.count {
            for offset in 0..<name.count where candidate[offset] != name[offset] { continue candidates }
            index = end + 1
            return type
        }
        return nil
    }

    /// 32 lowercase hex digits followed by the closing quote.
    mutating func prev() -> String? {
        guard bytes.count - index >= 33, bytes[index + 32] == 0x22 else { return nil }
        let digits = UnsafeBufferPointer(rebasing: bytes[index..<(index + 32)])
        for byte in digits where !(byte &- 0x30 < 10 || byte &- 0x61 < 6) { return nil }
        index += 33
        return String(decoding: digits, as: UTF8.self)
    }

    /// The offset of the next `"`, provided no backslash or control character comes before it.
    func closingQuote() -> Int? {
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 { return position }
            if byte == 0x5C || byte < 0x20 { return nil }
            position += 1
        }
        return nil
    }

    /// A string (the opening quote already consumed), validated as UTF-8; escapes only in their canonical
    /// form (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\u00XX` in lowercase for the other control
    /// characters and DEL), anything else defers.
    mutating func plainString() -> String? {
        guard let end = closingQuote() else { return escapedString() }
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        else { return nil }
        index = end + 1
        return text
    }

    private mutating func escapedString() -> String? {
        var output: [UInt8] = []
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == 0x22 {
                guard let text = String(validating: output, as: UTF8.self) else { return nil }
                index = position
                return text
            }
            if byte < 0x20 { return nil }
            guard byte == 0x5C else {
                output.append(byte)
                continue
            }
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            switch escape {
            case 0x22, 0x5C: output.append(escape)
            case 0x6E: output.append(0x0A)
            case 0x72: output.append(0x0D)
            case 0x74: output.append(0x09)
            case 0x62: output.append(0x08)
            case 0x66: output.append(0x0C)
            case 0x75:
                guard bytes.count - position >= 4, bytes[position] == 0x30, bytes[position + 1] == 0x30,
                    let high = ByteCursor.lowercaseHex(bytes[position + 2]),
                    let low = ByteCursor.lowercaseHex(bytes[position + 3])
                else { return nil }
                let value = high << 4 | low
                // Canonical only for the control characters without a short escape, and DEL.
                guard (value < 0x20 && ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(value)) || value == 0x7F else {
                    return nil
                }
                output.append(value)
                position += 4
            default:
                return nil
            }
        }
        return nil
    }

    static func lowercaseHex(_ byte: UInt8) -> UInt8? {
        if byte &- 0x30 < 10 { return byte &- 0x30 }
        if byte &- 0x61 < 6 { return byte &- 0x61 &+ 10 }
        return nil
    }

    /// A flat object: members whose keys are plain strings and whose values are plain strings, canonical
    /// integers, `true` or `false`; no whitespace; no repeated key.
    mutating func flatObject() -> JSON? {
        guard take(0x7B) else { return nil }
        var fields: [JSONField] = []
        if take(0x7D) { return .object(fields) }
        fields.reserveCapacity(6)
        while true {
            guard take(0x22), let key = plainString(), take(0x3A) else { return nil }
            for field in fields where field.key == key { return nil }
            let value: JSON
            if take(0x22) {
                guard let text = plainString() else { return nil }
                value = .string(text)
            } else if let number = integer() {
                value = .int(number)
            } else if expect(ByteCursor.trueLiteral) {
                value = .bool(true)
            } else if expect(ByteCursor.falseLiteral) {
                value = .bool(false)
            } else {
                return nil
            }
            fields.append(JSONField(key, value))
            if take(0x2C) { continue }
            guard take(0x7D) else { return nil }
            return .object(fields)
        }
    }

    static let trueLiteral = Array("true".utf8)
    static let falseLiteral = Array("false".utf8)
}

extension RecordedEvent {
    /// Decodes one line of a log (without its newline): through ``CanonicalLineDecoder`` when the line is
    /// canonical, otherwise through the general JSON parser and ``init(json:)``.
    ///
    /// Accepts and refuses exactly the lines ``init(json:)`` of the parsed line does, with the same result.
    /// - Throws: `EventLineError` saying what is wrong with the line.
    public init(lineBytes line: UnsafeBufferPointer<UInt8>) throws(EventLineError) {
        if let event = CanonicalLineDecoder.decode(line) {
            self = event
            return
        }
        let json: JSON
        do {
            json = try JSON.parse(line)
        } catch {
            throw EventLineError("not valid JSON: \(error)")
        }
        try self.init(json: json)
    }
}
