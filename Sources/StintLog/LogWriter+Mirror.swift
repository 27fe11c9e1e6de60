import Glibc
public import StintCore

extension LogWriter {
    /// Creates the mirror of another device's log (docs/decisions/0007 §1.2, §6.2): a log directory of format 2
    /// whose first batch is `firstBatch`, that device's first batch as ingestion read it, kept byte for byte.
    ///
    /// `configuration.device` must be the device whose log this mirrors.
    ///
    /// - Throws: as ``create(at:settingsEvent:configuration:receiving:)``; ``LogError/Code/invalidInput``
    ///   for a batch that does not start that device's log.
    public static func createMirror(
        at path: String, firstBatch: [RecordedEvent], configuration: LogConfiguration
    ) throws(LogError) -> LogWriter {
        try createMirror(at: path, first: LogBatch(events: firstBatch), configuration: configuration)
    }

    /// Creates the mirror of another device's log as ``createMirror(at:firstBatch:configuration:)`` does, its
    /// first batch as read (its frame taken as ``appendRecorded(read:sealedCopies:)`` takes one).
    package static func createMirror(
        at path: String, first: LogBatch, configuration: LogConfiguration
    ) throws(LogError) -> LogWriter {
        guard configuration.device != nil else {
            throw LogError(.invalidInput, "a mirror is the log of a device: give its device id")
        }
        return try create(at: path, configuration: configuration) { (writer) throws(LogError) in
            writer.hybridClock = HybridLogicalClock()
            try writer.appendRecorded(read: [first])
        }
    }

    /// Appends one batch another device recorded, as it recorded it: the same `seq`, `at`, `hlc`, `prev` and
    /// lines (each event is encoded canonically, so the events must have been read from canonical lines,
    /// ``LogReader/Options/checksCanonical``). The batch must continue this log: its first `seq` follows
    /// ``lastSeq`` and each `prev` links to the line before. Written as one frame and synced like
    /// ``append(_:receiving:)``.
    ///
    /// - Throws: ``LogError/Code/invalidInput`` for an empty batch, one that does not continue the log, or
    ///   an event stamped by another device than the writer's; the errors of ``append(_:receiving:)``
    ///   otherwise.
    public func appendRecorded(_ events: [RecordedEvent]) throws(LogError) {
        try appendRecorded(batches: [events])
    }

    /// Appends batches another device recorded, in order, each as ``appendRecorded(_:)`` appends it (one frame
    /// per batch, so the log holds the frames that device wrote), but synced together: the frames bound for
    /// one segment are written at once and synced once, so a run of batches costs one `fdatasync` (one more
    /// where a segment is sealed) instead of one per batch. Returns once every batch is on stable storage.
    ///
    /// Every batch is checked before anything is written: one that does not continue the batch before it
    /// refuses them all. A crash before this returns leaves the log a prefix of the batches (the next writer
    /// sets a torn tail aside, as for any append), so a caller that records what it appended only after this
    /// returns never points at bytes that are not on stable storage.
    ///
    /// With `sealed`, which gives the bytes of a segment of that name of the device's own log when the caller
    /// has them (the sync folder's copy) and it is sealed there, a segment the batches complete is placed as those
    /// bytes, after checking that they are exactly it sealed (``placeSealedCopy(of:sealed:)``), instead of being
    /// sealed again: cheaper, and the mirror then holds the device's segment byte for byte. Bytes that are not
    /// are ignored.
    ///
    /// - Throws: as ``appendRecorded(_:)``, for the first batch refused.
    public func appendRecorded(
        batches: [[RecordedEvent]], sealedCopies sealed: (_ segment: String) -> [UInt8]? = { _ in nil }
    ) throws(LogError) {
        try appendRecorded(read: batches.map { LogBatch(events: $0) }, sealedCopies: sealed)
    }

