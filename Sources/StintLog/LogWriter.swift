public import StintCore

/// Appends batches of events to a log, holding the log's exclusive lock while it lives.
///
/// The writer assigns each event its `seq` (gapless), `at` (from the configured clock, never earlier than
/// the previous event's), `tx` (for batches of two or more events) and `prev` (the hash-chain link), writes
/// the batch as one zstd frame and returns only once it is on stable storage (`fdatasync`). When the active
/// segment reaches the seal threshold, the writer recompresses it into large frames with a seal index.
///
/// After any failed write or sync the writer stops accepting appends (``LogError/Code/failStopped``); open a
/// new writer to go on, which repairs what the failure left.
///
/// ```swift
/// let writer = try LogWriter.open(at: "work.stint", configuration: LogConfiguration(clock: { now }))
/// let events = try writer.append([EventDraft(type: "timer.started", version: 1, data: payload)])
/// ```
public final class LogWriter {
    /// The log directory.
    public let path: String
    let configuration: LogConfiguration
    let directory: LogDirectory
    var fileSystem: any LogFileSystem { configuration.fileSystem }

    /// The segment appends go to; nil when the next append starts a new segment.
    struct ActiveSegment {
        var name: String
        var firstSeq: Int64
        var descriptor: Int32
        /// The size of the file: where the next frame goes.
        var size: Int64
        /// Where the last frame starts, when known (for the `tail` file).
        var lastFrameOffset: Int64?
    }

    var lockDescriptor: Int32?
    var active: ActiveSegment?
    /// The `seq` of the last event in the log (0 while a log is being created).
    public internal(set) var lastSeq: Int64 = 0
    /// The last event in the log.
    public internal(set) var lastEvent: RecordedEvent?
    /// The SHA-256 of the last event's line, or nil before the first event.
    var lastDigest: SHA256Digest?
    /// The hybrid logical clock whose reading stamps each batch, with ``LogConfiguration/device``; nil for a
    /// writer of log format 1.
    var hybridClock: HybridLogicalClock?
    /// Why appends are refused, once a write or sync failed.
    var failure: LogError?
    /// What this writer checked of each segment, for the `checked` file (``CheckedSegments``).
    var checked = CheckedSegments()
    /// The `checked` file as this writer last read or wrote it (nil: none, or one that did not parse).
    var recordedChecked: CheckedSegments?
    /// The SHA-256 of the active segment's bytes as appended, while it covers the whole segment.
    var activeHasher: SHA256Hasher?
    /// The active segment's fingerprint, settled when this writer's check hashed it (see
    /// ``CheckedSegments/Entry/settled``): remembered while the segment keeps that size.
    var settledActive: (name: String, fingerprint: FileFingerprint)?
    /// The last segment's last `seq` and the digest of its last line, as the `checked` file vouched for them
    /// at opening: a tail from elsewhere (the read models) is taken only when its line is this one.
    var vouchedHead: (seq: Int64, digest: SHA256Digest)?
    /// The change time the lock file was given when this writer began reading segments to check them (see
    /// ``CheckedSegments/Entry/settled``); nil until needed, or when the file system cannot tell.
    var checkStartedAt: Int64??
    /// Set by ``openRepairing(at:configuration:keepsAfterGap:knownHeads:)``: a `repairing` file (``RepairMarker``) does not refuse the open.
    var finishesRepairs = false
    let compressor = ZstdCompressor(level: ZstdCompressor.activeLevel)
    let decompressor = ZstdDecompressor()

    init(path: String, configuration: LogConfiguration) {
        self.path = path
        self.configuration = configuration
        directory = LogDirectory(path: path, fileSystem: configuration.fileSystem)
    }

    deinit {
        close()
    }

    /// The head of the log: the last event's `seq` and the SHA-256 of its line.
    public var head: LogHead? {
        guard let lastDigest, lastSeq > 0 else { return nil }
        return LogHead(seq: lastSeq, hash: lastDigest.hex)
    }

