import StintCore
import StintLog

/// A state the engine folds events into from a checkpoint: the whole ``LogState`` or the widget
/// projections' ``ProjectionState``.
protocol FoldedState {
    /// The `seq` of the last event folded.
    var lastSeq: Int64 { get }
    /// Folds the next event.
    mutating func apply(_ event: RecordedEvent) throws(DomainError)
}

extension LogState: FoldedState {}
extension ProjectionState: FoldedState {}

/// The one fold every read of a past or present point goes through (``StateLoader`` for ``LogView``,
/// ``ProjectionLoader`` for ``ProjectionView``): start from a checkpoint or from the first event, read on
/// from the batch holding the checkpoint's `seq` — checking the checkpoint's head against the log on the
/// way, instead of reading the log up to it once for the check and once for the fold —, fold every event
/// up to the point, and hand each whole batch folded to `afterBatch` (where the loaders leave checkpoints), with the state
/// behind a closure: called only when a checkpoint is due.
struct CheckpointedFold<State: FoldedState> {
    /// Where the fold starts: a state restored from a checkpoint, and the head the checkpoint was taken at.
    struct Start {
        var state: State
        var head: LogHead
    }

    /// How a fold ended.
    enum Outcome {
        /// Folded to the point: the state (nil when no event was folded at all), the last event folded after
        /// the start, how many were folded, and why reading stopped early (damage), if it did.
        case folded(state: State?, lastEvent: RecordedEvent?, count: Int64, warning: LogProblem?)
        /// The checkpoint's head is not the log's (another log, a rewritten one, or one that ends before it).
        case staleCheckpoint
    }

    let reader: LogReader

    /// Folds the events after `start` (from the first event when nil; `genesis` makes the state of a log's
    /// first event) up to `point`.
    ///
    /// - Throws: ``StintError`` for events that do not fold and for read failures.
    func run(
        from start: Start?, genesis: (RecordedEvent) throws(DomainError) -> State, upTo point: ResolvedPoint,
        afterBatch: (_ lastSeq: Int64, _ state: () -> State, _ last: RecordedEvent) -> Void
    ) throws(StintError) -> Outcome {
        let seqLimit = point.seqLimit
        let atLimit = point.instantLimit
        var state = start?.state
        // The position, apart from the state: reading it through the optional state copied the state (a
        // retain of each of its arrays and dictionaries) at every event.
        var lastSeq = start?.state.lastSeq ?? 0
        var hasState = start != nil
        var unverifiedHead = start?.head
        var lastEvent: RecordedEvent?
        var count: Int64 = 0
        do {
            let cursor =
                if let unverifiedHead {
                    try reader.batches(from: unverifiedHead.seq, recordingHeadAt: unverifiedHead.seq)
                } else {
                    try reader.batches(from: 1)
                }
            batches: while let batch = try cursor.next() {
                if let expected = unverifiedHead {
                    guard cursor.recordedHead == expected else { return .staleCheckpoint }
                    unverifiedHead = nil
                }
                if let atLimit, batch.events[0].at > atLimit { break }
                for event in batch.events {
                    if hasState && event.seq <= lastSeq { continue }
                    if let seqLimit, event.seq > seqLimit { break batches }
                    if hasState {
                        try state!.apply(event)
                    } else {
                        state = try genesis(event)
                        hasState = true
                    }
                    lastSeq = event.seq
                    lastEvent = event
                    count += 1
                }
                if hasState, let last = batch.events.last, lastSeq == last.seq { afterBatch(lastSeq, { state! }, last) }
            }
            // A log that ends before the checkpoint's seq (or is damaged before it) is not its log.
            if unverifiedHead != nil { return .staleCheckpoint }
            return .folded(state: state, lastEvent: lastEvent, count: count, warning: cursor.warning)
        } catch {
            throw StintError(error)
        }
    }
}
