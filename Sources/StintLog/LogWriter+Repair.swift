public import StintCore

/// What ``LogWriter/openRepairing(at:configuration:keepsAfterGap:knownHeads:)`` did to a damaged log (docs/log-format.md §5.7).
public struct LogRepair: Hashable, Sendable {
    /// The first `seq` the log no longer holds: the log now ends at `firstLostSeq - 1`.
    public var firstLostSeq: Int64
    /// The highest `seq` the log is known to have held (the segments set aside start at or before it, or the
    /// `checked` file remembered it); at least `firstLostSeq - 1` (then only a seal or layout was repaired).
    public var lastLostSeq: Int64
    /// The damage that was found, as the writer reported it.
    public var reason: String
    /// The files of the log directory that now hold the original bytes, byte for byte.
    public var setAside: [String]
    /// The segments rewritten (sealed) from the lines they keep.
    public var rewritten: [String]
    /// Where the log resumes after the gap when the events after it were kept (``LogWriter/placeKeptSegments()``
    /// puts them in place after the `log.repaired` that names this point); nil when they all went aside.
    public var resume: ResumePoint?

    /// Whether events were lost (rather than only a seal or a frame layout being rewritten).
    public var lostEvents: Bool { lastLostSeq >= firstLostSeq }
}

extension LogWriter {
    /// Opens a log for appending, first cutting it at its first damage when it is damaged: the salvage of
    /// `stint repair` (docs/log-format.md §5.7, docs/decisions/0008-damage-is-contained.md).
    ///
    /// The log keeps the events a reader reads from its start — every one checked, with its chain — up to the
    /// first problem; the damaged segment's original bytes and every later segment are set aside under
    /// `<segment>.damaged` (byte for byte, never in the log again), and the kept part of a cut segment is
    /// sealed again from its own lines (the events' bytes do not change). Before the first change, what is lost
    /// is written to the `repairing` file and synced (``RepairMarker``); writers refuse the log while it is
    /// there. Nothing is appended here: the caller records the repair as an event, then calls
    /// ``finishRepair()``. A log that is intact is only opened (the repair is nil) — unless an interrupted
    /// repair left its `repairing` file: the repair it stands for is returned, for the caller to record unless
    /// the log already ends with that record.
    ///
    /// With `keepsAfterGap`, the run of events after the damage that a known head vouches for and that ends the
    /// log (``SalvageScan``) is kept too, after the one gap (docs/log-format.md §3): written aside as
    /// `<segment>.kept` before the cut, and named by the repair's ``LogRepair/resume``; the caller appends the
    /// `log.repaired` naming it, then calls ``placeKeptSegments()``. The heads are the segment ends the
    /// `checked` file remembers and those `knownHeads` gives (asked only when the log is damaged, under the
    /// lock, before anything changes).
    ///
    /// - Throws: ``LogError/Code/damaged`` when not even the first event can be kept; ``LogError/Code/invalidInput``
    ///   for a device's log (format 2), whose events other devices may hold: repairing it is not supported;
    ///   whatever ``open(at:configuration:tail:)`` throws.
    public static func openRepairing(
        at path: String, configuration: LogConfiguration, keepsAfterGap: Bool = false,
        knownHeads: () -> [LogHead] = { [] }
    ) throws(LogError) -> (writer: LogWriter, repair: LogRepair?) {
        let cutter = LogWriter(path: path, configuration: configuration)
        let format = try cutter.directory.checkFormat()
        if format == 2 {
            throw LogError(
                .invalidInput,
                "\(path) is a device's log (log format 2): other devices may hold its events, so it is not cut; "
                    + "restore this device's log from its copy in the sync folder instead")
        }
        cutter.finishesRepairs = true
        try cutter.acquireLock()
        do {
            // What a repair cut off before its record was about to record (read under the lock).
            let pending = RepairMarker.read(in: cutter.directory)
            var repair: LogRepair?
            do {
                try cutter.openLocked(format: format, tail: { nil })
                repair = pending.map {
                    LogRepair(
                        firstLostSeq: $0.firstLostSeq, lastLostSeq: $0.lastLostSeq, reason: $0.reason, setAside: [],
                        rewritten: [], resume: $0.resume)
                }
                // A `repairing` file that does not parse (edited by hand) says nothing to record: it only goes.
                if pending == nil { try cutter.finishRepair() }
            } catch  where error.code == .damaged {
                // A fresh writer's state for the cut: the failed check may have left some of it set.
                cutter.resetAfterFailedCheck()
                repair = try cutter.cut(
                    after: error, pending: pending, keeping: keepsAfterGap ? knownHeads() : nil)
                // The same writer, still holding the lock, opens the cut log: the caller's record of the repair
                // is the next batch, with no other writer's before it.
                cutter.resetAfterFailedCheck()
                try cutter.openLocked(format: format, tail: { nil })
            }
            return (cutter, repair)
        } catch {
            cutter.close()
            throw error
        }
    }

    func resetAfterFailedCheck() {
        if let active { fileSystem.close(active.descriptor) }
        active = nil
        activeHasher = nil
        lastEvent = nil
        lastDigest = nil
        lastSeq = 0
        failure = nil
    }

