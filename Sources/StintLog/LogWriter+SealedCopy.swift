import StintCore

extension LogWriter {
    /// Places a sealed segment the mirrored device wrote, byte for byte, instead of appending its batches as frames
    /// and sealing them again (docs/sync.md, "How fast"): the segment the next batch goes to (the active segment, or
    /// the one `batches` start) when `sealed` holds its sealed form. Returns how many of `batches` the segment
    /// holds, or 0 when it is not taken, having changed nothing.
    ///
    /// The bytes are taken only when they are exactly that segment sealed: whole data frames whose checksums
    /// verify, each ending at a batch boundary, whose content is the active segment's (read back) followed by the
    /// lines of the first batches (checked to continue the log by the caller), then a seal frame whose index
    /// describes those frames, then nothing. They replace the segment as sealing
    /// does: `<segment>.copy.tmp`, synced, renamed over it, and the directory synced.
    func placeSealedCopy(
        of batches: ArraySlice<RecordedBatch>, sealed: (_ name: String) -> [UInt8]?
    ) throws(LogError) -> Int {
        guard let first = batches.first else { return 0 }
        let name = active?.name ?? LogDirectory.segmentName(firstSeq: first.firstSeq)
        let firstSeq = active?.firstSeq ?? first.firstSeq
        guard let bytes = sealed(name) else { return 0 }
        var content: [UInt8] = []
        var batchEnds: [Int] = []
        if let active {
            guard let read = try? readBack(active), !read.1.isEmpty else { return 0 }
            (content, batchEnds) = read
        }
        // The sealed segment's data frames, and where each ends in the content.
        let scanner = FrameScanner(source: .memory(bytes), chunkSize: max(1, bytes.count), decompressor: decompressor)
        var sealedContent: [UInt8] = []
        // At most the active segment's lines and the batches'.
        sealedContent.reserveCapacity(content.count + batches.reduce(0) { $0 + $1.content.count })
        var frameEnds: [(offset: Int64, end: Int)] = []
        var seal: SealIndex?
        scanning: while true {
            switch try? scanner.next() {
            case .data(let offset, _, let header, let frame)?:
                guard seal == nil, SegmentLayout.isSegmentFrame(header)
                else { return 0 }
                sealedContent.append(contentsOf: frame)
                frameEnds.append((offset, sealedContent.count))
            case .seal(_, _, let payload)?:
                guard seal == nil, let index = try? SealIndex(payload: payload) else { return 0 }
                seal = index
            case .end?:
                break scanning
            default:
                return 0
            }
        }
        guard let seal, sealedContent.count > content.count, sealedContent.holds(content, at: 0)
        else { return 0 }
        // The lines after the active segment's: the first batches.
        var taken: RecordedBatch?
        var count = 0
        var position = content.count
        for batch in batches where position < sealedContent.count {
            guard sealedContent.holds(batch.content, at: position) else { return 0 }
            position += batch.content.count
            batchEnds.append(position)
            taken = batch
            count += 1
        }
        guard let taken, position == sealedContent.count else { return 0 }
        let last = taken.last
        // Each frame ends at a batch boundary, and the seal indexes the frames.
        let ends = Set(batchEnds)
        var entries: [SealIndex.Entry] = []
        var seq = firstSeq
        var start = 0
        for frame in frameEnds {
            guard ends.contains(frame.end) else { return 0 }
            entries.append(SealIndex.Entry(offset: frame.offset, firstSeq: seq))
            seq += Int64(
                sealedContent.withUnsafeBytes {
                    LogWriter.countLines(UnsafeRawBufferPointer(rebasing: $0[start..<frame.end]))
                })
            start = frame.end
        }
        guard seq - 1 == last.seq, seal.differences(fromFrames: entries, firstSeq: firstSeq, lastSeq: last.seq).isEmpty
        else { return 0 }

        let segmentPath = directory.path(name)
        let temporaryPath = directory.path(name + ".copy" + LogDirectory.temporarySuffix)
        do {
            fileSystem.close(try fileSystem.placeDurably(bytes, at: temporaryPath, as: segmentPath, in: path))
        } catch {
            if !error.renamed { try? fileSystem.removeFile(temporaryPath) }
            throw stop(LogError.io(error.error, "place the sealed segment \(name)", path: segmentPath))
        }
        if let active { fileSystem.close(active.descriptor) }
        active = nil
        lastSeq = last.seq
        lastEvent = last
        lastDigest = taken.digest
        hybridClock = taken.clock
        rememberSealedSegment(name, bytes: bytes)
        recordTailFile()
        recordCheckedFile()
        return count
    }
}