    /// Appends batches another device recorded as ``appendRecorded(batches:sealedCopies:)`` does, taking the
    /// frame a batch was read from (``LogBatch/sourceFrame``) instead of compressing the batch again when that
    /// frame holds exactly the lines written for it (``takesFrame(_:holding:)``): the mirror then holds the
    /// device's frames byte for byte, at whatever level they were compressed, and the frame costs a
    /// decompression instead of a compression. A frame that does not is ignored: the batch is compressed.
    ///
    /// - Throws: as ``appendRecorded(_:)``, for the first batch refused.
    package func appendRecorded(
        read batches: [LogBatch], sealedCopies sealed: (_ segment: String) -> [UInt8]? = { _ in nil }
    ) throws(LogError) {
        try refuseIfStopped()
        var encoded: [RecordedBatch] = []
        var digest = lastDigest
        var clock = hybridClock ?? HybridLogicalClock()
        for batch in batches {
            let events = batch.events
            let content = try encodeRecorded(
                events, after: encoded.last?.last.seq ?? lastSeq, digest: &digest, clock: &clock)
            encoded.append(
                RecordedBatch(
                    content: content, firstSeq: events[0].seq, last: events[events.count - 1], digest: digest!,
                    clock: clock, sourceFrame: batch.sourceFrame))
        }
        var rest = encoded[...]
        while !rest.isEmpty {
            let taken = try placeSealedCopy(of: rest, sealed: sealed)
            if taken == 0 { break }
            rest = rest.dropFirst(taken)
        }
        var frames: [(bytes: [UInt8], firstSeq: Int64, last: RecordedEvent, digest: SHA256Digest)] = []
        for batch in rest {
            var frame: [UInt8] = []
            if let source = batch.sourceFrame, takesFrame(source, holding: batch.content) {
                frame = source
            } else {
                try compress(batch.content, appendingTo: &frame)
            }
            frames.append((frame, batch.firstSeq, batch.last, batch.digest))
        }
        var pending: [UInt8] = []
        var pendingCount = 0
        var pendingFirstSeq: Int64 = 0
        for (index, frame) in frames.enumerated() {
            if pending.isEmpty {
                // A seal that failed after the frames before were written stops the writer.
                try refuseIfStopped()
                pendingFirstSeq = frame.firstSeq
            }
            pending.append(contentsOf: frame.bytes)
            pendingCount += 1
            // Written where the segment becomes due for sealing (as batch by batch), and at the end.
            if index == frames.count - 1 || (active?.size ?? 0) + Int64(pending.count) >= configuration.sealThreshold {
                try writeFrames(
                    pending, count: pendingCount, lastFrameSize: frame.bytes.count, firstSeq: pendingFirstSeq,
                    last: frame.last, digest: frame.digest)
                pending.removeAll(keepingCapacity: true)
                pendingCount = 0
            }
        }
        if let last = encoded.last { hybridClock = last.clock }
    }

    /// A recorded batch checked to continue the log, its lines encoded.
    struct RecordedBatch {
        var content: [UInt8]
        var firstSeq: Int64
        var last: RecordedEvent
        /// The SHA-256 of the batch's last line.
        var digest: SHA256Digest
        /// The writer's clock once it has received the batch's readings.
        var clock: HybridLogicalClock
        /// The frame the batch was read from, when the reader kept it (``LogBatch/sourceFrame``).
        var sourceFrame: [UInt8]? = nil
    }

    /// Whether `frame` is one whole data frame of the kind this writer writes (a content checksum, the content
    /// size declared) that decompresses to `content`, so that appending it writes exactly the lines `content`
    /// holds. Checked here, with the writer's own decompressor, rather than trusted from the reader that kept it:
    /// the bytes appended are the bytes checked (docs/decisions/0008).
    func takesFrame(_ frame: [UInt8], holding content: [UInt8]) -> Bool {
        frame.withUnsafeBytes { bytes in
            guard case .data(let header, let size) = FrameProbe(bytes), size == bytes.count,
                SegmentLayout.isSegmentFrame(header),
                header.contentSize == Int64(content.count),
                let decompressed = try? decompressor.decompress(bytes, header: header)
            else { return false }
            return content.withUnsafeBytes { expected in
                expected.count == decompressed.count
                    && (expected.count == 0
                        || memcmp(expected.baseAddress!, decompressed.baseAddress!, expected.count) == 0)
            }
        }
    }

    /// The lines of a recorded batch that continues the log after `seq` and the line hashing to `digest`, the
    /// clock received each event's reading; `digest` becomes the hash of the batch's last line.
    func encodeRecorded(
        _ events: [RecordedEvent], after seq: Int64, digest: inout SHA256Digest?, clock: inout HybridLogicalClock
    ) throws(LogError) -> [UInt8] {
        guard let first = events.first else {
            throw LogError(.invalidInput, "a batch must hold at least one event")
        }
        guard first.seq == seq + 1 else {
            throw LogError(.invalidInput, "the batch starts at seq \(first.seq), but \(path) ends at seq \(seq)")
        }
        var content: [UInt8] = []
        for (index, event) in events.enumerated() {
            guard event.seq == first.seq + Int64(index) else {
                throw LogError(
                    .invalidInput, "the batch skips from seq \(first.seq + Int64(index) - 1) to \(event.seq)")
            }
            guard event.prev == (digest?.link ?? RecordedEvent.genesisPrev) else {
                throw LogError(.invalidInput, "event \(event.seq) does not link to the line before it in \(path)")
            }
            if let device = event.device, device != configuration.device {
                throw LogError(
                    .invalidInput,
                    "event \(event.seq) was written by device \(device), not by \(configuration.device?.description ?? "none")"
                )
            }
            if let hlc = event.hlc { clock = HybridLogicalClock(last: max(clock.last, hlc)) }
            var line = event.encodedLine()
            line.append(0x0A)
            digest = SHA256Digest(of: line)
            content.append(contentsOf: line)
        }
        return content
    }

    /// Throws ``LogError/Code/failStopped`` once a failure or ``close()`` stopped the writer.
    private func refuseIfStopped() throws(LogError) {
        if let failure {
            throw LogError(
                .failStopped, "this writer stopped after an earlier failure (\(failure.message)); open the log again",
                cause: failure)
        }
    }
}
