extension JSON {
    /// The canonical compact encoding: no whitespace, keys in the value's order.
    public func encoded() -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(128)
        append(to: &output)
        return output
    }

    /// The canonical compact encoding as a string.
    public var encodedString: String {
        String(decoding: encoded(), as: UTF8.self)
    }

    /// A readable encoding indented by two spaces per level, keys in the value's order, ending in a newline.
    ///
    /// Deterministic like the compact form: empty arrays and objects print as `[]` and `{}`, and the
    /// separator after a key is `": "`.
    public func prettyEncoded() -> String {
        var output = [UInt8]()
        appendPretty(to: &output, depth: 0)
        output.append(0x0A)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the canonical compact encoding.
    public func append(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let value): output.append(contentsOf: value ? JSON.trueBytes : JSON.falseBytes)
        case .int(let value): JSON.appendInteger(value, to: &output)
        case .double(let value): JSON.appendDouble(value, to: &output)
        case .string(let value): JSON.appendString(value, to: &output)
        case .array(let values):
            output.append(0x5B)
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(0x2C) }
                value.append(to: &output)
            }
            output.append(0x5D)
        case .object(let fields):
            output.append(0x7B)
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSON.appendString(field.key, to: &output)
                output.append(0x3A)
                field.value.append(to: &output)
            }
            output.append(0x7D)
        }
    }

    private func appendPretty(to output: inout [UInt8], depth: Int) {
        func newline(_ level: Int) {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: level * 2))
        }
        switch self {
        case .array(let values) where !values.isEmpty:
            output.append(0x5B)
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(0x2C) }
                newline(depth + 1)
                value.appendPretty(to: &output, depth: depth + 1)
            }
            newline(depth)
            output.append(0x5D)
        case .object(let fields) where !fields.isEmpty:
            output.append(0x7B)
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(0x2C) }
                newline(depth + 1)
                JSON.appendString(field.key, to: &output)
                output.append(contentsOf: [0x3A, 0x20])
                field.value.appendPretty(to: &output, depth: depth + 1)
            }
            newline(depth)
            output.append(0x7D)
        default:
            append(to: &output)
        }
    }

    static let trueBytes = Array("true".utf8)
    static let falseBytes = Array("false".utf8)

    /// Appends a decimal integer.
    public static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        if value == 0 {
            output.append(0x30)
            return
        }
        if value < 0 { output.append(0x2D) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            output.append(0x30 &+ UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// Appends a number: whole values in the safe integer range print as integers, others in Swift's
    /// shortest round-trip form. Non-finite values have no JSON form and print as `null`.
    public static func appendDouble(_ value: Double, to output: inout [UInt8]) {
        guard value.isFinite else {
            output.append(contentsOf: Array("null".utf8))
            return
        }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value), to: &output)
        } else {
            output.append(contentsOf: Array(value.description.utf8))
        }
    }

    /// Appends a string with the minimal escaping: `"`, `\` and control characters only.
    public static func appendString(_ value: String, to output: inout [UInt8]) {
        output.append(0x22)
        var value = value
        value.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied at once.
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
                if runStart < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                appendEscaped(byte, to: &output)
                runStart = index + 1
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        output.append(0x22)
    }

    /// Appends the escape of one byte that needs one: `"`, `\`, a control character or DEL.
    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case 0x22: output.append(contentsOf: [0x5C, 0x22])
        case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: output.append(contentsOf: [0x5C, 0x72])
        case 0x09: output.append(contentsOf: [0x5C, 0x74])
        case 0x08: output.append(contentsOf: [0x5C, 0x62])
        case 0x0C: output.append(contentsOf: [0x5C, 0x66])
        case 0..<0x20, 0x7F:
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        default: output.append(byte)
        }
    }
}
