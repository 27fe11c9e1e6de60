/// The text form of a line's SHA-256 as events carry it (a device's `head`): 64 lowercase hex digits.
enum HashText {
    /// Whether `text` is exactly 64 lowercase hex digits.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
