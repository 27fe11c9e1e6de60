/// A color a widget draws with: a tag's `#RRGGBB` color, checked, or the gray of untagged time.
///
/// Tag colors come from the snapshot, which a reader cannot trust to be well formed (an old or
/// hand-edited file); anything that is not `#` and six hex digits draws as ``untagged``, so nothing
/// the snapshot holds can reach an SVG attribute unchecked.
struct WidgetColor: Hashable, Sendable {
    /// `#RRGGBB`, uppercase.
    let hex: String

    /// The gray of untagged timers and of the "Untagged" and "Other" rows.
    static let untagged = WidgetColor(checked: "#8E8E93")

    private init(checked hex: String) {
        self.hex = hex
    }

    /// The color `text` names when it is `#RRGGBB` (hex digits in either case); nil otherwise.
    init?(hex text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"),
            bytes.dropFirst().allSatisfy({ WidgetColor.isHexDigit($0) })
        else { return nil }
        self.init(checked: text.uppercased())
    }

    /// The tag color `text` when it is well formed, otherwise ``untagged``.
    static func tag(_ text: String?) -> WidgetColor {
        text.flatMap { WidgetColor(hex: $0) } ?? .untagged
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
