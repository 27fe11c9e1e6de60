import StintCore

/// ANSI styling for human output: tag colors as 24-bit foreground colors, bold and dim.
///
/// Every method returns its text unchanged when the style is off, so renderers call them without
/// checking. A command's style is on only when ``CommandContext/useColor`` says so (a terminal, no
/// `NO_COLOR`, `TERM` not `dumb`, or `--color always`) and never for `--json` or `--csv` output.
struct TerminalStyle: Sendable {
    let isEnabled: Bool

    static let plain = TerminalStyle(isEnabled: false)

    /// `text` in the color `#RRGGBB` (unchanged when the color does not parse).
    func colored(_ text: String, hex: String) -> String {
        guard isEnabled, let (red, green, blue) = TerminalStyle.rgb(hex) else { return text }
        return "\u{1B}[38;2;\(red);\(green);\(blue)m\(text)\u{1B}[39m"
    }

    func bold(_ text: String) -> String {
        isEnabled ? "\u{1B}[1m\(text)\u{1B}[22m" : text
    }

    func dim(_ text: String) -> String {
        isEnabled ? "\u{1B}[2m\(text)\u{1B}[22m" : text
    }

    /// The red, green and blue of `#RRGGBB` (either case); nil for anything else.
    static func rgb(_ hex: String) -> (Int, Int, Int)? {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var values: [Int] = []
        for index in stride(from: 1, to: 7, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            values.append(high * 16 + low)
        }
        return (values[0], values[1], values[2])
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// How many columns `text` takes on a terminal, not counting ANSI escape sequences.
    static func visibleColumns(_ text: String) -> Int {
        TerminalColumns.of(stripped(text))
    }

    /// `text` without ANSI escape sequences.
    static func stripped(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}

extension CommandContext {
    /// The style of this command's human output (plain for `--json`).
    var style: TerminalStyle {
        TerminalStyle(isEnabled: useColor && !globals.json)
    }

    /// The width charts fit: `COLUMNS` when it is a number from 40 on, else 80.
    var terminalColumns: Int {
        if let text = host.environment["COLUMNS"], let value = Int(text), value >= 40 { return min(value, 400) }
        return 80
    }
}

extension TextFormat {
    /// The color `--color` shows untagged time in.
    static let untaggedColor = "#8E8E93"

    /// A tag's name in its color: `(untagged)` in gray, a deleted tag marked.
    func coloredTagName(_ id: EntityID?, tags: [EntityID: Tag], style: TerminalStyle) -> String {
        let name = tagName(id, tags: tags)
        let color = id.flatMap { tags[$0] }.map(\.color) ?? TextFormat.untaggedColor
        return style.colored(name, hex: color)
    }
}

extension TextFormat {
    /// ``recordLine(_:tags:now:)`` with the tag in its color and a running end in bold.
    func recordLine(_ record: Record, tags: [EntityID: Tag], now: Instant, style: TerminalStyle) -> String {
        guard style.isEnabled else { return recordLine(record, tags: tags, now: now) }
        let end = record.end.map { time($0) } ?? style.bold("running")
        let duration = DurationFormatter.hoursMinutes(
            milliseconds: (record.end ?? max(now, record.start)).milliseconds(since: record.start))
        var line = "\(style.dim(TextFormat.short(record.id)))  \(start(of: record, now: now))–\(end)  \(duration)  "
        line += coloredTagName(record.tagId, tags: tags, style: style)
        if let comment = record.comment { line += "  " + comment.replacingNewlines() }
        return line
    }

    /// `writing at 09:30` or `writing from 09:00 to 10:30 (1:30)`, for confirmations on standard error.
    func confirmation(_ record: Record, tags: [EntityID: Tag]) -> String {
        let name = tagName(record.tagId, tags: tags)
        let comment = record.comment.map { " “\($0.replacingNewlines())”" } ?? ""
        guard let end = record.end else {
            return "\(name)\(comment) at \(dateTime(record.start)) (\(TextFormat.short(record.id)))"
        }
        let sameDay = date(record.start) == date(end)
        let duration = DurationFormatter.hoursMinutes(milliseconds: end.milliseconds(since: record.start))
        return "\(name)\(comment) \(dateTime(record.start))–\(sameDay ? time(end) : dateTime(end)) "
            + "(\(duration), \(TextFormat.short(record.id)))"
    }
}
