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

    /// Where each batch ends, the last one included.
    var batchEnds: [Int] { content.isEmpty ? ends : ends + [content.count] }
}
