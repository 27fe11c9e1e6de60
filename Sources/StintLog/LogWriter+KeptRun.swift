import StintCore

/// The events a salvage keeps after its gap (docs/log-format.md §3 "The one gap", §5.7; decision 0008 step
/// 2b): found by ``SalvageScan``, written as sealed segments under `<segment>.kept` names (which readers and
/// writers ignore) before the cut changes anything, and renamed into place after the `log.repaired` that names
/// their resume point.
extension LogWriter {
    /// What reads after the kept prefix (which ends at `seq` `after`), with the known heads: the segment ends the
    /// `checked` file remembers and the caller's (the read models' head, for one); and the last `seq` the
    /// `checked` file remembers.
    func eventsAfterPrefix(
        _ after: Int64, segments: [(firstSeq: Int64, name: String)], remembered: CheckedSegments?, heads: [LogHead]
    ) throws(LogError) -> (scan: SalvageScan, lastRemembered: Int64) {
        var known: [Int64: SHA256Digest] = [:]
        for entry in remembered?.entries.values ?? [:].values { known[entry.lastSeq] = entry.lastLineDigest }
        for head in heads { known[head.seq] = SHA256Digest(hex: head.hash) ?? known[head.seq] }
        // The segments that may hold events after the prefix: the last one, and every one the next of which
        // starts after the event after the prefix.
        let scanned = segments.indices.filter { $0 + 1 == segments.count || segments[$0 + 1].firstSeq > after + 1 }
            .map { segments[$0].name }
        let scan = try SalvageScan(
            segments: scanned, in: directory, after: after, heads: known, fileSystem: fileSystem,
            decompressor: decompressor, chunkSize: configuration.readChunkSize)
        return (scan, remembered?.lastSeq ?? 0)
    }

    /// Writes the run's events as sealed segments named `<segment>.kept`, one per segment they were in (the
    /// first named by the run's first `seq`), each synced: their lines' bytes as they were, only their frames
    /// new. Returns the names written.
    func writeKeptSegments(_ run: SalvageScan.Run) throws(LogError) -> [String] {
        var groups: [(segment: String, offsets: [Int64])] = []
        for place in run.frames {
            if groups.last?.segment == place.segment {
                groups[groups.count - 1].offsets.append(place.offset)
            } else {
                groups.append((place.segment, [place.offset]))
            }
        }
        var names: [String] = []
        let lastSeqBefore = lastSeq
        defer { lastSeq = lastSeqBefore }
        for group in groups {
            let lines = try lines(ofFrames: group.offsets, in: group.segment)
            guard let firstSeq = lines.firstSeq else { continue }
            lastSeq = lines.lastSeq
            let name = LogDirectory.segmentName(firstSeq: firstSeq)
            let frames = try recompress(lines.content, batchEnds: lines.batchEnds, firstSeq: firstSeq, segment: name)
            try writeFile(named: name + LogDirectory.keptSuffix, frames)
            names.append(name + LogDirectory.keptSuffix)
        }
        return names
    }

    /// Puts the kept segments in place after the `log.repaired` that names their resume point: seals the
    /// record's segment, renames each `<segment>.kept` to its segment name in `seq` order, syncs the directory,
    /// and opens the log again (still under the lock). Does nothing when there is none left to place (a repair
    /// interrupted after placing them all).
    public func placeKeptSegments() throws(LogError) {
        let names = try directory.listing().keptSegments
        guard !names.isEmpty else { return }
        if active != nil { try sealActiveSegment() }
        do {
            for name in names {
                try fileSystem.rename(
                    directory.path(name), to: directory.path(String(name.dropLast(LogDirectory.keptSuffix.count))))
            }
            try fileSystem.synchronizeDirectory(path)
        } catch {
            throw stop(LogError.io(error, "put the kept segments in place", path: path))
        }
        for name in [CheckedSegments.name, TailFile.name] { try? fileSystem.removeFile(directory.path(name)) }
        let format = try directory.checkFormat()
        resetAfterFailedCheck()
        try openLocked(format: format, tail: { nil })
    }

    /// Removes the kept segments a repair interrupted before it wrote its `repairing` file left: nothing
    /// records them, and the new repair writes its own.
    func removeKeptSegments() throws(LogError) {
        for name in try directory.listing().keptSegments {
            do {
                try fileSystem.removeFile(directory.path(name))
            } catch {
                throw LogError.io(error, "remove \(name)", path: directory.path(name))
            }
        }
    }

    /// The lines of the data frames at `offsets` of a segment.
    private func lines(ofFrames offsets: [Int64], in segment: String) throws(LogError) -> BatchedLines {
        let descriptor = try directory.openSegment(segment)
        defer { fileSystem.close(descriptor) }
        var lines = BatchedLines()
        for offset in offsets {
            let scanner = FrameScanner(
                source: .file(descriptor: descriptor, fileSystem: fileSystem), startingAt: offset,
                chunkSize: configuration.readChunkSize, decompressor: decompressor)
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read segment \(segment)", path: directory.path(segment))
            }
            guard case .data(_, _, _, let bytes) = frame, lines.append(frame: bytes, while: { _ in true }) else {
                throw LogError(
                    .damaged, "the frame at offset \(offset) of \(segment) no longer reads: run `stint repair` again",
                    location: LogLocation(segment: segment, offset: offset), lastGoodSeq: nil)
            }
        }
        return lines
    }
}
