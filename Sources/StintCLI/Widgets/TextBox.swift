/// A fixed-size box of rounded box-drawing characters, and the line helpers the text renderer lays
/// out its content with.
///
/// Every line inside the box is exactly ``contentWidth`` columns (measured by ``TerminalColumns``), with
/// one column of padding on each side, so no content can break the frame: text that does not fit is
/// shortened with "…" and lines beyond ``contentHeight`` are dropped.
struct TextBox {
    /// The columns of the whole box, frame included.
    let width: Int
    /// The rows of the whole box, frame included.
    let height: Int

    /// The columns between the padding: `width − 4`.
    var contentWidth: Int { width - 4 }
    /// The rows between the top and bottom edges: `height − 2`.
    var contentHeight: Int { height - 2 }

    /// The box with `lines` inside, top-aligned, every line fitted to ``contentWidth``; ends with a newline.
    func draw(_ lines: [String]) -> String {
        let inner =
            Array(lines.prefix(contentHeight))
            + Array(repeating: "", count: max(0, contentHeight - lines.count))
        var text = "╭" + String(repeating: "─", count: width - 2) + "╮\n"
        for line in inner {
            text += "│ " + TextLine.padded(line, to: contentWidth) + " │\n"
        }
        text += "╰" + String(repeating: "─", count: width - 2) + "╯\n"
        return text
    }

    /// `top` and `bottom` with blank lines between them so that `bottom` ends on the last row; when they
    /// do not both fit, the end of `top` gives way.
    func stack(top: [String], bottom: [String]) -> [String] {
        let room = max(0, contentHeight - bottom.count)
        let kept = Array(top.prefix(room))
        return kept + Array(repeating: "", count: room - kept.count) + bottom
    }
}

/// Builds single lines of a given width in terminal columns.
enum TextLine {
    /// `text` shortened to `width` columns if needed, then padded with spaces to exactly `width`.
    static func padded(_ text: String, to width: Int) -> String {
        let fitted = TerminalColumns.truncated(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - TerminalColumns.of(fitted)))
    }

    /// `left` and `right` on one line of `width` columns, `right` flush with the end: `left` gives way
    /// (shortened with "…") so that at least one space separates them; `right` is shortened only when
    /// it alone does not fit.
    static func spread(_ left: String, _ right: String, width: Int) -> String {
        let rightText = TerminalColumns.truncated(right, to: width)
        let rightWidth = TerminalColumns.of(rightText)
        guard rightWidth > 0 else { return padded(left, to: width) }
        let leftRoom = width - rightWidth - 1
        guard leftRoom > 0 else { return String(repeating: " ", count: width - rightWidth) + rightText }
        let leftText = TerminalColumns.truncated(left, to: leftRoom)
        let gap = width - TerminalColumns.of(leftText) - rightWidth
        return leftText + String(repeating: " ", count: gap) + rightText
    }

    /// `text` centered in `width` columns (an odd leftover space goes to the right).
    static func centered(_ text: String, width: Int) -> String {
        let fitted = TerminalColumns.truncated(text, to: width)
        let room = width - TerminalColumns.of(fitted)
        return String(repeating: " ", count: room / 2) + fitted + String(repeating: " ", count: room - room / 2)
    }

    /// A button `[label]` of exactly `width` columns with the label centered.
    static func button(_ label: String, width: Int) -> String {
        "[" + centered(label, width: width - 2) + "]"
    }

    /// A button `[label]` just wide enough for its label.
    static func button(_ label: String) -> String {
        "[" + label + "]"
    }

    /// A button `[▸ name…]` of exactly `width` columns with the label left-aligned.
    static func startButton(_ name: String, width: Int) -> String {
        "[" + padded("▸ " + name, to: width - 2) + "]"
    }

    /// Two columns side by side: each line of `left` padded to `leftWidth`, then `gap` spaces, then the
    /// line of `right`; the shorter column is padded with blank lines.
    static func columns(_ left: [String], _ right: [String], leftWidth: Int, gap: Int, rightWidth: Int) -> [String] {
        (0..<max(left.count, right.count)).map { index in
            let leftLine = index < left.count ? left[index] : ""
            let rightLine = index < right.count ? right[index] : ""
            return padded(leftLine, to: leftWidth) + String(repeating: " ", count: gap)
                + padded(rightLine, to: rightWidth)
        }
    }
}
