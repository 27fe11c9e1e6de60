import StintCore

/// The CSV export's rows as bytes, written straight into the export's buffer: the bytes of
/// `CSV.line(ExportRun.csvFields(row, frame))`, which stays the reference (`ExportWriterTests`).
extension ExportRun {
    /// How many bytes the export collects before writing them out.
    static let block = 1 << 16

    /// Writes `buffer` to standard output and empties it.
    static func flush(_ buffer: inout [UInt8], _ context: CommandContext) {
        guard !buffer.isEmpty else { return }
        context.write(bytes: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends a row's CSV line (see ``csvFields(_:_:)``), ending in CRLF.
    static func appendCSV(_ row: RecordExport.Row, _ writer: inout RecordExport.RowWriter, to bytes: inout [UInt8]) {
        let record = row.record
        record.id.appendUTF8(to: &bytes)
        bytes.append(0x2C)
        writer.appendLocal(record.start, to: &bytes)
        bytes.append(0x2C)
        if let end = record.end { writer.appendLocal(end, to: &bytes) }
        bytes.append(0x2C)
        writer.appendUTC(record.start, to: &bytes)
        bytes.append(0x2C)
        if let end = record.end { writer.appendUTC(end, to: &bytes) }
        bytes.append(0x2C)
        RecordExport.appendSeconds(row.milliseconds, to: &bytes)
        bytes.append(0x2C)
        if let tag = row.tag { appendCSVField(tag.name, to: &bytes) }
        bytes.append(0x2C)
        if let comment = record.comment { appendCSVField(comment, to: &bytes) }
        bytes.append(0x2C)
        bytes.append(contentsOf: record.isRunning ? trueBytes : falseBytes)
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// Appends one field as `CSV.field` writes it: in quotes, its quotes doubled, when it holds a comma, a
    /// quote or a line break (all ASCII, so they are never part of another character's UTF-8 bytes).
    static func appendCSVField(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(0x22)
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
            bytes.append(0x22)
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}
