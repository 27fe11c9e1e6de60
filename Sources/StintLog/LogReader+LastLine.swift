public import StintCore

extension LogReader {
    /// The last event of a log directory read from its last segment's frames alone: each frame whole and its
    /// checksum verified, and only the last line of the last data frame decoded. Reading it with
    /// ``lastEvent(checkingChain:)`` without a `tail` file decodes and checks every line of the segment, and a
    /// segment that ends with an import is one batch of tens of thousands of lines (a replica opened right after
    /// `stint import` and `stint sync init` read it so on every command). The chain is not checked: for callers
    /// that need only what the last line says (its device), not that the log holds it. Nil when that is not at
    /// hand: not a directory, no segment, a frame that does not read (damage, a torn append), or a last line that
    /// is not an event of the segment; the caller then reads the log, which reports what is wrong.
    public func lastEventOfLastSegment() -> RecordedEvent? {
        guard case .directory(let path) = source else { return nil }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        guard let last = try? directory.listing().segments.last,
            let descriptor = try? options.fileSystem.openFile(directory.path(last.name), .readOnly)
        else { return nil }
        defer { options.fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: options.fileSystem),
            chunkSize: options.readChunkSize, decompressor: ZstdDecompressor())
        // The last line of each data frame, copied out (the frame's content is the scanner's until its next call).
        var lastLine: [UInt8]?
        scan: while true {
            switch try? scanner.next() {
            case .data(_, _, let header, let content)?:
                guard SegmentLayout.isTrustworthy(header), content.count > 1, content[content.count - 1] == 0x0A
                else { return nil }
                var start = content.count - 1
                while start > 0 && content[start - 1] != 0x0A { start -= 1 }
                lastLine = Array(content[start..<(content.count - 1)])
            case .seal?, .skippable?: continue
            case .end?: break scan
            default: return nil
            }
        }
        guard let lastLine,
            let event = lastLine.withUnsafeBytes({ try? RecordedEvent(line: $0) }), event.seq >= last.firstSeq
        else { return nil }
        return event
    }
}
