public import StintCore

extension LogReader {
    /// The last event of a log directory and the head at it, as the `checked` file vouches for them: its entry
    /// for the last segment, an active one, has the size and the SHA-256 of the segment's bytes as they are now,
    /// and the frame the `tail` file points at ends the segment with the line the entry names (its `seq` and the
    /// SHA-256 of the line). That is what a writer takes when it opens the log (``LogWriter/checkSegments()``):
    /// the writer that left the entry checked every line of the segment against the one before it, or wrote
    /// it, so the head commits to the log as the one ``lastEvent(checkingChain:)`` reads with the chain checked,
    /// at the cost of hashing the segment's bytes instead of decompressing, decoding and hashing every line — or
    /// of a `stat`, when the entry's fingerprint was settled and is the segment's now (a writer hashed the
    /// segment as it was and appended nothing since: docs/log-format.md §5.4). `unsettled` says the bytes were
    /// hashed though the file system gives the segment a fingerprint: a writer that settles
    /// (``LogConfiguration/settlesActiveSegment``) would let the next read take the fingerprint instead.
    ///
    /// A writer that appends meanwhile changes the segment's size or bytes: nil, never a mixed answer.
    ///
    /// - Returns: nil when nothing vouches for the end (no such files, or files from before the segment last
    ///   changed; a sealed last segment, whose seal indexes its end; a log of one file or a stream, a log whose
    ///   directory shows an interrupted operation): read it with ``lastEvent(checkingChain:)``.
    /// - Throws: ``LogError/Code/io`` when the directory cannot be listed or the segment cannot be read.
    public func vouchedLastEvent() throws(LogError) -> (event: RecordedEvent, head: LogHead, unsettled: Bool)? {
        guard case .directory(let path) = source else { return nil }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        guard let tail = TailFile.read(in: directory),
            let entry = CheckedSegments.entry(named: tail.segment, in: directory), !entry.sealed,
            entry.size == tail.size
        else { return nil }
        let listing = try directory.listing()
        guard listing.temporaryFiles.isEmpty, !listing.repairPending, listing.keptSegments.isEmpty,
            listing.segments.last?.name == tail.segment
        else { return nil }
        let descriptor = try directory.openSegment(tail.segment)
        defer { options.fileSystem.close(descriptor) }
        // A cache: a fingerprint that cannot be taken only costs the hash.
        let fingerprint = (try? options.fileSystem.fingerprint(of: directory.path(tail.segment))) ?? nil
        let vouchedByFingerprint =
            entry.settled && fingerprint.map { $0 == entry.fingerprint && $0.size == entry.size } == true
        if !vouchedByFingerprint {
            let bytes = try directory.digest(ofSegment: tail.segment, open: descriptor)
            guard bytes.count == entry.size, bytes.digest == entry.digest else { return nil }
        }
        guard
            let last = TailFile.lastEvent(
                inFrameAt: tail.lastFrameOffset, endingAt: tail.size, of: descriptor, fileSystem: options.fileSystem,
                chunkSize: options.readChunkSize, decompressor: ZstdDecompressor()),
            last.event.seq == entry.lastSeq, last.digest == entry.lastLineDigest
        else { return nil }
        let unsettled = !vouchedByFingerprint && fingerprint != nil
        return (last.event, LogHead(seq: last.event.seq, hash: last.digest.hex), unsettled)
    }
}
