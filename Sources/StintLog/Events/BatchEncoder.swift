package import StintCore

/// How a batch of drafts becomes events and lines: the one place that assigns `seq`, `at`, `tx`, `clock`,
/// `device`, `hlc` and `prev` (log-format §2 and §3), used by the log writer and by every other store that keeps Stint's chain.
package struct BatchEncoder {
    /// A batch as it will be stored.
    package struct Encoded {
        /// The events, with their places in the log.
        package var events: [RecordedEvent]
        /// The lines of the events, each ending with `\n`.
        package var content: [UInt8]
        /// The SHA-256 of the last line: the head's hash after the batch.
        package var digest: SHA256Digest
    }

    /// The last event before the batch (nil for the first batch of a log).
    package var lastEvent: RecordedEvent?
    /// The SHA-256 of the last event's line (nil for the first batch of a log).
    package var lastDigest: SHA256Digest?

    package init(lastEvent: RecordedEvent?, lastDigest: SHA256Digest?) {
        self.lastEvent = lastEvent
        self.lastDigest = lastDigest
    }

    /// The events of a batch and their lines, with the hash chain carried on; checks that every line decodes
    /// back to the same bytes.
    ///
    /// The events get consecutive `seq` values after ``lastEvent``, `at` = `reading` (clamped to the previous
    /// event's `at` if the clock went back, with the raw reading kept in `clock`), `tx` = the first `seq` when
    /// there are two or more, and the `prev` links of the hash chain. With a `stamp` (log format 2), every event
    /// of the batch carries its `device` and `hlc`: one batch, one reading of the hybrid logical clock.
    ///
    /// - Throws: ``LogError/Code/invalidInput`` for an empty batch or a draft that cannot be stored as a valid
    ///   event; ``LogError/Code/tooLarge`` when the batch exceeds the 256 MiB a frame may hold.
    package func encode(
        _ drafts: [EventDraft], reading: Instant, stamp: (device: DeviceID, hlc: HLC)? = nil
    ) throws(LogError) -> Encoded {
        guard !drafts.isEmpty else {
            throw LogError(.invalidInput, "a batch must hold at least one event")
        }
        var at = reading
        var clock: Instant?
        if let previous = lastEvent?.at, reading < previous {
            at = previous
            clock = reading
        }
        let firstSeq = (lastEvent?.seq ?? 0) + 1
        let tx: Int64? = drafts.count > 1 ? firstSeq : nil
        var prev = lastDigest?.link ?? RecordedEvent.genesisPrev
        var digest = lastDigest
        var content: [UInt8] = []
        var events: [RecordedEvent] = []
        events.reserveCapacity(drafts.count)
        for (index, draft) in drafts.enumerated() {
            let event = RecordedEvent(
                seq: firstSeq + Int64(index), at: at, type: draft.type, version: draft.version, tx: tx, clock: clock,
                device: stamp?.device, hlc: stamp?.hlc, prev: prev, data: draft.data)
            // Each line in a buffer of its own: a slice of `content` kept while `content` grows would make
            // every append copy the whole batch (quadratic for an import of 100 000 events).
            var line: [UInt8] = []
            line.reserveCapacity(256)
            event.appendLine(to: &line)
            do throws(EventLineError) {
                let decoded = try RecordedEvent(line: line)
                guard decoded.device == event.device, decoded.hlc == event.hlc else {
                    throw EventLineError("its device and hlc do not read back as written")
                }
                guard decoded.encodedLine().elementsEqual(line) else {
                    throw EventLineError("it does not encode to the same bytes after decoding")
                }
            } catch {
                throw LogError(
                    .invalidInput,
                    "event \(index + 1) of the batch (type \"\(draft.type)\") cannot be stored: \(error.reason); "
                        + "this is a bug in the command that made it", cause: error)
            }
            line.append(0x0A)
            let lineDigest = line.withUnsafeBytes { SHA256Digest(of: $0) }
            content.append(contentsOf: line)
            digest = lineDigest
            prev = lineDigest.link
            events.append(event)
        }
        guard Int64(content.count) <= FrameLimits.maximumContentSize else {
            throw LogError(
                .tooLarge,
                "the batch encodes to \(content.count) bytes, more than the 256 MiB a frame may hold; "
                    + "split it into smaller batches")
        }
        // `digest` is set: the batch is not empty.
        return Encoded(events: events, content: content, digest: digest!)
    }
}
