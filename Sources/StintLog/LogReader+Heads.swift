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

    /// The last event (nil for a log without events), found as ``lastSeq()`` finds it: for a directory whose
    /// last segment is not sealed, the last line of its last whole frame, decoded but not checked against the
    /// lines before it (``events(from:)`` checks); otherwise the event at ``lastSeq()``, read.
    public func lastEvent() throws(LogError) -> RecordedEvent? {
        let seq: Int64
        if case .directory(let path) = source {
            let last = try ReadEngine.lastSeq(ofDirectory: path, options: options)
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
        guard let seq = engine.checker.options.digestOfSeq, let digest = engine.checker.recordedDigest else {
            return nil
        }
        return LogHead(seq: seq, hash: digest.hex)
    }
}
