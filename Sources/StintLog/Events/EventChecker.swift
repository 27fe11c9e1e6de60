import Glibc
import StintCore

/// What an ``EventChecker`` checks besides what every reader checks (lines decode, `seq` continuity,
/// `at` order, whole batches).
struct CheckOptions {
    /// Check each `prev` against the SHA-256 of the line before it.
    var checksChain = true
    /// Check that each line is the canonical encoding of the event it decodes to.
    var checksCanonical = false
    /// Stop at the first problem, completing no batch from there on (readers and writers); verification
    /// goes on to find every problem.
    var stopsAtFirstProblem = true
    /// Remember the digest of the line of this `seq` (for heads in the middle of a log).
    var digestOfSeq: Int64?
    /// The version in the log directory's `format` file (1 or 2); nil for a file or stream, whose format is
    /// not known. Format 1 refuses lines carrying `device` and `hlc` (``LogProblem/Kind/unexpectedStamp``).
    var directoryFormat: Int?
    /// A caller's per-event check, given the event and whether it follows the event last given to it (see
    /// ``LogReader/EventValidator``); its message becomes a ``LogProblem/Kind/rejectedEvent`` problem.
    var validator: LogReader.EventValidator?
}

/// The previous line's link, as far as the checker knows it.
enum ChainLink {
    /// Nothing is known (reading started in the middle of a log or file).
    case unknown
    /// The next event must be the first of the log, with `prev` = 32 zeros.
    case genesis
    /// The SHA-256 of the previous line including its newline.
    case line(SHA256Digest)
    /// The `prev` the next event must have: the resume point of the `log.repaired` before it, after the gap a
    /// salvage left (docs/log-format.md §6.1).
    case resumed(String)

    var digest: SHA256Digest? {
        if case .line(let digest) = self { return digest }
        return nil
    }
}

/// Turns lines into events and batches while checking the rules of the format.
///
/// Lines are fed one frame at a time (``checkFrame(_:segment:offset:)``) or one line at a time for plain
/// files (``check(line:withNewline:lineNumber:lineOffset:)``, then ``endFrame()`` at the end); completed
/// batches accumulate in ``completed`` and problems in ``problems``. A batch is completed only when the line
/// after it starts a new batch or its frame ends, so callers never see part of one.
struct EventChecker {
    var options: CheckOptions
    /// The `seq` the next event must have; nil when not known.
    var nextSeq: Int64?
    /// The `at` of the previous event.
    var lastAt: Instant?
    /// The link the next event's `prev` must match.
    var link: ChainLink
    /// The last event decoded.
    private(set) var lastEvent: RecordedEvent?
    /// How many events were decoded.
    private(set) var eventCount: Int64 = 0
    /// The `device` of the first event seen carrying the pair, and that event's `seq`: every later event must
    /// carry this device (docs/decisions/0007 §2.2).
    private(set) var logDevice: (device: DeviceID, seq: Int64)?
    /// The `hlc` of the previous event, when it carried one.
    private(set) var lastHLC: HLC?
    /// The digest of ``lastEvent``'s line, when the chain is being computed.
    private(set) var lastEventDigest: SHA256Digest?
    /// The digest of the last line checked, an event or not, when the chain is being computed.
    private(set) var lastLineDigest: SHA256Digest?
    /// The `seq` of the `log.repaired` just checked when it named a resume point: ``nextSeq`` is that point, not
    /// the next `seq`.
    private(set) var gapAfter: Int64?
    /// The digest of the line of ``CheckOptions/digestOfSeq``, once seen.
    private(set) var recordedDigest: SHA256Digest?
    /// Batches completed since the caller last emptied this.
    var completed: [LogBatch] = []
    /// Problems found since the caller last emptied this.
    var problems: [LogProblem] = []
    /// Whether a problem stopped the checker (only with ``CheckOptions/stopsAtFirstProblem``).
    private(set) var halted = false
    /// The `seq` of the first event of the current frame.
    private(set) var frameFirstSeq: Int64?
    /// The batches completed in the current frame.
    private(set) var batchesInFrame = 0

    private var current: [RecordedEvent] = []
    private var currentTx: Int64?
    /// The `seq` of the event last given to the validator.
    private var validatedSeq: Int64?
    private var segment: String?
    private var frameOffset: Int64?

    init(options: CheckOptions, nextSeq: Int64?, link: ChainLink) {
        self.options = options
        self.nextSeq = nextSeq
        self.link = link
    }