    /// Records a repair ``openRepairing(at:configuration:keepsAfterGap:knownHeads:)`` returned: appends the
    /// `log.repaired` event that describes it — unless the log already holds it (a repair interrupted after its
    /// record) — puts the kept segments after its gap in place, and removes the `repairing` file. Returns the
    /// record's `seq`; nil when no event was lost (only a seal or a frame layout was rewritten).
    public func record(_ repair: LogRepair) throws(LogError) -> Int64? {
        var recordedAt: Int64?
        if repair.lostEvents {
            let event = DomainEvent.logRepaired(
                from: repair.firstLostSeq, to: repair.lastLostSeq, reason: repair.reason, resume: repair.resume)
            if let resume = repair.resume, lastSeq >= resume.seq {
                // Kept segments are already in place after the record.
                recordedAt = repair.firstLostSeq
            } else if let last = lastEvent, (try? DomainEvent(last)) == event {
                recordedAt = last.seq
            } else {
                // After its gap come events recorded before it: it takes the `at` of the event before it.
                let reading = repair.resume == nil ? configuration.clock() : lastEvent?.at ?? configuration.clock()
                recordedAt = try append([event.draft], receiving: nil, reading: reading).first?.seq
            }
            if repair.resume != nil { try placeKeptSegments() }
        }
        try finishRepair()
        return recordedAt
    }

    /// Removes the `repairing` file (``RepairMarker``) once the repair's `log.repaired` event is in the log (or
    /// when no event was lost): writers append to the log again. Nothing to do when there is none.
    public func finishRepair() throws(LogError) {
        let markerPath = directory.path(RepairMarker.name)
        do {
            guard try fileSystem.kind(of: markerPath) != nil else { return }
            try fileSystem.removeFile(markerPath)
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw LogError.io(error, "remove the repairing file", path: markerPath)
        }
    }

    /// Cuts the log after the last event a reader reads from its start, under this writer's lock. Before the
    /// first change, records what the cut loses in the `repairing` file (merged with `pending`, what an
    /// interrupted repair was about to record), synced: a crash after the cut leaves it for the next repair.
    /// With `keeping` (the known heads), first writes the run to keep after the gap, if there is one.
    private func cut(
        after damage: LogError, pending: RepairMarker?, keeping heads: [LogHead]?
    ) throws(LogError) -> LogRepair {
        var kept = try keptPrefix()
        // The cut is where the reader stopped: its warning says why (the writer's error when it read to the end).
        var problem = (kept.warning ?? (damage.cause as? LogProblem))?.description ?? damage.message
        guard kept.lastSeq >= 1 else {
            throw LogError(
                .damaged,
                "\(damage.message)\nNothing can be kept: the log's first event is damaged. Restore the log from a "
                    + "backup.", location: damage.location, lastGoodSeq: nil)
        }
        let segments = try directory.listing().segments
        let remembered = CheckedSegments.read(in: directory)
        // Kept segments no `repairing` file names are a repair's that was interrupted before it wrote them.
        if pending?.resume == nil { try removeKeptSegments() }
        var resume = pending?.resume
        // The prefix's end when the events after it follow it after all (only a seal or a frame between was
        // damaged): nothing is lost, the damaged segment is only sealed again.
        var continuedTo: Int64?
        var after = try (resume == nil ? heads : nil).map { (heads) throws(LogError) in
            try eventsAfterPrefix(kept.lastSeq, segments: segments, remembered: remembered, heads: heads)
        }
        if resume == nil, let last = kept.lastEvent,
            let run = after?.scan.continuation(of: last, lastKnown: after?.lastRemembered ?? 0)
        {
            continuedTo = run.lastSeq
        } else if resume == nil, let last = kept.lastEvent, last.resumePoint != nil, kept.lastSeq >= 2 {
            // The prefix ends with an earlier repair's record whose kept events no longer read: nothing may follow
            // it but them, so it goes too, and this repair's record, in its place, says what it said.
            if case .logRepaired(let from, let to, let reason, _)? = try? DomainEvent(last) {
                problem += "; it replaces the log.repaired of seq \(last.seq) (seqs \(from)–\(to): \(reason))"
            }
            kept = (last.seq - 1, nil, kept.warning)
            after = try heads.map { (heads) throws(LogError) in
                try eventsAfterPrefix(kept.lastSeq, segments: segments, remembered: remembered, heads: heads)
            }
        }
        if resume == nil, continuedTo == nil, let after,
            let run = after.scan.keptRun(recordSeq: kept.lastSeq + 1, lastKnown: after.lastRemembered)
        {
            _ = try writeKeptSegments(run)
            resume = ResumePoint(seq: run.firstSeq, link: run.firstLink)
        }
        let keptLastSeq = continuedTo ?? kept.lastSeq
        var lastKnown = remembered?.lastSeq ?? 0
        if let warning = kept.warning, continuedTo == nil {
            // The reader stopped before the end: at least the event where it stopped is lost.
            lastKnown = max(lastKnown, kept.lastSeq + 1, warning.location.seq ?? 0)
        }
        for segment in segments where segment.firstSeq > keptLastSeq { lastKnown = max(lastKnown, segment.firstSeq) }
        let marker = RepairMarker(
            firstLostSeq: min(pending?.firstLostSeq ?? .max, keptLastSeq + 1),
            lastLostSeq: resume.map { $0.seq - 1 } ?? max(pending?.lastLostSeq ?? 0, lastKnown, keptLastSeq),
            reason: pending?.reason ?? problem, resume: resume)
        try writeFile(named: RepairMarker.name, marker.bytes)
        var setAside: [String] = []
        var rewritten: [String] = []
        var toRewrite: [(firstSeq: Int64, name: String)] = []
        // Later segments first, then the cut segment replaced: a crash in between leaves a log that `repair` cuts
        // again; a crash after the cut leaves an intact log and the `repairing` file, whose record the next
        // `repair` appends (docs/log-format.md §5.7).
        for (index, segment) in segments.enumerated() {
            let nextFirstSeq = index + 1 < segments.count ? segments[index + 1].firstSeq : nil
            if segment.firstSeq > keptLastSeq {
                setAside.append(try moveAside(segment.name))
            } else if segment.name == damage.location?.segment || segment.name == kept.warning?.location.segment
                || (nextFirstSeq.map { $0 - 1 > keptLastSeq } ?? false)
            {
                toRewrite.append(segment)
            }
        }
        for segment in toRewrite {
            let lines = try keptLines(of: segment, upTo: keptLastSeq)
            let aside = try asideName(segment.name + ".damaged")
            try writeFile(named: aside, try contents(of: segment.name))
            setAside.append(aside)
            try replaceSealed(segment, lines: lines)
            rewritten.append(segment.name)
        }
        do {
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw LogError.io(error, "sync the log directory", path: path)
        }
        // The `checked` and `tail` files described the log before the cut.
        for name in [CheckedSegments.name, TailFile.name] { try? fileSystem.removeFile(directory.path(name)) }
        return LogRepair(
            firstLostSeq: marker.firstLostSeq, lastLostSeq: marker.lastLostSeq, reason: marker.reason,
            setAside: setAside, rewritten: rewritten, resume: resume)
    }

