import StintCore

extension LogWriter {
    /// Checks every segment before this writer appends anything, at a cost that does not grow with the log once
    /// it was checked whole (docs/log-format.md §5.4, docs/decisions/0008-damage-is-contained.md).
    ///
    /// A sealed segment is vouched for by the `checked` file (``CheckedSegments``) when its fingerprint is the
    /// one remembered and was settled (a later change to the file would have changed its change time), or, when
    /// the fingerprint differs or was not settled, when the SHA-256 of its bytes is the one remembered. Any other
    /// sealed segment is checked whole — every frame, event and chain link from the segment before it, and its
    /// seal — and remembered. The active segment is vouched for when the SHA-256 of its bytes is the one the last
    /// writer left (at most the seal threshold and one batch: its bytes are read at every opening). The segments
    /// must follow each other without a gap. Nothing on disk changes here.
    ///
    /// - Returns: whether the last segment is vouched for (sealed and checked, or active with the remembered
    ///   size and digest): only then may its end be taken from a tail; otherwise opening checks every frame of it
    ///   (``recover()``).
    /// - Throws: ``LogError/Code/damaged`` for a sealed segment that does not check, or segments that do not
    ///   follow each other.
    func checkSegments() throws(LogError) -> Bool {
        recordedChecked = CheckedSegments.read(in: directory)
        let remembered = recordedChecked ?? CheckedSegments()
        checked = CheckedSegments()
        vouchedHead = nil
        let listing = try directory.listing()
        if listing.repairPending && !finishesRepairs { throw interruptedRepair() }
        let segments = listing.segments
        guard !segments.isEmpty else { return false }
        if let problem = SegmentLayout.listingProblem(segments, directory: LogLocation()) {
            throw damage(problem, lastGood: nil)
        }
        // The ending of the segment before the one being checked, when it was read.
        var previousEnding: SegmentFile.Ending?
        var previousLastSeq: Int64?
        // Once a segment had to be checked whole (it changed, or was never checked), every later one is checked
        // whole too: a remembered entry vouches for a segment's bytes, not for its link to a changed one before.
        var checkedWholeBefore = false
        for (index, segment) in segments.enumerated() {
            if let previousLastSeq, previousLastSeq + 1 != segment.firstSeq {
                // A gap follows only a log.repaired that names this segment's first seq as its resume point (§6.1):
                // its segment's last frame says so.
                let ending: SegmentFile.Ending
                if let previousEnding {
                    ending = previousEnding
                } else {
                    ending = try endingOfSealedSegment(segments[index - 1], nextFirstSeq: nil)
                }
                let resumesAt = ending.lastEvent.resumePoint?.seq
                guard resumesAt == segment.firstSeq else {
                    let resumes = resumesAt.map { ", after which its log.repaired says the log resumes at seq \($0)" }
                    throw damage(
                        LogProblem(
                            .segmentLayout,
                            "the segment before this one ends at seq \(previousLastSeq)\(resumes ?? ""), but this one "
                                + "starts at seq \(segment.firstSeq): events are missing between them",
                            location: LogLocation(segment: segment.name, offset: 0, seq: ending.nextSeq)),
                        lastGood: previousLastSeq)
                }
                previousEnding = ending
            }
            let isLast = index == segments.count - 1
            let entry = remembered.entries[segment.name]
            if isLast, let entry, !entry.sealed {
                if checkedWholeBefore { return false }
                guard try vouchesForActiveSegment(segment, entry) else { return false }
                vouchedHead = (entry.lastSeq, entry.lastLineDigest)
                return true
            }
            if !checkedWholeBefore, let entry, entry.sealed, try vouchesForSealedSegment(segment.name, entry) {
                previousEnding = nil
                previousLastSeq = entry.lastSeq
                if isLast { vouchedHead = (entry.lastSeq, entry.lastLineDigest) }
                continue
            }
            if isLast, try !lastSegmentIsSealed(segment) { return false }
            if index > 0 && previousEnding == nil {
                previousEnding = try endingOfSealedSegment(segments[index - 1], nextFirstSeq: segment.firstSeq)
            }
            let ending = try checkSealedSegment(segment, previous: previousEnding)
            checkedWholeBefore = true
            previousEnding = ending
            previousLastSeq = ending.lastEvent.seq
            if isLast { vouchedHead = (ending.lastEvent.seq, ending.lastDigest) }
        }
        return true
    }