    /// Goes on after `event`, whose line hashes to `digest`, as if it had just been checked: for reading from the
    /// frame after it in a log whose bytes up to there are known to be another, checked log's (a byte prefix).
    mutating func resume(after event: RecordedEvent, digest: SHA256Digest) {
        nextSeq = event.seq + 1
        gapAfter = nil
        lastAt = event.at
        if let hlc = event.hlc { lastHLC = hlc }
        if let device = event.device, logDevice == nil { logDevice = (device, event.seq) }
        link = .line(digest)
        lastEventDigest = digest
        lastLineDigest = digest
        lastEvent = event
        followResumePoint(of: event)
    }

    /// After a `log.repaired` that names a resume point, the next event must have its `seq` and `prev` instead of
    /// following the record: the one gap such a record declares (docs/log-format.md §6.1).
    private mutating func followResumePoint(of event: RecordedEvent) {
        guard let resume = event.resumePoint else { return }
        gapAfter = event.seq
        nextSeq = resume.seq
        if case .line = link { link = .resumed(resume.link) }
    }

    /// Starts a frame: batches may not continue across it.
    mutating func beginFrame(segment: String?, offset: Int64?) {
        self.segment = segment
        frameOffset = offset
        batchesInFrame = 0
        frameFirstSeq = nil
    }

    /// Checks every line of a frame's content (each terminated by a newline) and completes its batches.
    ///
    /// `prepared` holds the lines of `content` already decoded and hashed by a worker
    /// (``PreparedLine/lines(of:hashing:checkingCanonical:)``); the checks are the same with or without it.
    mutating func checkFrame(
        _ content: UnsafeRawBufferPointer, segment: String, offset: Int64, prepared: [PreparedLine]? = nil
    ) {
        beginFrame(segment: segment, offset: offset)
        guard let base = content.baseAddress, content.count > 0 else {
            report(.invalidLine, "the frame holds no lines", location(line: nil, seq: nextSeq))
            return
        }
        var position = 0
        var lineNumber = 1
        while position < content.count && !halted {
            guard let newline = memchr(base + position, 0x0A, content.count - position) else {
                report(
                    .invalidLine, "the frame's last line has no terminating newline",
                    location(line: lineNumber, seq: nextSeq))
                break
            }
            let end = base.distance(to: UnsafeRawPointer(newline))
            check(
                line: UnsafeRawBufferPointer(rebasing: content[position..<end]),
                withNewline: UnsafeRawBufferPointer(rebasing: content[position...end]), lineNumber: lineNumber,
                lineOffset: nil, prepared: prepared.flatMap { lineNumber <= $0.count ? $0[lineNumber - 1] : nil })
            position = end + 1
            lineNumber += 1
        }
        endFrame()
    }

