/// Text handling both renderers share: making a log's text single-line, measuring it, and shortening it
/// with "…" to fit a width.
enum WidgetText {
    /// `text` on one line: every control, line or paragraph separator character (a comment's newline,
    /// a tab) becomes a space, so no text from the log can break a box or carry an escape sequence.
    static func singleLine(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: result.unicodeScalars.append(" ")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` (made single-line) shortened to at most `limit` units of `measure`: unchanged when it
    /// fits, otherwise its longest prefix of whole characters that fits with a trailing "…" (just "…"
    /// when nothing else fits, empty when not even that fits).
    static func truncated(_ text: String, toFit limit: Int, measure: (Character) -> Int) -> String {
        let line = singleLine(text)
        let width = line.reduce(0) { $0 + measure($1) }
        guard width > limit else { return line }
        let budget = limit - measure("…")
        guard budget >= 0 else { return "" }
        var used = 0
        var prefix = ""
        for character in line {
            let next = measure(character)
            guard used + next <= budget else { break }
            used += next
            prefix.append(character)
        }
        // No trailing space before the ellipsis: "Fixing the…", not "Fixing the …".
        while prefix.last?.isWhitespace == true { prefix.removeLast() }
        return prefix + "…"
    }
}