    /// The refusal of a log whose repair was cut off before it recorded what was lost.
    private func interruptedRepair() -> LogError {
        let lost = RepairMarker.read(in: directory).map { " (seq \($0.firstLostSeq)–\($0.lastLostSeq) lost)" } ?? ""
        return LogError(
            .damaged,
            "a repair of \(path) was interrupted before it recorded what it cut\(lost): run `stint repair` to finish "
                + "it", lastGoodSeq: nil)
    }

    /// Whether the remembered entry vouches for a sealed segment: the same settled fingerprint, or the same size
    /// and digest (then remembered with the fingerprint it has now).
    private func vouchesForSealedSegment(_ name: String, _ entry: CheckedSegments.Entry) throws(LogError) -> Bool {
        let segmentPath = directory.path(name)
        let now = try fingerprint(of: segmentPath)
        if entry.settled, let now, now == entry.fingerprint {
            checked.entries[name] = entry
            return true
        }
        if let now, now.size != entry.size { return false }
        let startedAt = checkStart()
        let before = try fingerprint(of: segmentPath)
        guard let hashed = try directory.digest(ofSegment: name), hashed.count == entry.size,
            hashed.digest == entry.digest
        else {
            return false
        }
        var kept = entry
        kept.fingerprint = try fingerprint(of: segmentPath)
        kept.settled = isSettled(kept.fingerprint, before: before, startedAt: startedAt)
        checked.entries[name] = kept
        return true
    }

    /// Whether the remembered entry vouches for the active segment: the same size and digest. Keeps the digest's
    /// state for the appends to come. A writer that settles (``LogConfiguration/settlesActiveSegment``) keeps
    /// the segment's fingerprint too, when it was settled as it was hashed.
    private func vouchesForActiveSegment(
        _ segment: (firstSeq: Int64, name: String), _ entry: CheckedSegments.Entry
    ) throws(LogError) -> Bool {
        let segmentPath = directory.path(segment.name)
        let startedAt = configuration.settlesActiveSegment ? checkStart() : nil
        // A cache: a fingerprint that cannot be taken only leaves the segment to be hashed again.
        let before = configuration.settlesActiveSegment ? (try? fileSystem.fingerprint(of: segmentPath)) ?? nil : nil
        guard let hashed = try directory.digest(ofSegment: segment.name), hashed.count == entry.size,
            hashed.digest == entry.digest
        else { return false }
        activeHasher = hashed
        if configuration.settlesActiveSegment, let after = (try? fileSystem.fingerprint(of: segmentPath)) ?? nil,
            isSettled(after, before: before, startedAt: startedAt)
        {
            settledActive = (segment.name, after)
        }
        return true
    }

    /// Checks a sealed segment whole (as ``recover()`` checks the active one) and remembers it.
    private func checkSealedSegment(
        _ segment: (firstSeq: Int64, name: String), previous: SegmentFile.Ending?
    ) throws(LogError) -> SegmentFile.Ending {
        let segmentPath = directory.path(segment.name)
        let startedAt = checkStart()
        let before = try fingerprint(of: segmentPath)
        let descriptor = try directory.openSegment(segment.name)
        let findings: Findings
        do {
            defer { fileSystem.close(descriptor) }
            findings = try examine(segment, descriptor: descriptor, previous: previous)
        }
        guard findings.sealed, findings.tornAt == nil, let lastEvent = findings.lastEvent,
            let lastDigest = findings.lastDigest
        else {
            throw damage(
                LogProblem(
                    .invalidSeal, "the segment has no valid seal frame, but it is not the last segment",
                    location: LogLocation(segment: segment.name, offset: findings.tornAt ?? findings.goodEnd)),
                lastGood: findings.lastEvent?.seq)
        }
        if let hashed = try directory.digest(ofSegment: segment.name) {
            let after = try fingerprint(of: segmentPath)
            // Remembered only when the file did not change while it was read.
            if after == before {
                checked.entries[segment.name] = CheckedSegments.Entry(
                    sealed: true, size: hashed.count, lastSeq: lastEvent.seq, lastLineDigest: lastDigest,
                    digest: hashed.digest,
                    fingerprint: after, settled: isSettled(after, before: before, startedAt: startedAt))
            }
        }
        return SegmentFile.Ending(lastEvent: lastEvent, lastDigest: lastDigest)
    }

