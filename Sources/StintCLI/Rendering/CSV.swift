/// Comma-separated values as RFC 4180 writes them: a header row, fields separated by commas, records
/// ending in CRLF, and a field quoted (its quotes doubled) when it holds a comma, a quote, CR or LF.
struct CSV {
    private(set) var text = ""

    init(header: [String]) {
        append(header)
    }

    mutating func append(_ fields: [String]) {
        text += CSV.line(fields)
    }

    /// One record: the fields, separated by commas, ending in CRLF.
    static func line(_ fields: [String]) -> String {
        fields.map(CSV.field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when it needs to be.
    static func field(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        return "\""
            + value.unicodeScalars.reduce(into: "") { result, scalar in
                if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
            } + "\""
    }
}