    /// The last event and the head, when the writer knows both and they agree: the writer checked the end of
    /// the log when it opened and placed every event it appended since.
    public var lastWritten: (event: RecordedEvent, head: LogHead)? {
        guard let lastEvent, let head, head.seq == lastEvent.seq else { return nil }
        return (lastEvent, head)
    }

    /// Where the next frame goes while the last segment is active (its name and size: every byte before it
    /// was checked or written by this writer); nil when the log ends with a sealed segment or has none.
    public var activeEnd: (segment: String, size: Int64)? { active.map { ($0.name, $0.size) } }

    /// Whether an earlier failure stopped this writer (every append now throws ``LogError/Code/failStopped``).
    public var isFailStopped: Bool { failure != nil }

    /// Releases the lock and closes the files; later appends throw ``LogError/Code/failStopped``.
    public func close() {
        if let active {
            fileSystem.close(active.descriptor)
            self.active = nil
        }
        if let lockDescriptor {
            fileSystem.unlock(lockDescriptor)
            fileSystem.close(lockDescriptor)
            self.lockDescriptor = nil
            if failure == nil {
                failure = LogError(.failStopped, "the writer of \(path) was closed; open a new one to append")
            }
        }
    }

    /// Appends one batch: all the drafts become events together, or none does.
    ///
    /// The events get consecutive `seq` values after ``lastSeq``, one `at` read from the configured clock
    /// (clamped to the previous event's `at` if the clock went back, with the raw reading kept in `clock`),
    /// `tx` = the first `seq` when there are two or more, and the `prev` links of the hash chain; with
    /// ``LogConfiguration/device``, every event also carries the device and one new reading of the writer's
    /// hybrid logical clock, ticked with the clock's instant. The batch is written as one zstd frame and this
    /// returns after `fdatasync`.
    ///
    /// With `remote`, the reading of the newest event of other devices this log's replica holds (an ingestion
    /// batch, or any batch of a replica that holds other devices' events), the clock receives it first
    /// (``HybridLogicalClock/receive(_:now:)``), so that the batch sorts after every event it knows of
    /// (docs/decisions/0007 §3, §6.4). A writer without a device ignores it.
    ///
    /// - Returns: the events as recorded.
    /// - Throws: ``LogError/Code/invalidInput`` for an empty batch or a draft that cannot be stored as a
    ///   valid event; ``LogError/Code/tooLarge`` when the batch exceeds 256 MiB; ``LogError/Code/io`` when a
    ///   write or sync fails (the writer then refuses further appends); ``LogError/Code/failStopped`` after
    ///   such a failure or ``close()``.
    public func append(_ drafts: [EventDraft], receiving remote: HLC? = nil) throws(LogError) -> [RecordedEvent] {
        try append(drafts, receiving: remote, reading: configuration.clock())
    }

    /// ``append(_:receiving:)`` with the clock's reading given: a repair's record after its gap takes the `at` of
    /// the event before it, so that the kept events after it do not go back in time (docs/log-format.md §3).
    func append(
        _ drafts: [EventDraft], receiving remote: HLC?, reading: Instant
    ) throws(LogError) -> [RecordedEvent] {
        if let failure {
            throw LogError(
                .failStopped,
                failure.code == .failStopped
                    ? failure.message
                    : "this writer stopped after an earlier failure (\(failure.message)); open the log again to go on",
                cause: failure)
        }
        if let lastEvent, let resume = lastEvent.resumePoint {
            // The events a salvage kept after its gap must come next, not a new batch (docs/log-format.md §6.1).
            throw LogError(
                .damaged,
                "\(path) ends with the log.repaired of seq \(lastEvent.seq), which says the log resumes at seq "
                    + "\(resume.seq), but no event follows it: the events the repair kept are missing; run `stint "
                    + "repair` again", lastGoodSeq: lastEvent.seq)
        }
        var stamp: (device: DeviceID, hlc: HLC)?
        // Ticked on a copy, kept only once the batch is written.
        var clock = hybridClock
        if let device = configuration.device, var ticking = clock {
            do throws(SyncError) {
                let hlc =
                    if let remote { try ticking.receive(remote, now: reading) } else { try ticking.tick(now: reading) }
                stamp = (device, hlc)
                clock = ticking
            } catch {
                // Only at the end of year 9999 (docs/decisions/0007 §3).
                throw LogError(.invalidInput, "cannot stamp the batch: \(error.message)", cause: error)
            }
        }
        let encoded = try BatchEncoder(lastEvent: lastEvent, lastDigest: lastDigest)
            .encode(drafts, reading: reading, stamp: stamp)
        try write(encoded.content, of: encoded.events, digest: encoded.digest)
        hybridClock = clock
        return encoded.events
    }