    /// Whether the last segment ends with a seal frame for it (it is then checked as a sealed one).
    private func lastSegmentIsSealed(_ segment: (firstSeq: Int64, name: String)) throws(LogError) -> Bool {
        let file = SegmentFile(path: directory.path(segment.name), name: segment.name, fileSystem: fileSystem)
        guard let seal = try file.seal(searchLimit: Int64(SegmentFile.tailReadSize)) else { return false }
        return SegmentLayout.sealFits(seal.index, segmentFirstSeq: segment.firstSeq)
    }

    /// Whether a fingerprint taken before a file was read, and the same afterwards, shows a file last changed
    /// strictly before the check began: any later write gives it a later change time.
    private func isSettled(_ fingerprint: FileFingerprint?, before: FileFingerprint?, startedAt: Int64?) -> Bool {
        guard let fingerprint, let startedAt, fingerprint == before else { return false }
        return fingerprint.changed < startedAt
    }

    /// The change time the lock file was given when this writer began reading segments to check them: stamped
    /// once, on the file system's clock.
    private func checkStart() -> Int64? {
        if let checkStartedAt { return checkStartedAt }
        guard let lockDescriptor else { return nil }
        // A file system that refuses to set the lock file's times only costs digests: nothing is settled.
        let stamped = try? fileSystem.stampChangeTime(lockDescriptor)
        checkStartedAt = .some(stamped ?? nil)
        return stamped
    }

    private func fingerprint(of path: String) throws(LogError) -> FileFingerprint? {
        do {
            return try fileSystem.fingerprint(of: path)
        } catch {
            throw LogError.io(error, "look at segment", path: path)
        }
    }

    /// Keeps the SHA-256 of the active segment that ``recover()`` has just checked whole, for the appends to come
    /// and the `checked` file; nothing to read when the check of the segments already hashed it as it is.
    func hashCheckedActiveSegment() throws(LogError) {
        guard let active, activeHasher?.count != active.size else { return }
        activeHasher = try directory.digest(ofSegment: active.name)
    }

    /// Remembers a sealed segment this writer wrote (sealing, or a sealed copy): its bytes are `bytes`. Not
    /// settled (it changed after this writer's check began): the next writer compares its digest once.
    func rememberSealedSegment(_ name: String, bytes: [UInt8]) {
        guard let lastDigest else { return }
        checked.entries[name] = CheckedSegments.Entry(
            sealed: true, size: Int64(bytes.count), lastSeq: lastSeq, lastLineDigest: lastDigest,
            digest: SHA256Digest(of: bytes),
            fingerprint: try? fileSystem.fingerprint(of: directory.path(name)), settled: false)
    }

    /// Writes the `checked` file for the segments as this writer leaves them, when it changed
    /// (``writeCacheFile(named:_:)``: a lost or torn one only costs the next writer a check).
    func recordCheckedFile() {
        guard failure == nil, lockDescriptor != nil else { return }
        var entries = checked.entries.filter(\.value.sealed)
        if let active {
            // Only a digest kept from bytes this writer checked or wrote vouches for the active segment: the file
            // is never hashed again here, where it could have changed since.
            if let hasher = activeHasher, hasher.count == active.size, let lastDigest {
                // Settled as this writer found it, and not appended to since: the fingerprint vouches.
                let settled = settledActive.flatMap {
                    $0.name == active.name && $0.fingerprint.size == active.size ? $0 : nil
                }
                entries[active.name] = CheckedSegments.Entry(
                    sealed: false, size: active.size, lastSeq: lastSeq, lastLineDigest: lastDigest,
                    digest: hasher.digest, fingerprint: settled?.fingerprint, settled: settled != nil)
            }
        }
        checked.entries = entries
        // An open that vouched for every segment as it was changes nothing: no file to encode or write.
        guard checked != recordedChecked else { return }
        if writeCacheFile(named: CheckedSegments.name, checked.bytes) { recordedChecked = checked }
    }
}
