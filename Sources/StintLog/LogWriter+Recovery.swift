import StintCore

extension LogWriter {
    /// What opening found in the last segment, before anything on disk is changed.
    struct Findings {
        var lastSeq: Int64
        var lastEvent: RecordedEvent?
        var lastDigest: SHA256Digest?
        /// The active segment's descriptor (open for writing), when the last segment is not sealed.
        var descriptor: Int32?
        /// The end of the last whole, valid frame.
        var goodEnd: Int64 = 0
        /// Where the last whole, valid data frame starts.
        var lastFrameOffset: Int64?
        /// Where a torn tail starts, when there is one.
        var tornAt: Int64?
        var sealed = false
    }

    /// Checks the log's end and repairs what an interruption left: runs at open, under the lock.
    ///
    /// Everything is checked first; the disk changes (temporary files removed, torn tail set aside, an
    /// interrupted seal completed) only once the log is known to be intact before its tail.
    func recover() throws(LogError) {
        let listing = try directory.listing()
        let segments = listing.segments
        if let problem = SegmentLayout.listingProblem(segments, directory: LogLocation()) {
            throw damage(problem, lastGood: nil)
        }
        let last = segments[segments.count - 1]
        var previous: SegmentFile.Ending?
        if segments.count >= 2 {
            previous = try endingOfSealedSegment(segments[segments.count - 2], nextFirstSeq: last.firstSeq)
        }
        let lastFile = SegmentFile(path: directory.path(last.name), name: last.name, fileSystem: fileSystem)
        var findings: Findings
        if let seal = try lastFile.seal(searchLimit: Int64(SegmentFile.tailReadSize)),
            SegmentLayout.sealFits(seal.index, segmentFirstSeq: last.firstSeq)
        {
            let ending = try lastFile.ending(
                of: seal, logPath: path, chunkSize: configuration.readChunkSize, decompressor: decompressor)
            findings = Findings(
                lastSeq: ending.lastEvent.seq, lastEvent: ending.lastEvent, lastDigest: ending.lastDigest)
            findings.sealed = true
        } else {
            findings = try examineActiveSegment(last, previous: previous)
        }
        if let tornAt = findings.tornAt, tornAt == 0, segments.count == 1 {
            findings.descriptor.map(fileSystem.close)
            throw damage(
                LogProblem(
                    .unreadableFrame, "the first frame of the log is unreadable, so the log has no intact event",
                    location: LogLocation(segment: last.name, offset: 0, seq: 1)), lastGood: nil)
        }
        if let acknowledged = recordedChecked?.entries[last.name], !acknowledged.sealed,
            let problem = lossBelowAcknowledged(findings, acknowledged, segment: last.name)
        {
            // Refused before anything changes: `stint repair` records the loss (docs/log-format.md §5.7).
            findings.descriptor.map(fileSystem.close)
            throw damage(problem, lastGood: findings.lastEvent?.seq)
        }

        // The log is intact before its tail: repair.
        do {
            try removeTemporaryFiles(listing.temporaryFiles)
            if let tornAt = findings.tornAt, let descriptor = findings.descriptor {
                try setAsideTornTail(of: last.name, descriptor: descriptor, at: tornAt, lastSeq: findings.lastSeq)
                if tornAt == 0 {
                    fileSystem.close(descriptor)
                    findings.descriptor = nil
                    try removeSegment(last.name)
                    findings.sealed = true
                }
            }
        } catch {
            findings.descriptor.map(fileSystem.close)
            throw error
        }
        lastSeq = findings.lastSeq
        lastEvent = findings.lastEvent
        lastDigest = findings.lastDigest
        if findings.tornAt == 0, let previous {
            lastSeq = previous.lastEvent.seq
            lastEvent = previous.lastEvent
            lastDigest = previous.lastDigest
        }
        if let descriptor = findings.descriptor {
            if findings.sealed {
                fileSystem.close(descriptor)
            } else {
                active = ActiveSegment(
                    name: last.name, firstSeq: last.firstSeq, descriptor: descriptor, size: findings.goodEnd,
                    lastFrameOffset: findings.lastFrameOffset)
            }
        }
        if let active, active.size >= configuration.sealThreshold {
            try sealActiveSegment()
            configuration.onNotice(
                LogNotice(
                    .interruptedSealCompleted,
                    "sealed segment \(active.name) of \(path), which had reached the seal threshold before an "
                        + "interruption", location: LogLocation(segment: active.name)))
        }
    }

