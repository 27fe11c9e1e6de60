import StintCore
import StintLog

/// A walk (``BatchWalk``) of any store's batches, folded by a single log's strict rules: the fold
/// ``StoreReadFold`` reads every view from.
final class StoreWalk: BatchWalk {
    private(set) var state: LogState?
    var warning: LogProblem? { nil }
    var willFold: ((LogState?, [RecordedEvent]) -> Void)?
    /// The store's batches from the first, and the batch the point ended before or in (handed out first, its
    /// events up to the point not folded again, as a single log's walk hands it out).
    let cursor: any StoreBatchCursor
    private(set) var pending: [RecordedEvent] = []

    /// Starts a walk of `store` after `point`'s events (from the first with nil), which are folded first.
    ///
    /// - Throws: ``StintError`` for an event that does not fold and for the store's damage and read failures.
    init(_ store: any EventStore, after point: ResolvedPoint?) throws(StintError) {
        cursor = try store.batches(after: nil)
        guard let point else { return }
        let seqLimit = point.seqLimit
        let atLimit = point.instantLimit
        while let batch = try nextBatch() {
            // A point's batches are those recorded at or before its instant, its events those up to its seq.
            if let atLimit, let first = batch.first, first.at > atLimit {
                pending = batch
                return
            }
            if let seqLimit, let index = batch.firstIndex(where: { $0.seq > seqLimit }) {
                try fold(batch[..<index])
                pending = batch
                return
            }
            try fold(batch[...])
        }
    }

    /// Starts a walk of `store`'s events from `seq`, none folded (``StoreReadFold/events(from:)``).
    init(_ store: any EventStore, skippingTo seq: Int64) throws(StintError) {
        cursor = try store.batches(after: nil)
        while let batch = try nextBatch() {
            guard let index = batch.firstIndex(where: { $0.seq >= seq }) else { continue }
            pending = Array(batch[index...])
            return
        }
    }

    func next() throws(StintError) -> LogBatch? {
        let events: [RecordedEvent]
        if !pending.isEmpty {
            events = pending
            pending = []
        } else {
            guard let batch = try nextBatch() else { return nil }
            events = batch
        }
        let after = state?.lastSeq ?? 0
        let folding = events.filter { $0.seq > after }
        willFold?(state, folding)
        try fold(folding)
        return LogBatch(events: events)
    }

    /// The store's next batch; its damage is thrown.
    private func nextBatch() throws(StintError) -> [RecordedEvent]? {
        if let batch = try cursor.next() { return batch.events }
        if let damage = cursor.damage { throw damage }
        return nil
    }

    private func fold(_ events: some Sequence<RecordedEvent>) throws(StintError) {
        do {
            try LogState.fold(events, onto: &state)
        } catch {
            throw StintError(error)
        }
    }
}
