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
        guard configuration.device != nil else {
            throw LogError(.invalidInput, "a mirror is the log of a device: give its device id")
        }
        return try create(at: path, configuration: configuration) { (writer) throws(LogError) in
            writer.hybridClock = HybridLogicalClock()
            try writer.appendRecorded(firstBatch)
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
        if let failure {
            throw LogError(
                .failStopped, "this writer stopped after an earlier failure (\(failure.message)); open the log again",
                cause: failure)
        }
        guard let first = events.first else {
            throw LogError(.invalidInput, "a batch must hold at least one event")
        }
        guard first.seq == lastSeq + 1 else {
            throw LogError(
                .invalidInput, "the batch starts at seq \(first.seq), but \(path) ends at seq \(lastSeq)")
        }
        var content: [UInt8] = []
        var digest = lastDigest
        var clock = hybridClock ?? HybridLogicalClock()
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
        try write(content, of: events, digest: digest!)
        hybridClock = clock
    }
}
