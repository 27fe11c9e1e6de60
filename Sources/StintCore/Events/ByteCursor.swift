/// A forward-only reader over the bytes of one line.
struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// The byte `offset` bytes after the current one, if the line holds it.
    func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` if it is next.
    mutating func expect(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - index >= literal.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        index += literal.count
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
    /// fraction or an exponent, and not `-0` (those are left to the general parser, as they are not the
    /// canonical form of their value).
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
            // `-0` is 0 to the general parser, but the canonical form of 0 is `0`.
            index = start
            return nil
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

    /// One of the known type names followed by its closing quote: its index in
    /// ``CanonicalLineDecoder/typeNames``.
    mutating func knownType() -> Int? {
        guard let end = closingQuote() else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[index..<end])
        candidates: for (candidate, known) in CanonicalLineDecoder.typeNames.enumerated()
        where known.count == name.count {
            for offset in 0..<name.count where known[offset] != name[offset] { continue candidates }
            index = end + 1
            return candidate
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

    /// A device id: 32 lowercase hex digits followed by the closing quote.
    mutating func deviceID() -> DeviceID? {
        guard bytes.count - index >= 33, bytes[index + 32] == 0x22 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for offset in 0..<32 {
            guard let nibble = ByteCursor.lowercaseHex(bytes[index + offset]) else { return nil }
            if offset < 16 {
                words.0 = words.0 << 4 | UInt64(nibble)
            } else {
                words.1 = words.1 << 4 | UInt64(nibble)
            }
        }
        index += 33
        return DeviceID(high: words.0, low: words.1)
    }

    /// The rest of a canonical `hlc` after its `[`: two canonical integers in range, a comma, and `]`.
    mutating func hlcReading() -> HLC? {
        guard let milliseconds = integer(), milliseconds >= 0, take(0x2C),
            let counter = integer(), counter >= 0, counter <= Int64(UInt32.max), take(0x5D)
        else { return nil }
        return HLC(milliseconds: milliseconds, counter: UInt32(counter))
    }

    /// The offset of the next `"`, provided no backslash, control character or DEL (which the canonical
    /// encoder escapes) comes before it.
    func closingQuote() -> Int? {
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 { return position }
            if byte == 0x5C || byte < 0x20 || byte == 0x7F { return nil }
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
            if byte < 0x20 || byte == 0x7F { return nil }
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
