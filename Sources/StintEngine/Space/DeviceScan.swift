public import StintCore
@_spi(FaultInjection) public import StintLog

/// What the sync folder holds of another device, compared with this replica's mirror of it
/// (docs/decisions/0007 §6.2, §6.3): what ingestion would accept, what has not arrived yet, and whether the
/// folder's copy is behind or forked. Made by reading only; ``MergedStore/ingest()`` writes what it accepts.
public struct DeviceScan: Hashable, Sendable {
    /// The device.
    public var device: DeviceID
    /// The head of the mirror before ingestion (nil for a device not ingested yet).
    public var mirrorHead: LogHead?
    /// The batches after the mirror's head that ingestion accepts: whole, checksummed, canonical, continuing
    /// the chain.
    public var accepted: [LogBatch] = []
    /// Where reading the folder's copy stopped before its end, "not arrived yet" (a torn or missing file, a
    /// file that cannot be opened, a frame that does not check) or an event of a type this build does not
    /// know (written by a newer Stint): what, and in which file and at which offset.
    public var waiting: String?
    /// How many events the folder's copy lacks that the mirror holds (a stale copy the sync tool delivered):
    /// not an error, nothing is lost.
    public var behindBy: Int64?
    /// The first `seq` at which the folder's copy holds other bytes than the mirror: a fork (§6.3).
    public var forkedAt: Int64?

    /// The number of events ingestion would add.
    public var acceptedEvents: Int { accepted.reduce(0) { $0 + $1.events.count } }

    /// The head after the accepted batches (the mirror's head when none).
    public var headAfter: LogHead? { accepted.last.map { LogHead(of: $0.events[$0.events.count - 1]) } ?? mirrorHead }
}

extension Space {
    /// Compares the folder's copy of `device`'s log with the mirror, reading the copy from the mirror's head.
    func scan(_ device: DeviceID) throws(StintError) -> DeviceScan {
        let mirror = try mirrorReader(of: device)
        let mirrorHead: LogHead?
        do {
            mirrorHead = try mirror?.head()
        } catch {
            throw StintError(error)
        }
        return try scan(device, mirrorHead: mirrorHead)
    }

    /// How the last segment of the folder's copy of `device`'s log compares with the mirror's, byte for byte.
    func compareWithMirror(_ device: DeviceID) -> LastSegmentComparison {
        LastSegmentComparison.of(mirrorPath(of: device), in: folderPath(of: device), fileSystem: options.fileSystem)
    }

