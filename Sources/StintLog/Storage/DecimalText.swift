/// Decimal integers in the small text files of a log directory (`checked`, a fingerprint's text), written and
/// read byte by byte: those files are read at every open.
enum DecimalText {
    /// Appends `value` in decimal (with a `-` when negative).
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(magnitude % 10) + 0x30)
            magnitude /= 10
        } while magnitude > 0
        bytes += digits.reversed()
    }

    /// A decimal integer (an optional `-` and 1 to 19 digits); nil for anything else.
    static func value(_ text: ArraySlice<UInt8>) -> Int64? {
        var digits = text[...]
        let negative = digits.first == 0x2D
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value &* 10 &+ Int64(digit - 0x30)
        }
        return negative ? -value : value
    }
}