    /// Checks one line: `line` without its newline, `withNewline` the bytes the hash covers. `lineOffset`
    /// is the line's position in a plain file (frames are located by ``beginFrame(segment:offset:)``).
    /// `prepared` is the line already decoded (and perhaps hashed) by a worker: it stands for what would
    /// otherwise be computed here from the bytes.
    mutating func check(
        line: UnsafeRawBufferPointer, withNewline: UnsafeRawBufferPointer, lineNumber: Int, lineOffset: Int64?,
        prepared: PreparedLine? = nil
    ) {
        guard !halted else { return }
        gapAfter = nil
        if let lineOffset { frameOffset = lineOffset }
        let event: RecordedEvent
        var isCanonical = prepared?.isCanonical
        let decoded: Result<RecordedEvent, EventLineError>
        if let prepared {
            decoded = prepared.event
        } else {
            let line = EventChecker.decode(line)
            decoded = line.event
            if line.isKnownCanonical { isCanonical = true }
        }
        switch decoded {
        case .success(let decoded):
            event = decoded
        case .failure(let error):
            let reason = line.isEmpty ? "the line is empty" : "the line is not a valid event: \(error)"
            report(.invalidLine, reason, location(line: lineNumber, seq: nextSeq))
            // Keep the chain going from the bytes as they are, so that the next link can still be checked.
            nextSeq = nextSeq.map { $0 + 1 }
            let digest = prepared?.digest ?? SHA256Digest(of: withNewline)
            link = .line(digest)
            lastLineDigest = digest
            return
        }
        eventCount += 1
        let here = location(line: lineNumber, seq: event.seq)
        if frameFirstSeq == nil { frameFirstSeq = event.seq }
        // Whether the event follows the one before it: its seq, its at and its batch (the envelope a fold trusts).
        var follows = nextSeq == event.seq
        if let expected = nextSeq, event.seq != expected {
            if event.seq > expected {
                let missing =
                    expected == event.seq - 1
                    ? "seq \(expected) is missing" : "seq \(expected)…\(event.seq - 1) are missing"
                report(
                    .seqDiscontinuity, "expected seq \(expected) but found seq \(event.seq): \(missing)",
                    location(line: lineNumber, seq: expected))
            } else {
                report(
                    .seqDiscontinuity,
                    "expected seq \(expected) but found seq \(event.seq) again: the event is repeated or out of order",
                    here)
            }
        }
        if options.checksChain { checkLink(event, here) }
        if let lastAt, event.at < lastAt {
            follows = false
            report(.timeWentBackwards, "at \(event.at) is earlier than the previous event's \(lastAt)", here)
        }
        if let clock = event.clock, clock >= event.at {
            report(
                .timeWentBackwards,
                "clock \(clock) is not earlier than at \(event.at); clock is written only when the reading was clamped",
                here)
        }
        // One test for a format-1 line in a log without stamps (no pair here, none before, format not 1).
        if event.hasStamp || logDevice != nil { checkStamp(event, here) }
        if options.checksCanonical && !(isCanonical ?? EventChecker.isCanonical(event, line: line)) {
            report(.nonCanonicalLine, "the line is not the canonical encoding of its event", here)
        }
        let place = placement(of: event)
        if let validator = options.validator {
            if case .stray = place { follows = false }
            if case .joining(let atDiffers) = place, atDiffers { follows = false }
            let refusal = validator(event, follows && validatedSeq == event.seq - 1)
            validatedSeq = event.seq
            if let refusal { report(.rejectedEvent, refusal, here) }
        }
        guard !halted else { return }
        group(event, place, here)
        nextSeq = event.seq + 1
        lastAt = event.at
        if let hlc = event.hlc { lastHLC = hlc }
        if options.checksChain || options.digestOfSeq == event.seq {
            let digest = prepared?.digest ?? SHA256Digest(of: withNewline)
            link = .line(digest)
            lastEventDigest = digest
            lastLineDigest = digest
            if options.digestOfSeq == event.seq { recordedDigest = digest }
        } else {
            link = .unknown
            lastEventDigest = nil
            lastLineDigest = nil
        }
        lastEvent = event
        followResumePoint(of: event)
    }

    /// The event of a line (without its newline) or why it is not one, and whether the line is known to be
    /// canonical (``RecordedEvent/decode(lineBytes:)``: the fast decoder read it).
    static func decode(
        _ line: UnsafeRawBufferPointer
    ) -> (event: Result<RecordedEvent, EventLineError>, isKnownCanonical: Bool) {
        do {
            let decoded = try RecordedEvent.decode(lineBytes: line.assumingMemoryBound(to: UInt8.self))
            return (.success(decoded.event), decoded.isKnownCanonical)
        } catch {
            return (.failure(error), false)
        }
    }

    /// Whether `line` (without its newline) is the canonical encoding of `event`, the event it decodes to,
    /// comparing the bytes of its encoding (for a line the fast decoder did not read).
    static func isCanonical(_ event: RecordedEvent, line: UnsafeRawBufferPointer) -> Bool {
        let encoded = event.encodedLine()
        guard encoded.count == line.count else { return false }
        return encoded.withUnsafeBytes { encoded in
            encoded.count == 0 || memcmp(encoded.baseAddress!, line.baseAddress!, encoded.count) == 0
        }
    }

    /// Log format 2's rules for `device` and `hlc` (docs/decisions/0007 §2.2, docs/log-format.md §2.3): none
    /// in a format-1 directory; from the first event carrying the pair on, every event carries it, with the
    /// same `device`, and an `hlc` not earlier than the previous event's. (One `hlc` per batch is checked
    /// with the batch, in ``group(_:_:_:)``.)
    private mutating func checkStamp(_ event: RecordedEvent, _ here: LogLocation) {
        guard let device = event.device, let hlc = event.hlc else {
            if let logDevice {
                report(
                    .envelopeDropped,
                    "the event carries no device and hlc, but seq \(logDevice.seq) and the events after it do: "
                        + "from a log's first event with the pair on, every event carries both", here)
            }
            return
        }
        if options.directoryFormat == 1 {
            report(
                .unexpectedStamp,
                "the event carries device and hlc, which a log of format 1 does not have (its format file says "
                    + "`stint-log 1`)", here)
        }
        if let logDevice {
            if device != logDevice.device {
                report(
                    .deviceMismatch,
                    "device \(device) is not the log's device \(logDevice.device) (that of seq \(logDevice.seq)): "
                        + "a log is written by one device", here)
            }
        } else {
            logDevice = (device, event.seq)
        }
        if let lastHLC, hlc < lastHLC {
            report(.hlcWentBackwards, "hlc \(hlc) is earlier than the previous event's \(lastHLC)", here)
        }
    }