    /// Writes a batch's lines as one frame, makes it the log's end, and seals the active segment when it is
    /// due.
    func write(_ content: [UInt8], of events: [RecordedEvent], digest: SHA256Digest) throws(LogError) {
        var frame: [UInt8] = []
        try compress(content, appendingTo: &frame)
        try writeFrames(
            frame, count: 1, lastFrameSize: frame.count, firstSeq: events[0].seq, last: events[events.count - 1],
            digest: digest)
    }

    /// Appends `content` compressed as one frame to `frames`.
    func compress(_ content: [UInt8], appendingTo frames: inout [UInt8]) throws(LogError) {
        try content.withBytes { (bytes) throws(LogError) in
            try compressor.compress(bytes, appendingTo: &frames)
        }
    }

    /// Writes `count` whole frames (the last of them `lastFrameSize` bytes) holding the batches from `firstSeq` to
    /// `last` (whose line hashes to `digest`) with one sync of their data, makes `last` the log's end, seals the
    /// active segment when it is due, and records the `tail` file (``LogConfiguration/keepsTailFile``).
    ///
    /// One frame is appended in place. Several frames go to a new segment, or rewrite the active one through a
    /// temporary file and a rename: appended in place, a power loss could keep a later frame and lose an earlier
    /// one (its sectors read back as zeros), which reads as damage before the tail rather than a torn tail.
    func writeFrames(
        _ frames: [UInt8], count: Int, lastFrameSize: Int, firstSeq: Int64, last: RecordedEvent, digest: SHA256Digest
    ) throws(LogError) {
        if active == nil {
            try startSegment(with: frames, firstSeq: firstSeq)
        } else if count > 1 {
            try rewriteActiveSegment(appending: frames)
        } else {
            try appendFrame(frames)
        }
        if let size = active?.size { active?.lastFrameOffset = size - Int64(lastFrameSize) }
        lastSeq = last.seq
        lastEvent = last
        lastDigest = digest
        if let active, active.size >= configuration.sealThreshold {
            do {
                try sealActiveSegment()
            } catch {
                failure = error
                configuration.onNotice(
                    LogNotice(
                        .sealFailed,
                        "sealing segment \(active.name) of \(path) failed after seq \(lastSeq) was written: "
                            + "\(error.message). The events are safe; the next writer seals the segment.",
                        location: LogLocation(segment: active.name)))
            }
        }
        recordTailFile()
        recordCheckedFile()
    }

    /// Appends whole frames to the active segment and syncs; on failure, truncates back and stops the writer.
    func appendFrame(_ frame: [UInt8]) throws(LogError) {
        guard var segment = active else { return }
        let segmentPath = directory.path(segment.name)
        do {
            try frame.withBytes { (bytes) throws(SystemCallError) in
                try fileSystem.write(segment.descriptor, bytes, at: segment.size)
            }
            try fileSystem.synchronize(segment.descriptor, dataOnly: true)
        } catch {
            activeHasher = nil
            // Put the file back as it was, so that it stays valid even if this process goes on living.
            try? fileSystem.truncate(segment.descriptor, to: segment.size)
            try? fileSystem.synchronize(segment.descriptor, dataOnly: false)
            throw stop(LogError.io(error, "append to segment \(segment.name)", path: segmentPath))
        }
        if activeHasher?.count == segment.size { frame.withUnsafeBytes { activeHasher?.add($0) } }
        segment.size += Int64(frame.count)
        active = segment
    }

