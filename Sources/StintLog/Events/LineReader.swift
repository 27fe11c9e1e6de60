import Glibc

/// Reads the lines of a plain `.jsonl` source with memory bounded by the longest line.
final class LineReader {
    /// One line; its buffers are valid until the next call.
    struct Line {
        /// The line without its newline.
        var bytes: UnsafeRawBufferPointer
        /// The line with its newline, or nil for a last line that has none.
        var withNewline: UnsafeRawBufferPointer?
        /// The offset of the line's first byte in the source.
        var offset: Int64
        /// The 1-based line number.
        var number: Int
    }

    /// The longest line accepted (the limit on a frame's content applies to a line as well).
    static let maximumLineLength = Int(FrameLimits.maximumContentSize)

    private let source: ByteSource
    private let chunkSize: Int
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var scanned = 0
    private var exhausted = false
    private var offset: Int64 = 0
    private var lineNumber = 0

    init(source: ByteSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(4096, min(self.chunkSize, 1 << 20)), alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// What ``next()`` found.
    enum Result {
        case line(Line)
        case end
        /// A line longer than ``LineReader/maximumLineLength`` starts at this offset.
        case tooLong(offset: Int64, number: Int)
    }

    /// The next line.
    func next() throws(SystemCallError) -> Result {
        while true {
            let base = buffer.baseAddress!
            if scanned < end, let newline = memchr(base + scanned, 0x0A, end - scanned) {
                let stop = base.distance(to: newline)
                return emit(lineEnd: stop, terminated: true)
            }
            scanned = end
            if exhausted {
                return end == start ? .end : emit(lineEnd: end, terminated: false)
            }
            if end - start > LineReader.maximumLineLength {
                return .tooLong(offset: offset, number: lineNumber + 1)
            }
            try read()
        }
    }

    private func emit(lineEnd: Int, terminated: Bool) -> Result {
        lineNumber += 1
        let line = Line(
            bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]),
            withNewline: terminated ? UnsafeRawBufferPointer(rebasing: buffer[start...lineEnd]) : nil,
            offset: offset, number: lineNumber)
        let consumed = terminated ? lineEnd + 1 - start : lineEnd - start
        start += consumed
        scanned = start
        offset += Int64(consumed)
        return .line(line)
    }

    private func read() throws(SystemCallError) {
        if end == buffer.count {
            let kept = end - start
            if start > 0 && kept < buffer.count / 2 {
                if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: kept) }
            } else {
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
                if kept > 0 { grown.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: kept) }
                buffer.deallocate()
                buffer = grown
            }
            scanned -= start
            start = 0
            end = kept
        }
        let room = min(chunkSize, buffer.count - end)
        let count = try source.read(
            into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + room)]), at: offset + Int64(end - start))
        if count == 0 { exhausted = true } else { end += count }
    }
}

extension EventChecker {
    /// Checks one line of a plain file; a last line without a newline is hashed as if it had one.
    mutating func check(_ line: LineReader.Line) {
        if let withNewline = line.withNewline {
            check(line: line.bytes, withNewline: withNewline, lineNumber: line.number, lineOffset: line.offset)
            return
        }
        let terminated = Array(line.bytes) + [0x0A]
        terminated.withUnsafeBytes { bytes in
            check(
                line: UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 1)]), withNewline: bytes,
                lineNumber: line.number, lineOffset: line.offset)
        }
    }
}
