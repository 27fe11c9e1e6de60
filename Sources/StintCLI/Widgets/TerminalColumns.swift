/// How many terminal columns text takes, for the text format's fixed-width boxes.
///
/// East Asian wide and fullwidth characters (CJK ideographs, Hangul, kana, fullwidth forms) and
/// characters shown as emoji take two columns; combining marks and format characters (zero-width
/// joiners, variation selectors) take none; everything else takes one. Box-drawing characters and the
/// geometric shapes the boxes use (`●`, `▸`, `■`) are East Asian "ambiguous" and count as one, as in
/// every non-CJK terminal.
enum TerminalColumns {
    /// The columns of one character (a grapheme cluster: an emoji with its modifiers counts once).
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation
            || (scalars.count > 1 && first.properties.isEmoji && scalars.contains { $0.value == 0xFE0F })
        {
            return 2
        }
        if isWide(first) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// The columns of `text`.
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` shortened with "…" to at most `columns` columns.
    static func truncated(_ text: String, to columns: Int) -> String {
        WidgetText.truncated(text, toFit: columns) { of($0) }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, by block).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