    /// Replaces the active segment by a copy of it followed by `frames`: written to a temporary file, synced,
    /// renamed over the segment, and the directory synced. A crash leaves the segment as it was or with every
    /// frame. On failure the writer stops.
    func rewriteActiveSegment(appending frames: [UInt8]) throws(LogError) {
        guard var segment = active else { return }
        let segmentPath = directory.path(segment.name)
        let size = Int(segment.size)
        var readError: SystemCallError?
        // Read into a buffer with room for the frames too: appending them copies nothing.
        var bytes = [UInt8](unsafeUninitializedCapacity: size + frames.count) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            while count < size {
                do throws(SystemCallError) {
                    let read = try fileSystem.read(
                        segment.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[count..<size]),
                        at: Int64(count))
                    guard read > 0 else { break }
                    count += read
                } catch {
                    readError = error
                    break
                }
            }
        }
        if let readError {
            throw stop(LogError.io(readError, "read segment \(segment.name) to append to it", path: segmentPath))
        }
        guard bytes.count == size else {
            throw stop(
                LogError(
                    .damaged,
                    "segment \(segment.name) of \(path) became shorter while this writer held the lock; run "
                        + "`stint verify`", location: LogLocation(segment: segment.name)))
        }
        // The bytes read back must be those this writer checked or wrote: a copy of changed bytes would be
        // acknowledged where a cold read stops.
        guard let hasher = activeHasher, hasher.count == segment.size,
            hasher.digest == bytes.withUnsafeBytes({ SHA256Digest(of: $0) })
        else {
            throw stop(
                LogError(
                    .damaged,
                    "segment \(segment.name) of \(path) changed while this writer held the lock; run `stint verify`",
                    location: LogLocation(segment: segment.name)))
        }
        bytes.append(contentsOf: frames)
        let temporaryPath = directory.path(segment.name + ".append" + LogDirectory.temporarySuffix)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.placeDurably(bytes, at: temporaryPath, as: segmentPath, in: path)
        } catch {
            if !error.renamed { try? fileSystem.removeFile(temporaryPath) }
            throw stop(LogError.io(error.error, "append to segment \(segment.name)", path: segmentPath))
        }
        fileSystem.close(segment.descriptor)
        segment.descriptor = descriptor
        segment.size += Int64(frames.count)
        active = segment
        activeHasher?.add(frames)
    }

    /// Creates the segment that starts with `firstSeq`, holding `frame` (one or more whole frames): written to a
    /// temporary file, synced, renamed into place, and the directory synced.
    func startSegment(with frame: [UInt8], firstSeq: Int64) throws(LogError) {
        let name = LogDirectory.segmentName(firstSeq: firstSeq)
        let temporaryPath = directory.path(name + ".new" + LogDirectory.temporarySuffix)
        let segmentPath = directory.path(name)
        do {
            let opened = try fileSystem.placeDurably(frame, at: temporaryPath, as: segmentPath, in: path)
            active = ActiveSegment(name: name, firstSeq: firstSeq, descriptor: opened, size: Int64(frame.count))
            var hasher = SHA256Hasher()
            hasher.add(frame)
            activeHasher = hasher
        } catch {
            // Undo: the batch was not acknowledged, so it must not appear.
            let placed = error.renamed ? segmentPath : temporaryPath
            try? fileSystem.removeFile(placed)
            try? fileSystem.synchronizeDirectory(path)
            throw stop(LogError.io(error.error, "create segment \(name)", path: placed))
        }
    }

    /// Records a failure that stops the writer and returns it.
    func stop(_ error: LogError) -> LogError {
        if failure == nil { failure = error }
        return error
    }
}
