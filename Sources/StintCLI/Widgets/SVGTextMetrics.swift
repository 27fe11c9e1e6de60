/// Estimated advance widths of the system font, to decide in an SVG what text fits where.
///
/// An SVG cannot measure its own text, and the font is whatever `-apple-system, system-ui, sans-serif`
/// resolves to in the viewer: San Francisco on Apple systems, Segoe UI on Windows, often DejaVu Sans on
/// Linux, the widest of them. Widths are estimated from Helvetica's advance widths made 15% wider for
/// regular text and 28% wider for semibold and bold text, which covers DejaVu Sans; text in a narrower
/// font is shortened a little early. Non-Latin text uses a full em for wide characters and emoji and
/// 0.6 em otherwise. The estimate only shortens long names with "…"; every widget also clips to its
/// frame, so a viewer's font can never draw outside it.
enum SVGTextMetrics {
    /// Font weights the widgets use.
    enum Weight: Int, Sendable {
        case regular = 400
        case semibold = 600
        case bold = 700
    }

    /// Helvetica's advance widths in thousandths of an em for the characters `" "` through `"~"`.
    private static let asciiAdvances: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // space … /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0 … ?
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @ … O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P … _
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // ` … o
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p … ~
    ]

    /// The advance of `character` in thousandths of an em at regular weight.
    static func advance(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1, (0x20...0x7E).contains(first.value) {
            return asciiAdvances[Int(first.value) - 0x20]
        }
        if first.value == 0x2026 { return 1000 }  // "…"
        switch TerminalColumns.of(character) {
        case 0: return 0
        case 2: return 1000
        default: return 600
        }
    }

    /// The width of `character` at `size` points and `weight`, in thousandths of a point.
    static func width(_ character: Character, size: Int, weight: Weight) -> Int {
        let helvetica = advance(character) * size
        return weight == .regular ? helvetica * 115 / 100 : helvetica * 128 / 100
    }

    /// The estimated width of `text` at `size` points and `weight`, in points, rounded up.
    static func width(_ text: String, size: Int, weight: Weight) -> Int {
        let thousandths = text.reduce(0) { $0 + width($1, size: size, weight: weight) }
        return (thousandths + 999) / 1000
    }

    /// `text` shortened with "…" to an estimated width of at most `points`.
    static func truncated(_ text: String, toFit points: Int, size: Int, weight: Weight) -> String {
        WidgetText.truncated(text, toFit: points * 1000) { width($0, size: size, weight: weight) }
    }
}
