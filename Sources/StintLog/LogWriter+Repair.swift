import StintCore

/// What ``LogWriter/openRepairing(at:configuration:)`` did to a damaged log (docs/log-format.md §5.7).
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
    /// - Throws: ``LogError/Code/damaged`` when not even the first event can be kept; ``LogError/Code/invalidInput``
    ///   for a device's log (format 2), whose events other devices may hold: repairing it is not supported;
    ///   whatever ``open(at:configuration:tail:)`` throws.
    public static func openRepairing(
        at path: String, configuration: LogConfiguration
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
                        rewritten: [])
                }
                // A `repairing` file that does not parse (edited by hand) says nothing to record: it only goes.
                if pending == nil { try cutter.finishRepair() }
            } catch  where error.code == .damaged {
                // A fresh writer's state for the cut: the failed check may have left some of it set.
                cutter.resetAfterFailedCheck()
                repair = try cutter.cut(after: error, pending: pending)
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

    private func resetAfterFailedCheck() {
        if let active { fileSystem.close(active.descriptor) }
        active = nil
        activeHasher = nil
        lastEvent = nil
        lastDigest = nil
        lastSeq = 0
        failure = nil
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
    private func cut(after damage: LogError, pending: RepairMarker?) throws(LogError) -> LogRepair {
        let kept = try keptPrefix()
        // The cut is where the reader stopped: its warning says why (the writer's error when it read to the end).
        let problem = kept.warning ?? (damage.cause as? LogProblem)
        guard kept.lastSeq >= 1 else {
            throw LogError(
                .damaged,
                "\(damage.message)\nNothing can be kept: the log's first event is damaged. Restore the log from a "
                    + "backup.", location: damage.location, lastGoodSeq: nil)
        }
        let segments = try directory.listing().segments
        let remembered = CheckedSegments.read(in: directory)
        var lastKnown = remembered?.entries.values.map(\.lastSeq).max() ?? 0
        if let warning = kept.warning {
            // The reader stopped before the end: at least the event where it stopped is lost.
            lastKnown = max(lastKnown, kept.lastSeq + 1, warning.location.seq ?? 0)
        }
        for segment in segments where segment.firstSeq > kept.lastSeq { lastKnown = max(lastKnown, segment.firstSeq) }
        let marker = RepairMarker(
            firstLostSeq: min(pending?.firstLostSeq ?? .max, kept.lastSeq + 1),
            lastLostSeq: max(pending?.lastLostSeq ?? 0, lastKnown, kept.lastSeq),
            reason: pending?.reason ?? problem?.description ?? damage.message)
        try writeFile(named: RepairMarker.name, marker.bytes)
        var setAside: [String] = []
        var rewritten: [String] = []
        var toRewrite: [(firstSeq: Int64, name: String)] = []
        // Later segments first, then the cut segment replaced: a crash in between leaves a log that `repair` cuts
        // again; a crash after the cut leaves an intact log and the `repairing` file, whose record the next
        // `repair` appends (docs/log-format.md §5.7).
        for (index, segment) in segments.enumerated() {
            let nextFirstSeq = index + 1 < segments.count ? segments[index + 1].firstSeq : nil
            if segment.firstSeq > kept.lastSeq {
                setAside.append(try moveAside(segment.name))
            } else if segment.name == damage.location?.segment || segment.name == kept.warning?.location.segment
                || (nextFirstSeq.map { $0 - 1 > kept.lastSeq } ?? false)
            {
                toRewrite.append(segment)
            }
        }
        for segment in toRewrite {
            let lines = try keptLines(of: segment, upTo: kept.lastSeq)
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
            setAside: setAside, rewritten: rewritten)
    }

    /// The last `seq` of the batch-whole prefix a reader reads from the log's start (its chain checked).
    private func keptPrefix() throws(LogError) -> (lastSeq: Int64, warning: LogProblem?) {
        let reader = try LogReader(path: path, options: configuration.readOptions)
        let cursor = try reader.batches()
        var lastSeq: Int64 = 0
        // The reader stops before the first problem (its warning says which): what it handed out is kept.
        while let batch = try cursor.next() { lastSeq = batch.lastSeq }
        return (lastSeq, cursor.warning)
    }

    /// The lines (each with its newline) of a segment's data frames, up to the one of `seq` `lastSeq`, and the
    /// offsets in them where each batch ends.
    private func keptLines(
        of segment: (firstSeq: Int64, name: String), upTo lastSeq: Int64
    ) throws(LogError) -> (content: [UInt8], batchEnds: [Int], lastSeq: Int64) {
        let segmentPath = directory.path(segment.name)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(segmentPath, .readOnly)
        } catch {
            throw LogError.io(error, "open segment \(segment.name)", path: segmentPath)
        }
        defer { fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: fileSystem), chunkSize: configuration.readChunkSize,
            decompressor: decompressor)
        var content: [UInt8] = []
        var batchEnds: [Int] = []
        var expected = segment.firstSeq
        var batch: Int64?
        scanning: while expected <= lastSeq {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read segment \(segment.name)", path: segmentPath)
            }
            guard case .data(_, _, _, let bytes) = frame else { break scanning }
            var start = 0
            for (index, byte) in bytes.enumerated() where byte == 0x0A {
                let line = Array(bytes[start..<index])
                start = index + 1
                guard let event = try? RecordedEvent(line: line), event.seq == expected else { break scanning }
                // A batch ends before an event that does not continue it (docs/log-format.md §5.2: `tx`).
                if !content.isEmpty && (event.tx == nil || event.tx != batch) { batchEnds.append(content.count) }
                batch = event.tx
                content += line
                content.append(0x0A)
                expected += 1
                if expected > lastSeq { break scanning }
            }
        }
        if !content.isEmpty { batchEnds.append(content.count) }
        return (content, batchEnds, expected - 1)
    }

    /// Replaces a segment by the sealed form of `lines` (or removes it when they are empty), through a
    /// temporary file and a rename.
    private func replaceSealed(
        _ segment: (firstSeq: Int64, name: String), lines: (content: [UInt8], batchEnds: [Int], lastSeq: Int64)
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
