public import StintCore

extension LogReader {
    /// The first event of a log directory, read from its first frame alone: the frame whole and its checksum
    /// verified, and only its first line decoded, which must be event 1 with the genesis `prev`. Reading it with
    /// ``events(from:)`` decodes and checks its whole batch, and an imported history is one batch of tens of
    /// thousands of lines. Nil when that is not at hand: not a directory, no segment starting at 1, a first
    /// frame that does not read, or a first line that is not event 1; the caller then reads the log, which
    /// reports what is wrong. Read from a small first piece (a scanner reads on as the frame needs): every
    /// command of a replica reads it.
    public func firstEventOfFirstFrame() -> RecordedEvent? {
        guard case .directory(let path) = source else { return nil }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        // The segment starting at 1 is the first one there can be, found by its name (no listing).
        guard
            let descriptor = try? options.fileSystem.openFile(
                directory.path(LogDirectory.segmentName(firstSeq: 1)), .readOnly)
        else { return nil }
        defer { options.fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: options.fileSystem),
            chunkSize: min(options.readChunkSize, 1 << 14), decompressor: ZstdDecompressor())
        guard case .data(_, _, let header, let content) = try? scanner.next(), SegmentLayout.isTrustworthy(header),
            let newline = content.firstIndex(of: 0x0A)
        else { return nil }
        let line = UnsafeRawBufferPointer(rebasing: content[..<newline]).assumingMemoryBound(to: UInt8.self)
        guard let event = try? RecordedEvent(lineBytes: line), event.seq == 1, event.prev == RecordedEvent.genesisPrev
        else { return nil }
        return event
    }
}