    /// Compares the folder's copy of `device`'s log with the mirror whose head is `mirrorHead` (nil: no mirror
    /// yet) and whose last event is `mirrorLast` (when known), as the mirror's writer knows them, reading the copy
    /// from there. With `keepingFrames`, an accepted batch read from a frame of its own carries that frame's bytes
    /// (``LogBatch/sourceFrame``), for the mirror's writer to take instead of compressing the batch again.
    func scan(
        _ device: DeviceID, mirrorHead: LogHead?, mirrorLast: RecordedEvent? = nil, keepingFrames: Bool = false
    ) throws(StintError) -> DeviceScan {
        var scan = DeviceScan(device: device, mirrorHead: mirrorHead)
        // Compared byte for byte with the mirror's last segment, found without decompressing: the same (a device
        // that wrote nothing since the last ingestion: the copy holds the mirror's head and nothing after it), or
        // its start (the device appended to that segment: the new frames are read from where the mirror's end).
        var resume: (segment: String, offset: Int64)?
        if mirrorHead != nil {
            switch compareWithMirror(device) {
            case .same:
                return scan
            case .prefix(let segment, let length, let wholeLength) where length < wholeLength:
                resume = (segment, length)
            default:
                break
            }
        }
        let mirror = try mirrorReader(of: device)
        var readOptions = options.readOptions
        readOptions.checksCanonical = true
        readOptions.keepsFrames = keepingFrames
        readOptions.workers = 1
        let path = folderPath(of: device)
        let known = mirrorHead?.seq ?? 0
        var checkedKnown = known == 0
        var source: LogReader?
        /// Whether the copy ends before the mirror (found only when reading it from `known` did not reach
        /// `known`, which saves reading its end in the usual case): behind, forked, or nothing readable yet.
        func endsBeforeMirror() throws(LogError) -> Bool {
            guard let source else { return false }
            let last = try source.lastSeq()
            guard last < known else { return false }
            if last > 0, let theirs = try source.head(at: last) {
                if try theirs != mirror?.head(at: last) {
                    scan.forkedAt = try firstDifference(source, mirror!, upTo: last)
                } else {
                    scan.behindBy = known - last
                }
            } else {
                scan.waiting = "\(path) holds no readable event yet"
            }
            return true
        }
        do throws(LogError) {
            let opened = try LogReader(path: path, options: readOptions)
            source = opened
            let cursor: LogBatchCursor
            if let resume, let mirrorHead, let mirrorLast, mirrorLast.seq == mirrorHead.seq {
                // The copy holds the mirror's bytes up to there: its head is the mirror's.
                checkedKnown = true
                cursor = try opened.batches(
                    resumingAfter: mirrorLast, head: mirrorHead, segment: resume.segment, offset: resume.offset)
            } else {
                cursor = try opened.batches(from: max(known, 1), recordingHeadAt: known)
            }
            while let batch = try cursor.next() {
                if !checkedKnown {
                    checkedKnown = true
                    guard cursor.recordedHead == mirrorHead, batch.lastSeq == known else {
                        scan.forkedAt = try firstDifference(opened, mirror!, upTo: known)
                        return scan
                    }
                    continue
                }
                if let stranger = batch.events.first(where: { $0.device != nil && $0.device != device }) {
                    scan.waiting =
                        "event \(stranger.seq) in \(path) was written by device \(stranger.device!), not by \(device); "
                        + "that directory holds another device's events"
                    return scan
                }
                if let unknown = batch.events.first(where: { EventType(rawValue: $0.type) == nil }) {
                    scan.waiting =
                        "event \(unknown.seq) in \(path) is of type \(unknown.type), which this Stint does not know: "
                        + "it was written by a newer Stint; upgrade to ingest it"
                    return scan
                }
                scan.accepted.append(batch)
            }
            if !checkedKnown, try endsBeforeMirror() { return scan }
            if let warning = cursor.warning {
                scan.waiting = warning.description
            } else if let tail = cursor.incompleteTail {
                scan.waiting =
                    "\(path): segment \(tail.segment ?? "?") ends inside a frame at offset \(tail.offset ?? 0)"
                    + (tail.seq.map { " (seq \($0) on)" } ?? "") + ": not arrived yet"
            } else if !checkedKnown {
                scan.waiting = "\(path) ends inside the batch that ends at seq \(known)"
            }
        } catch {
            if !checkedKnown, (try? endsBeforeMirror()) == true { return scan }
            scan.accepted = []
            scan.waiting = error.message
        }
        return scan
    }

    /// The reader of `device`'s mirror; nil when the replica has none yet.
    func mirrorReader(of device: DeviceID) throws(StintError) -> LogReader? {
        let path = mirrorPath(of: device)
        do {
            // A mirror whose creation a crash interrupted has no `format` yet: it holds nothing, and the next
            // ingestion creates it again (LogWriter's creation completes such a directory).
            guard try options.fileSystem.kind(of: Space.path(path, "format")) == .regularFile else { return nil }
            return try LogReader(path: path, options: options.readOptions)
        } catch let error as LogError {
            throw StintError(error)
        } catch {
            throw StintError(.refused, "cannot open the mirror \(path): \(error)")
        }
    }

    /// The first `seq` up to `limit` whose event differs between two logs of one device (`limit` when the
    /// events read alike, which only a difference in bytes the reader does not decode can cause).
    func firstDifference(_ one: LogReader, _ other: LogReader, upTo limit: Int64) throws(LogError) -> Int64 {
        let first = try one.events()
        let second = try other.events()
        while let event = try first.next(), event.seq <= limit {
            guard let theirs = try second.next(), theirs == event else { return event.seq }
        }
        return min(limit, first.lastSeq + 1)
    }
}
