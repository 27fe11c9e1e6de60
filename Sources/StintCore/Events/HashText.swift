/// The text form of a line's SHA-256 as events carry it (a device's `head`): 64 lowercase hex digits.
package enum HashText {
    /// Whether `text` is exactly 64 lowercase hex digits.
    package static func isSHA256(_ text: String) -> Bool { isLowercaseHex(text, count: 64) }

    /// Whether `text` is a hash-chain link as `prev` holds it: exactly 32 lowercase hex digits.
    package static func isLink(_ text: String) -> Bool { isLowercaseHex(text, count: 32) }

    private static func isLowercaseHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
