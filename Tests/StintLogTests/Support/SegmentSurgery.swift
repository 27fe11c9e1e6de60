import StintCore

@testable import StintLog

/// Takes segment files apart and puts them back together, to damage them in precise ways.
enum SegmentSurgery {
    struct Frame {
        var offset: Int
        /// The frame's bytes as stored.
        var bytes: [UInt8]
        /// The decompressed content of a data frame; nil for the seal frame.
        var content: [UInt8]?
    }

    /// The frames of a segment whose frames are all readable.
    static func frames(_ segment: [UInt8]) -> [Frame] {
        let scanner = FrameScanner(source: .memory(segment), chunkSize: 1 << 20, decompressor: ZstdDecompressor())
        var frames: [Frame] = []
        while true {
            switch try! scanner.next() {
            case .data(let offset, let size, _, let content):
                let start = Int(offset)
                frames.append(
                    Frame(offset: start, bytes: Array(segment[start..<(start + size)]), content: Array(content)))
            case .seal(let offset, let size, _):
                let start = Int(offset)
                frames.append(Frame(offset: start, bytes: Array(segment[start..<(start + size)]), content: nil))
            case .end:
                return frames
            default:
                fatalError("the segment has an unreadable frame")
            }
        }
    }

    /// A data frame holding `content`, with checksum and content size, as the writer makes them (at
    /// `level`: the writer's is 3).
    static func frame(_ content: [UInt8], level: Int32 = 3) -> [UInt8] {
        var output: [UInt8] = []
        try! content.withBytes { (bytes) throws(LogError) in
            try ZstdCompressor(level: level).compress(bytes, appendingTo: &output)
        }
        return output
    }

    /// The frame without its content size: a window descriptor (128 KiB) instead of the single-segment size.
    static func withoutContentSize(_ frame: [UInt8]) -> [UInt8] {
        let descriptor = frame[4]
        precondition(descriptor & 0x20 != 0 && descriptor & 0x03 == 0, "a single-segment frame without dictionary")
        let sizeBytes = [1, 2, 4, 8][Int(descriptor >> 6)]
        return Array(frame[0..<4]) + [descriptor & 0x04, 7 << 3] + Array(frame[(5 + sizeBytes)...])
    }

    /// The lines of a frame's content, each without its newline.
    static func lines(_ content: [UInt8]) -> [[UInt8]] {
        content.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }

    /// Content from lines (each gets its newline back).
    static func content(_ lines: [[UInt8]]) -> [UInt8] {
        lines.flatMap { $0 + [0x0A] }
    }

    /// The canonical line of an event.
    static func line(_ event: RecordedEvent) -> [UInt8] {
        event.encodedLine()
    }

    /// The event of a line.
    static func event(_ line: [UInt8]) -> RecordedEvent {
        try! RecordedEvent(line: line)
    }
}