    private mutating func checkLink(_ event: RecordedEvent, _ here: LogLocation) {
        switch link {
        case .unknown:
            if event.seq == 1 && event.prev != RecordedEvent.genesisPrev {
                report(.chainBroken, "the first event's prev is not 32 zeros", here)
            }
        case .genesis:
            if event.prev != RecordedEvent.genesisPrev {
                report(.chainBroken, "the first event's prev is not 32 zeros", here)
            }
        case .line(let digest):
            if !digest.isLink(event.prev) {
                let previous = lastEvent.map { "seq \($0.seq)" } ?? "the line before it"
                report(
                    .chainBroken,
                    "prev \(event.prev) is not the hash of \(previous) (\(digest.link)): the event before it was "
                        + "changed, removed or moved",
                    here)
            }
        case .resumed(let link):
            if event.prev != link {
                let record = lastEvent.map { "seq \($0.seq)" } ?? "the log.repaired before it"
                report(
                    .chainBroken,
                    "prev \(event.prev) is not the resume link \(link) that \(record) (log.repaired) names: the event "
                        + "after the gap was changed, removed or moved",
                    here)
            }
        }
    }

    /// Where an event goes among the batches (log-format §2: a batch is an event without `tx`, or the events
    /// whose `tx` is the `seq` of the first of them, consecutive and in one frame, with one `at`).
    private enum Placement {
        /// A batch of one event (no `tx`).
        case alone
        /// The first event of a batch of several (`tx` = its `seq`).
        case starting
        /// The next event of the batch in progress; `atDiffers` when its `at` is not the batch's.
        case joining(atDiffers: Bool)
        /// An event whose `tx` names a batch that is not in progress; `reason` says why.
        case stray(reason: String)
    }

    /// Where `event` goes, given the batch in progress; changes nothing.
    private func placement(of event: RecordedEvent) -> Placement {
        guard let tx = event.tx else { return .alone }
        if tx == event.seq { return .starting }
        if currentTx == tx, let first = current.first { return .joining(atDiffers: event.at != first.at) }
        return .stray(
            reason: current.isEmpty && batchesInFrame == 0
                ? "the event continues batch tx \(tx), which began in an earlier frame: a batch must be whole in one frame"
                : "the event has tx \(tx) but does not follow the events of that batch")
    }

    /// Places an event in its batch.
    private mutating func group(_ event: RecordedEvent, _ placement: Placement, _ here: LogLocation) {
        switch placement {
        case .alone:
            closeBatch()
            current = [event]
            currentTx = nil
            closeBatch()
        case .starting:
            closeBatch()
            current = [event]
            currentTx = event.tx
        case .joining(let atDiffers):
            if atDiffers, let tx = event.tx, let first = current.first {
                report(.malformedBatch, "at \(event.at) differs from its batch's at \(first.at) (tx \(tx))", here)
            }
            // A batch has one hlc (an event that dropped it is already an envelopeDropped problem).
            if let hlc = event.hlc, let tx = event.tx, let first = current.first, first.hlc != hlc {
                let theirs = first.hlc.map { "hlc \($0)" } ?? "no hlc"
                report(.malformedBatch, "hlc \(hlc) differs from its batch's \(theirs) (tx \(tx))", here)
            }
            current.append(event)
        case .stray(let reason):
            report(.malformedBatch, reason, here)
            closeBatch()
            guard !halted else { return }
            batchesInFrame += 1
            completed.append(LogBatch(events: [event]))
        }
    }

    private mutating func closeBatch() {
        guard !current.isEmpty, !halted else { return }
        if currentTx != nil && current.count == 1 {
            report(
                .malformedBatch,
                "the event has tx \(current[0].seq) but no other event of its batch follows it in the same frame",
                location(line: nil, seq: current[0].seq))
        }
        batchesInFrame += 1
        if !halted { completed.append(LogBatch(events: current)) }
        current = []
        currentTx = nil
    }

    /// Completes the batch in progress at the end of a frame (or of a plain file).
    mutating func endFrame() {
        closeBatch()
    }

    private mutating func report(_ kind: LogProblem.Kind, _ message: String, _ location: LogLocation) {
        guard !halted else { return }
        problems.append(LogProblem(kind, message, location: location))
        if options.stopsAtFirstProblem { halted = true }
    }

    private func location(line: Int?, seq: Int64?) -> LogLocation {
        LogLocation(segment: segment, offset: frameOffset, line: line, seq: seq)
    }
}