    /// The last `seq` of the batch-whole prefix a reader reads from the log's start (its chain checked).
    private func keptPrefix() throws(LogError) -> (lastSeq: Int64, lastEvent: RecordedEvent?, warning: LogProblem?) {
        let reader = try LogReader(path: path, options: configuration.readOptions)
        let cursor = try reader.batches()
        var last: RecordedEvent?
        // The reader stops before the first problem (its warning says which): what it handed out is kept.
        while let batch = try cursor.next() { last = batch.events.last }
        return (last?.seq ?? 0, last, cursor.warning)
    }

    /// The lines of a segment's data frames, up to the one of `seq` `lastSeq`.
    private func keptLines(
        of segment: (firstSeq: Int64, name: String), upTo lastSeq: Int64
    ) throws(LogError) -> BatchedLines {
        let segmentPath = directory.path(segment.name)
        let descriptor = try directory.openSegment(segment.name)
        defer { fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: fileSystem), chunkSize: configuration.readChunkSize,
            decompressor: decompressor)
        var lines = BatchedLines()
        var expected = segment.firstSeq
        scanning: while expected <= lastSeq {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read segment \(segment.name)", path: segmentPath)
            }
            guard case .data(_, _, _, let bytes) = frame,
                lines.append(
                    frame: bytes,
                    while: {
                        guard $0.seq == expected && expected <= lastSeq else { return false }
                        expected += 1
                        return true
                    })
            else { break scanning }
        }
        return lines
    }

    /// Replaces a segment by the sealed form of `lines` (or removes it when they are empty), through a
    /// temporary file and a rename.
    private func replaceSealed(
        _ segment: (firstSeq: Int64, name: String), lines: BatchedLines
    ) throws(LogError) {
        let segmentPath = directory.path(segment.name)
        guard !lines.content.isEmpty else {
            do {
                try fileSystem.removeFile(segmentPath)
            } catch {
                throw LogError.io(error, "remove segment \(segment.name)", path: segmentPath)
            }
            return
        }
        lastSeq = lines.lastSeq
        let frames = try recompress(
            lines.content, batchEnds: lines.batchEnds, firstSeq: segment.firstSeq, segment: segment.name)
        let temporaryPath = directory.path(segment.name + ".seal" + LogDirectory.temporarySuffix)
        do {
            fileSystem.close(try fileSystem.placeDurably(frames, at: temporaryPath, as: segmentPath, in: path))
        } catch {
            if !error.renamed { try? fileSystem.removeFile(temporaryPath) }
            throw LogError.io(error.error, "seal segment \(segment.name)", path: segmentPath)
        }
    }

    /// Renames a whole segment aside, byte for byte; returns its new name.
    private func moveAside(_ name: String) throws(LogError) -> String {
        let aside = try asideName(name + ".damaged")
        do {
            try fileSystem.rename(directory.path(name), to: directory.path(aside))
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw LogError.io(error, "move segment \(name) aside", path: directory.path(name))
        }
        return aside
    }
}
