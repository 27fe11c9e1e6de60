/// Why a text is not acceptable JSON, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the problem in the parsed text.
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}

extension JSON {
    /// The deepest nesting the parser accepts; deeper input is refused instead of exhausting the stack.
    public static let maximumDepth = 64

    /// Parses one JSON value that spans all of `text` (surrounding whitespace allowed).
    ///
    /// Strict RFC 8259: no comments, trailing commas, duplicate keys, invalid UTF-8 or lone surrogates.
    /// Integers that fit in `Int64` become `.int`, other numbers `.double`.
    /// - Throws: `JSONParseError` with the byte offset of the first problem.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSON {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSON in
            try parse(buffer)
        }
    }

    /// Parses one JSON value from a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON value that spans all of `buffer`.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSON {
        var parser = JSONParser(buffer)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else {
            throw JSONParseError(offset: parser.index, reason: "unexpected text after the JSON value")
        }
        return value
    }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSON {
        guard depth < JSON.maximumDepth else { throw fail("nesting deeper than \(JSON.maximumDepth) levels") }
        guard index < bytes.count else { throw fail("unexpected end of JSON") }
        switch bytes[index] {
        case 0x7B: return try object(depth: depth)
        case 0x5B: return try array(depth: depth)
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return try number()
        default: throw fail("unexpected character '\(printable(bytes[index]))'")
        }
    }

    func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw fail("invalid literal, expected \(word)") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSON {
        index += 1
        var fields: [JSONField] = []
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x7D {
            index += 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x22 else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try string()
            guard keys.insert(key).inserted else { throw fail("duplicate key \"\(key)\"", at: keyOffset) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x3A else { throw fail("expected ':' after a key") }
            index += 1
            skipWhitespace()
            fields.append(JSONField(key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON in an object") }
            if bytes[index] == 0x2C {
                index += 1
                continue
            }
            guard bytes[index] == 0x7D else { throw fail("expected ',' or '}' in an object") }
            index += 1
            return .object(fields)
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSON {
        index += 1
        var values: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x5D {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON in an array") }
            if bytes[index] == 0x2C {
                index += 1
                continue
            }
            guard bytes[index] == 0x5D else { throw fail("expected ',' or ']' in an array") }
            index += 1
            return .array(values)
        }
    }

    mutating func number() throws(JSONParseError) -> JSON {
        let start = index
        var isInteger = true
        if bytes[index] == 0x2D { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == 0x30 {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == 0x2E {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid fraction in a number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid exponent in a number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw fail("number out of range", at: start) }
        // The encoder writes a whole number below 2^53 as an integer (`1E5` as `100000`); reading one as an
        // integer too gives every number one value, so that a value survives encoding and parsing unchanged.
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return .int(Int64(value)) }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func string() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: start)
                }
                return text
            }
            if byte == 0x5C { break }
            if byte < 0x20 { throw fail("control character in a string") }
            index += 1
        }
        guard index < bytes.count else { throw fail("unterminated string", at: quote) }
        var output = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index += 1
                guard let text = String(validating: output, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: start)
                }
                return text
            case 0x5C:
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case 0x22: output.append(0x22)
                case 0x5C: output.append(0x5C)
                case 0x2F: output.append(0x2F)
                case 0x62: output.append(0x08)
                case 0x66: output.append(0x0C)
                case 0x6E: output.append(0x0A)
                case 0x72: output.append(0x0D)
                case 0x74: output.append(0x09)
                case 0x75:
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                            throw fail("lone surrogate in a string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone surrogate in a string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                    output.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw fail("invalid escape '\\\(printable(escape))'")
                }
            default:
                if byte < 0x20 { throw fail("control character in a string") }
                output.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string", at: quote)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
