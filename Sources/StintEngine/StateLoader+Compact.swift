import StintCore
import StintLog

/// A read that finds no checkpoint to start from (a cold read: after an import, a lost cache, on a new
/// machine, in CI) folds the whole log with ``CompactFold``: columns instead of a dictionary of records, no
/// allocation per event, inverses kept compactly. It leaves the same checkpoints as the ``LogState`` fold —
/// their bytes are the same — and hands back either fold's result: the whole ``LogState`` for a
/// ``LogView``, or only the projection state for a ``ProjectionView``.
///
/// An event the compact fold does not apply ends it with no result; the reader then folds with
/// ``LogState``, the reference, whose errors are the ones reported.
extension StateLoader {
    /// What a compact fold produced.
    struct CompactFolded {
        /// nil when no event was folded (an empty log, or a point before its first event).
        var fold: CompactFold?
        var lastEvent: RecordedEvent?
        /// Why reading stopped early (damage), if it did.
        var warning: LogProblem?
        var foldedCount: Int64
    }

    /// Folds the log from its first event up to `point` with ``CompactFold``; nil when an event does not
    /// fold (the caller then folds with ``LogState``).
    ///
    /// - Parameter leavingStateCheckpoints: whether to leave state checkpoints, along the way and at the end
    ///   of the log, as the ``LogState`` fold does. A read for the widget projections leaves only projection
    ///   checkpoints (its later reads, historical ones included, start from those): encoding the whole state
    ///   at the end would double its peak memory. The first read of records (`report`, `log`, `--at`)
    ///   then leaves the state checkpoints it needs.
    /// - Throws: ``StintError`` for read failures.
    func loadCompactly(upTo point: ResolvedPoint, leavingStateCheckpoints: Bool = true) throws(StintError)
        -> CompactFolded?
    {
        let seqLimit = point.seqLimit
        // Sized for a record per event, from the log's last segment: a log has fewer (about one per two
        // events), and the reserved but untouched part of the columns costs address space, not memory, while
        // one too few means growing them and rehashing every id once the log passes the guess.
        let capacity = Int(min(max(0, (try? reader.lastSeq()) ?? 0), seqLimit ?? .max))
        let refusal = CompactFoldState.Refusal()
        var milestones = Milestones(after: 0, options: options)
        var order = CompactFold.RecordOrder()
        let outcome: CheckpointedFold<CompactFoldState>.Outcome
        do {
            outcome = try CheckpointedFold<CompactFoldState>(reader: reader).run(
                from: nil,
                genesis: { (event) throws(DomainError) in
                    try CompactFoldState(genesis: event, capacity: capacity, refusal: refusal)
                }, upTo: point
            ) { seq, state, last in
                let due = milestones.passed(seq)
                if due.state && leavingStateCheckpoints && seq != seqLimit {
                    save(state().fold.compactCheckpoint(order: &order), at: last)
                }
                if due.projection {
                    milestones.saveProjection(ProjectionState(state().fold), at: last, in: projections)
                }
            }
        } catch {
            if refusal.seq != nil { return nil }
            throw error
        }
        guard case .folded(let state, let lastEvent, let folded, let warning) = outcome else { return nil }
        if leavingStateCheckpoints, point.isLatest, folded >= options.checkpointInterval, let state,
            let lastEvent
        {
            save(state.fold.compactCheckpoint(order: &order), at: lastEvent)
        }
        return CompactFolded(fold: state?.fold, lastEvent: lastEvent, warning: warning, foldedCount: folded)
    }
}

/// ``CompactFold`` as a state ``CheckpointedFold`` folds: an event it does not apply is noted in a
/// ``Refusal`` shared with the caller and ends the fold.
struct CompactFoldState: FoldedState {
    /// Where a refusal is noted (the fold's error alone cannot tell it from the reader's).
    final class Refusal: @unchecked Sendable {
        /// The `seq` of the event the compact fold did not apply.
        var seq: Int64?
    }

    private(set) var fold: CompactFold
    private let refusal: Refusal

    init(genesis event: RecordedEvent, capacity: Int, refusal: Refusal) throws(DomainError) {
        guard let fold = CompactFold(genesis: event, capacity: capacity) else {
            throw CompactFoldState.refuse(event, refusal)
        }
        self.fold = fold
        self.refusal = refusal
    }

    var lastSeq: Int64 { fold.lastSeq }

    mutating func apply(_ event: RecordedEvent) throws(DomainError) {
        guard fold.apply(event) else { throw CompactFoldState.refuse(event, refusal) }
    }

    private static func refuse(_ event: RecordedEvent, _ refusal: Refusal) -> DomainError {
        refusal.seq = event.seq
        return DomainError(.inconsistentEvent, "the compact fold does not apply this event", seq: event.seq)
    }
}
