public import StintCore

/// Hands out a log's batches one at a time; made by ``LogReader/batches(from:)``.
///
/// ``next()`` returns nil at the end of the intact log. When reading stopped because of damage (rather than
/// at the end or at an incomplete last frame, which is an append in progress), ``warning`` says where.
public final class LogBatchCursor {
    let engine: ReadEngine?
    private let from: Int64
    /// The batches a cursor made by ``init(handingOut:)`` has yet to hand out, in reverse order.
    private var held: [LogBatch]

    init(engine: ReadEngine, from: Int64) {
        self.engine = engine
        self.from = from
        held = []
    }

    /// A cursor that hands out `batches`, which the caller holds as a log has them after some event (the
    /// batches a writer has just appended, which reading them back would give again): nothing is read, and
    /// ``lastSeqBefore`` and ``recordedHead`` say nothing (0 and nil).
    package init(handingOut batches: [LogBatch]) {
        engine = nil
        from = 0
        held = batches.reversed()
    }

    /// The next whole batch; nil at the end.
    ///
    /// - Throws: ``LogError/Code/io`` when a read fails. Damage does not throw: it ends the batches and
    ///   sets ``warning``.
    public func next() throws(LogError) -> LogBatch? {
        guard let engine else {
            guard let batch = held.popLast() else { return nil }
            lastSeq = batch.lastSeq
            return batch
        }
        while let batch = try engine.nextBatch() {
            if batch.lastSeq >= from {
                lastSeq = batch.lastSeq
                return batch
            }
            lastSeqBefore = batch.lastSeq
        }
        return nil
    }

    /// The `seq` of the last event read before the first batch handed out (0 when there was none): the event
    /// that batch follows, across the gap a `log.repaired` names when there is one (docs/log-format.md §6.1).
    public private(set) var lastSeqBefore: Int64 = 0

    /// Why reading stopped before the end of the log, if it did.
    public var warning: LogProblem? { engine?.warning }

    /// Where the log's last segment ends inside a frame, once reading reached it: not damage (an append in
    /// progress, or a copy the sync tool has not completed), so it is not a ``warning``.
    public var incompleteTail: LogLocation? { engine?.incompleteTail }

    /// The `seq` of the last event of the last batch returned (0 before any).
    public private(set) var lastSeq: Int64 = 0
}

/// Hands out a log's events one at a time; made by ``LogReader/events(from:)``.
///
/// Events come from whole, checksum-verified batches; see ``LogBatchCursor`` for the end and warnings.
public final class LogEventCursor {
    private let batches: LogBatchCursor
    private let from: Int64
    private var pending: [RecordedEvent] = []
    private var index = 0

    init(batches: LogBatchCursor, from: Int64) {
        self.batches = batches
        self.from = from
    }

    /// The next event; nil at the end.
    ///
    /// - Throws: ``LogError/Code/io`` when a read fails.
    public func next() throws(LogError) -> RecordedEvent? {
        while true {
            while index < pending.count {
                let event = pending[index]
                index += 1
                if event.seq >= from {
                    lastSeq = event.seq
                    return event
                }
            }
            guard let batch = try batches.next() else { return nil }
            pending = batch.events
            index = 0
        }
    }

    /// Why reading stopped before the end of the log, if it did.
    public var warning: LogProblem? { batches.warning }

    /// The `seq` of the last event returned (0 before any).
    public private(set) var lastSeq: Int64 = 0
}