    /// The last event of a sealed segment, read through its seal index.
    ///
    /// - Parameter nextFirstSeq: the first `seq` of the segment after it, which must follow its ending (the next
    ///   `seq`, or the resume point of its last event, docs/log-format.md §6.1); nil when the caller checks that.
    func endingOfSealedSegment(
        _ segment: (firstSeq: Int64, name: String), nextFirstSeq: Int64?
    ) throws(LogError) -> SegmentFile.Ending {
        let file = SegmentFile(path: directory.path(segment.name), name: segment.name, fileSystem: fileSystem)
        guard let seal = try file.seal() else {
            throw damage(
                LogProblem(
                    .invalidSeal, "the segment has no valid seal frame, but it is not the last segment",
                    location: LogLocation(segment: segment.name)), lastGood: nil)
        }
        func misfit(_ nextFirstSeq: Int64, resumesAt: Int64? = nil) -> LogError {
            let resumes = resumesAt.map { ", after which its log.repaired says the log resumes at seq \($0)" } ?? ""
            return damage(
                LogProblem(
                    .segmentLayout,
                    "the segment holds seq \(seal.index.firstSeq)…\(seal.index.lastSeq) by its seal\(resumes), but its "
                        + "name says it starts at seq \(segment.firstSeq) and the next segment starts at seq "
                        + "\(nextFirstSeq)",
                    location: LogLocation(segment: segment.name, offset: seal.offset)), lastGood: nil)
        }
        guard SegmentLayout.sealFits(seal.index, segmentFirstSeq: segment.firstSeq) else {
            throw misfit(nextFirstSeq ?? seal.index.lastSeq + 1)
        }
        let ending = try file.ending(
            of: seal, logPath: path, chunkSize: configuration.readChunkSize, decompressor: decompressor)
        if let nextFirstSeq, ending.nextSeq != nextFirstSeq {
            throw misfit(nextFirstSeq, resumesAt: ending.lastEvent.resumePoint?.seq)
        }
        return ending
    }

