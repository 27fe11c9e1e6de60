import StintCore

/// Lines gathered to be sealed again (``LogWriter/recompress(_:batchEnds:firstSeq:segment:)``): their bytes, each
/// with its newline, and the offsets in them where each batch ends — before an event that does not continue the
/// batch before it (docs/log-format.md §5.2: `tx`).
struct BatchedLines {
    private(set) var content: [UInt8] = []
    private(set) var firstSeq: Int64?
    private(set) var lastSeq: Int64 = 0
    private var ends: [Int] = []
    private var batch: Int64?

    /// Adds an event's line (without its newline).
    mutating func append(_ line: [UInt8], of event: RecordedEvent) {
        if !content.isEmpty && (event.tx == nil || event.tx != batch) { ends.append(content.count) }
        batch = event.tx
        content += line
        content.append(0x0A)
        if firstSeq == nil { firstSeq = event.seq }
        lastSeq = event.seq
    }

    /// Adds the lines of a data frame's content, each while `accepts` takes its event; returns false at the
    /// first line that does not decode or that `accepts` refuses (that line and the rest are not added).
    mutating func append(frame content: UnsafeRawBufferPointer, while accepts: (RecordedEvent) -> Bool) -> Bool {
        var start = 0
        for (index, byte) in content.enumerated() where byte == 0x0A {
            let line = Array(content[start..<index])
            start = index + 1
            guard let event = try? RecordedEvent(line: line), accepts(event) else { return false }
            append(line, of: event)
        }
        return true
    }

    /// Where each batch ends, the last one included.
    var batchEnds: [Int] { content.isEmpty ? ends : ends + [content.count] }
}
