extension RecordExport {
    /// The header of ``csv``.
    public static let csvColumns = [
        "id", "start", "end", "start_utc", "end_utc", "duration_seconds", "tag", "comment", "running",
    ]

    /// The rows as CSV (RFC 4180): UTF-8 without a byte order mark, a header row, CRLF line ends, a field in
    /// double quotes when it holds a comma, a double quote, CR or LF, with its double quotes doubled.
    ///
    /// Columns: the id; start and end in the log's zone with their offset; start and end in UTC
    /// (canonical instants); the duration in seconds (a running record's up to ``now``); the tag's name
    /// (empty when untagged); the comment, newlines kept; `true` for a running record (its end fields
    /// empty), else `false`. Nothing is altered to please spreadsheets: a comment starting with `=` stays
    /// as it is.
    public var csv: String {
        var text = RecordExport.csvColumns.joined(separator: ",") + "\r\n"
        for row in rows {
            let record = row.record
            let fields = [
                record.id.uuidString, local(record.start), record.end.map(local) ?? "", record.start.iso8601,
                record.end?.iso8601 ?? "", RecordExport.seconds(row.milliseconds), row.tag?.name ?? "",
                record.comment ?? "", record.isRunning ? "true" : "false",
            ]
            text += fields.map(RecordExport.csvField).joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// A field as RFC 4180 writes it.
    public static func csvField(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingQuotes() + "\""
    }
}

extension String {
    /// The text with every double quote doubled.
    fileprivate func replacingQuotes() -> String {
        var result = ""
        result.reserveCapacity(utf8.count + 2)
        for character in unicodeScalars {
            if character == "\"" { result.unicodeScalars.append("\"") }
            result.unicodeScalars.append(character)
        }
        return result
    }
}
