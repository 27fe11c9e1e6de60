public import StintCore

extension LogReader {
    /// The batches from the one holding `seq` on, with the head at `seq` recorded while they are read, so
    /// that a caller that starts from a cached state at `seq` can check it against the log without reading
    /// the log up to `seq` twice (``head(at:)`` and then the batches).
    ///
    /// ``LogBatchCursor/recordedHead`` is set once the cursor has returned the batch holding `seq`.
    public func batches(from seq: Int64, recordingHeadAt headSeq: Int64) throws(LogError) -> LogBatchCursor {
        var check = checkOptions()
        check.digestOfSeq = headSeq
        return LogBatchCursor(engine: try ReadEngine(reader: self, from: seq, check: check), from: seq)
    }

    /// The batches after `event`, read from byte `offset` of segment `segment`, where the frame after it starts,
    /// for a log whose bytes up to there are a byte copy of another log that holds `event` as its last line
    /// (whose line hashes to `head`): the checks go on from `event` (its `seq`, `at`, `hlc`, device and the
    /// chain's link), as if the bytes before had been read.
    public func batches(
        resumingAfter event: RecordedEvent, head: LogHead, segment: String, offset: Int64
    ) throws(LogError) -> LogBatchCursor {
        guard head.seq == event.seq, let digest = SHA256Digest(hex: head.hash) else {
            throw LogError(.invalidInput, "the head \(head) is not that of event \(event.seq)")
        }
        return LogBatchCursor(
            engine: try ReadEngine(
                reader: self, resumingAfter: event, digest: digest, segment: segment, offset: offset,
                check: checkOptions()), from: event.seq + 1)
    }

    /// The last event (nil for a log without events), found as ``lastSeq()`` finds it: for a directory, the last
    /// line of its last segment's last whole frame (of the frame its seal names last, when it is sealed), decoded
    /// but not checked against the lines before it (``events(from:)`` checks); otherwise the event at
    /// ``lastSeq()``, read.
    ///
    /// With `checkingChain`, the event as ``events(from:)`` hands it out, its line checked against the lines
    /// before it in its segment (what a head that commits to the log needs), read in one pass over the last
    /// segment (from the last frame its seal indexes, when it is sealed).
    public func lastEvent(checkingChain: Bool = false) throws(LogError) -> RecordedEvent? {
        if checkingChain {
            if case .directory = source {
                let engine = try ReadEngine(reader: self, from: .max, check: checkOptions())
                var last: LogBatch?
                while let batch = try engine.nextBatch() { last = batch }
                // A segment without a whole batch, or damaged before its end: the log holds what events() says.
                if engine.warning == nil, let event = last?.events.last { return event }
            }
            let seq = try lastSeq()
            return seq == 0 ? nil : try events(from: seq).next()
        }
        let seq: Int64
        if case .directory(let path) = source {
            let last = try ReadEngine.lastSeq(ofDirectory: path, options: options, decodingSealed: true)
            if let event = last.event { return event }
            seq = last.seq
        } else {
            seq = try lastSeq()
        }
        return seq == 0 ? nil : try events(from: seq).next()
    }
}

extension LogBatchCursor {
    /// The head at the `seq` given to ``LogReader/batches(from:recordingHeadAt:)``, once the batch holding it
    /// has been read; nil before, or when the log ends (or is damaged) before it.
    public var recordedHead: LogHead? {
        guard let seq = engine?.checker.options.digestOfSeq, let digest = engine?.checker.recordedDigest else {
            return nil
        }
        return LogHead(seq: seq, hash: digest.hex)
    }
}
