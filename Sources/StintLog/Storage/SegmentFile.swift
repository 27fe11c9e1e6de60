import StintCore

/// Reads the parts of a segment file that are found from its end: the seal frame and the last event.
struct SegmentFile {
    let path: String
    let name: String
    let fileSystem: any LogFileSystem

    /// The seal of a sealed segment.
    struct Seal {
        var index: SealIndex
        /// The offset of the seal frame, which is where the last data frame ends.
        var offset: Int64
    }

    /// The size of the first tail read when looking for a seal frame; enough for a 4000-frame index.
    static let tailReadSize = 64 << 10
    /// The most bytes from the end a seal frame can span.
    static let largestSealSearch = Int64(8 + SealIndex.fixedPayloadSize + FrameLimits.maximumSealPayload)

    /// The segment's seal, or nil when it does not end with a valid seal frame.
    ///
    /// Reads the last 64 KiB and, when the seal is not in them, up to `searchLimit` bytes from the end (by
    /// default as far as the largest seal frame can reach).
    func seal(searchLimit: Int64 = SegmentFile.largestSealSearch) throws(LogError) -> Seal? {
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(path, .readOnly)
        } catch {
            throw LogError.io(error, "open segment \(name)", path: path)
        }
        defer { fileSystem.close(descriptor) }
        do {
            let size = try fileSystem.size(of: descriptor)
            var tailSize = Int(min(size, Int64(SegmentFile.tailReadSize)))
            while true {
                let tail = try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
                    count: tailSize, at: size - Int64(tailSize))
                if let found = tail.withUnsafeBytes({ SealIndex.locate(inTail: $0, fileSize: size) }) {
                    return Seal(index: found.0, offset: found.offset)
                }
                guard Int64(tailSize) < min(size, searchLimit) else { return nil }
                tailSize = Int(min(size, searchLimit, Int64(tailSize) * 4))
            }
        } catch {
            throw LogError.io(error, "read segment \(name)", path: path)
        }
    }

    /// What the last frame of a sealed segment ends with.
    struct Ending {
        var lastEvent: RecordedEvent
        var lastDigest: SHA256Digest

        /// The `seq` the event after this ending must have: the next one, or the resume point the
        /// `log.repaired` there names (docs/log-format.md §6.1).
        var nextSeq: Int64 { lastEvent.resumePoint?.seq ?? lastEvent.seq + 1 }

        /// The link the event after this ending must have: its line's digest, or the resume point's link.
        var nextLink: ChainLink { lastEvent.resumePoint.map { .resumed($0.link) } ?? .line(lastDigest) }
    }

    /// The last event of a sealed segment and the digest of its line, read from the segment's last data
    /// frame only (found through the seal index).
    ///
    /// - Throws: ``LogError/Code/damaged`` when that frame is unreadable or does not end with the seal's
    ///   last `seq`.
    func ending(of seal: Seal, logPath: String, chunkSize: Int, decompressor: ZstdDecompressor) throws(LogError)
        -> Ending
    {
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(path, .readOnly)
        } catch {
            throw LogError.io(error, "open segment \(name)", path: path)
        }
        defer { fileSystem.close(descriptor) }
        let entry = seal.index.entries[seal.index.entries.count - 1]
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: fileSystem), startingAt: entry.offset,
            chunkSize: chunkSize, decompressor: decompressor)
        var checker = EventChecker(options: CheckOptions(), nextSeq: entry.firstSeq, link: .unknown)
        let frame: ScannedFrame
        do {
            frame = try scanner.next()
        } catch {
            throw LogError.io(error, "read segment \(name)", path: path)
        }
        let location = LogLocation(segment: name, offset: entry.offset, seq: entry.firstSeq)
        guard case .data(let offset, let size, _, let content) = frame else {
            let problem = LogProblem(
                .unreadableFrame, "the last data frame of the sealed segment is unreadable", location: location)
            throw LogError(damage: problem, logPath: logPath, lastGoodSeq: nil, doing: "open")
        }
        checker.checkFrame(content, segment: name, offset: offset)
        if let problem = checker.problems.first {
            throw LogError(damage: problem, logPath: logPath, lastGoodSeq: nil, doing: "open")
        }
        guard let last = checker.lastEvent, last.seq == seal.index.lastSeq, offset + Int64(size) == seal.offset,
            let digest = checker.lastLineDigest
        else {
            let problem = LogProblem(
                .invalidSeal,
                "the seal says the segment ends at seq \(seal.index.lastSeq) at offset \(seal.offset), "
                    + "but its last frame ends at seq \(checker.lastEvent?.seq ?? 0)", location: location)
            throw LogError(damage: problem, logPath: logPath, lastGoodSeq: nil, doing: "open")
        }
        return Ending(lastEvent: last, lastDigest: digest)
    }
}