    /// Reads and checks every frame of the last segment without changing it.
    private func examineActiveSegment(
        _ segment: (firstSeq: Int64, name: String), previous: SegmentFile.Ending?
    ) throws(LogError) -> Findings {
        let segmentPath = directory.path(segment.name)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(segmentPath, .readWrite)
        } catch {
            throw LogError.io(error, "open segment \(segment.name)", path: segmentPath)
        }
        do {
            var findings = try examine(segment, descriptor: descriptor, previous: previous)
            findings.descriptor = descriptor
            return findings
        } catch {
            fileSystem.close(descriptor)
            throw error
        }
    }

    func examine(
        _ segment: (firstSeq: Int64, name: String), descriptor: Int32, previous: SegmentFile.Ending?
    ) throws(LogError) -> Findings {
        let segmentPath = directory.path(segment.name)
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: fileSystem), chunkSize: configuration.readChunkSize,
            decompressor: decompressor)
        var checker = EventChecker(
            options: CheckOptions(), nextSeq: segment.firstSeq, link: previous?.nextLink ?? .genesis)
        checker.lastAt = previous?.lastEvent.at
        var frames: [SealIndex.Entry] = []
        var crowdedFrame: Int64?
        var order = SegmentLayout.FrameOrder()
        var goodEnd: Int64 = 0
        var lastGood = previous?.lastEvent.seq
        var tornAt: Int64?
        func problem(_ kind: LogProblem.Kind, _ message: String, _ offset: Int64) -> LogError {
            damage(
                LogProblem(
                    kind, message, location: LogLocation(segment: segment.name, offset: offset, seq: checker.nextSeq)),
                lastGood: lastGood)
        }
        scanning: while true {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read segment \(segment.name)", path: segmentPath)
            }
            switch frame {
            case .data(let offset, let size, let header, let content):
                if let message = order.data() { throw problem(.frameLayout, message, offset) }
                guard SegmentLayout.isSegmentFrame(header) else {
                    throw problem(.frameLayout, "the data frame does not declare its content size and checksum", offset)
                }
                checker.checkFrame(content, segment: segment.name, offset: offset)
                if let found = checker.problems.first { throw damage(found, lastGood: lastGood) }
                checker.completed.removeAll(keepingCapacity: true)
                frames.append(SealIndex.Entry(offset: offset, firstSeq: checker.frameFirstSeq ?? 0))
                if checker.batchesInFrame > 1 && crowdedFrame == nil { crowdedFrame = offset }
                goodEnd = offset + Int64(size)
                lastGood = checker.lastEvent?.seq
            case .seal(let offset, let size, let payload):
                if let message = order.seal() { throw problem(.frameLayout, message, offset) }
                let index: SealIndex
                do {
                    index = try SealIndex(payload: payload)
                } catch {
                    throw problem(.invalidSeal, error.description, offset)
                }
                guard index.differences(fromFrames: frames, firstSeq: segment.firstSeq, lastSeq: lastGood ?? 0).isEmpty
                else {
                    throw problem(.invalidSeal, "the seal index does not describe the segment's frames", offset)
                }
                goodEnd = offset + Int64(size)
            case .skippable(let offset, _, let magic):
                throw problem(.frameLayout, SegmentLayout.FrameOrder.skippable(magic: magic), offset)
            case .end:
                break scanning
            case .incomplete(let offset):
                // A frame whose header was damaged can look incomplete and swallow the frames after it.
                if try startsTornTail(scanner, segmentPath) {
                    tornAt = offset
                    break scanning
                }
                throw problem(
                    .unreadableFrame, "the frame's blocks run past the end of the file, yet a valid frame follows",
                    offset)
            case .unreadable(let offset, let reason, let oversized):
                if try startsTornTail(scanner, segmentPath) {
                    tornAt = offset
                    break scanning
                }
                throw problem(
                    oversized ? .oversizedFrame : .unreadableFrame, reason + ", and a valid frame follows", offset)
            }
        }
        if frames.isEmpty && !order.sawSeal && tornAt == nil {
            // An empty file: nothing to keep; it is removed like a segment whose only frame was torn.
            tornAt = 0
        }
        if !SegmentLayout.allowsSeveralBatchesPerFrame(sealed: order.sawSeal), let crowdedFrame {
            throw problem(.frameLayout, SegmentLayout.crowdedFrame, crowdedFrame)
        }
        var findings = Findings(
            lastSeq: checker.lastEvent?.seq ?? previous?.lastEvent.seq ?? 0,
            lastEvent: checker.lastEvent ?? previous?.lastEvent, lastDigest: checker.lastLineDigest)
        findings.goodEnd = goodEnd
        findings.lastFrameOffset = frames.last?.offset
        findings.tornAt = tornAt
        findings.sealed = order.sawSeal
        return findings
    }

    /// The damage in an active segment that ends — with its last whole frame — before the bytes the last writer
    /// acknowledged (the `checked` file, written only after they were synced): a bad frame there, or missing
    /// bytes, is a loss of acknowledged events, not an append that did not finish. Nil when nothing acknowledged
    /// is missing.
    private func lossBelowAcknowledged(
        _ findings: Findings, _ acknowledged: CheckedSegments.Entry, segment: String
    ) -> LogProblem? {
        guard !findings.sealed, findings.goodEnd < acknowledged.size || findings.lastSeq < acknowledged.lastSeq
        else { return nil }
        let lost = CheckedSegments.seqs(
            findings.lastSeq + 1, acknowledged.lastSeq, "was acknowledged and is", "were acknowledged and are")
        let what =
            findings.tornAt.map { "the frame at offset \($0) is unreadable" }
            ?? "the segment ends at offset \(findings.goodEnd)"
        return LogProblem(
            .unreadableFrame,
            "\(what), but a writer acknowledged the segment up to offset \(acknowledged.size) (seq "
                + "\(acknowledged.lastSeq)): \(lost) damaged or missing, not an append that "
                + "did not finish",
            location: LogLocation(
                segment: segment, offset: findings.tornAt ?? findings.goodEnd, seq: findings.lastSeq + 1))
    }

    /// Whether the bad frame where `scanner` stands starts a torn tail of the last segment.
    private func startsTornTail(_ scanner: FrameScanner, _ segmentPath: String) throws(LogError) -> Bool {
        do {
            return SegmentLayout.isTornTail(inLastSegment: true, followedBy: try scanner.findNextValidFrame())
        } catch {
            throw LogError.io(error, "read segment", path: segmentPath)
        }
    }

    func damage(_ problem: LogProblem, lastGood: Int64?) -> LogError {
        LogError(damage: problem, logPath: path, lastGoodSeq: lastGood, doing: "open for writing")
    }

    /// Removes the temporary files of interrupted operations (we hold the lock, so none is in progress).
    private func removeTemporaryFiles(_ names: [String]) throws(LogError) {
        guard !names.isEmpty else { return }
        for name in names {
            do {
                try fileSystem.removeFile(directory.path(name))
            } catch {
                throw LogError.io(error, "remove the temporary file \(name)", path: directory.path(name))
            }
        }
        do {
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw LogError.io(error, "sync the log directory", path: path)
        }
        configuration.onNotice(
            LogNotice(
                .temporaryFileRemoved,
                "removed \(names.joined(separator: ", ")) from \(path), left by an interrupted write (no "
                    + "acknowledged event was in them)"))
    }

    /// Copies the bytes from `offset` to the end of the segment to `<segment>.torn-<offset>` and truncates
    /// the segment there, syncing both and the directory.
    private func setAsideTornTail(of name: String, descriptor: Int32, at offset: Int64, lastSeq: Int64) throws(LogError)
    {
        let segmentPath = directory.path(name)
        let tail: [UInt8]
        do {
            let size = try fileSystem.size(of: descriptor)
            tail = try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
                count: Int(size - offset), at: offset)
        } catch {
            throw LogError.io(error, "read the torn tail of segment \(name)", path: segmentPath)
        }
        let tornName = try asideName("\(name).torn-\(offset)", reusingOneHolding: tail)
        if !tail.isEmpty { try writeFile(named: tornName, tail) }
        do {
            try fileSystem.truncate(descriptor, to: offset)
            try fileSystem.synchronize(descriptor, dataOnly: false)
        } catch {
            throw LogError.io(error, "truncate segment \(name)", path: segmentPath)
        }
        let what =
            tail.isEmpty
            ? "segment \(name) was empty (a segment creation that did not finish) and was removed"
            : "the \(tail.count) bytes at offset \(offset) of segment \(name) (an append that did not finish) were "
                + "moved to \(tornName)"
        configuration.onNotice(
            LogNotice(
                .tornTailSetAside, "repaired a torn tail in \(path): \(what); the log ends at seq \(lastSeq)",
                location: LogLocation(segment: name, offset: offset, seq: lastSeq)))
    }

    /// A free name for bytes set aside (a torn tail, a damaged segment): `base`, or `base.2`, `base.3`, … when it
    /// is taken — or the taken one whose file already holds exactly `bytes`, when given (a repair run again).
    func asideName(_ base: String, reusingOneHolding bytes: [UInt8]? = nil) throws(LogError) -> String {
        var candidate = base
        var suffix = 1
        while true {
            let existing: FileKind?
            do {
                existing = try fileSystem.kind(of: directory.path(candidate))
            } catch {
                throw LogError.io(error, "look at \(candidate)", path: directory.path(candidate))
            }
            guard existing != nil else { return candidate }
            if let bytes, try contents(of: candidate) == bytes { return candidate }
            suffix += 1
            candidate = "\(base).\(suffix)"
        }
    }

    /// The whole content of file `name` of the log directory.
    func contents(of name: String) throws(LogError) -> [UInt8] {
        let filePath = directory.path(name)
        do {
            let descriptor = try fileSystem.openFile(filePath, .readOnly)
            defer { fileSystem.close(descriptor) }
            let size = try fileSystem.size(of: descriptor)
            return try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(
                count: Int(size), at: 0)
        } catch {
            throw LogError.io(error, "read \(name)", path: filePath)
        }
    }

    /// Removes a segment whose only frame was torn, and syncs the directory.
    private func removeSegment(_ name: String) throws(LogError) {
        do {
            try fileSystem.removeFile(directory.path(name))
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw LogError.io(error, "remove the empty segment \(name)", path: directory.path(name))
        }
    }
}
