import StintCore
import StintLog

/// Bringing the read models to the log's head: catching up a few batches, or rebuilding from a whole fold.
extension ReadModel {
    /// At most this many events behind the log, the read models catch up event by event; further behind, a
    /// rebuild from the newest checkpoint is faster.
    static let catchUpLimit: Int64 = 10_000

    /// Adds the records `events` name to `state` (a slice), so that they can be folded into it.
    func include(namedBy events: some Sequence<DomainEvent>, in state: inout LogState) throws(ReadModelError) {
        var ids: [EntityID] = []
        for event in events { ids.append(contentsOf: event.namedRecordIds) }
        try include(ids, in: &state)
    }

    /// Adds the record that ended last (what `continue` without an id reads) to `state`.
    func includeLastEnded(in state: inout LogState) throws(ReadModelError) {
        for record in try records(where: "end_ms IS NOT NULL ORDER BY end_ms DESC, id DESC LIMIT 1") {
            state.include(record)
        }
    }

    /// Folds stored batches into `state` (a slice or the whole state) and writes what they changed, with
    /// `head` (the position after the last of them), in one transaction.
    ///
    /// - Throws: ``ReadModelError`` when the rows cannot be read or written, or when the events do not fold
    ///   onto the stored state (the read models are then not of this log, and must be rebuilt); `state` is
    ///   unchanged then.
    func fold(
        _ batches: [StoredBatch], into state: inout LogState, head: StoreHead, tail: LogTail?
    ) throws(ReadModelError) {
        var next = state
        try database.transaction { () throws(ReadModelError) in
            for batch in batches {
                var domain: [DomainEvent] = []
                do throws(DomainError) {
                    for event in batch.events { domain.append(try DomainEvent(event)) }
                } catch {
                    throw ReadModelError("event \(error.seq ?? 0) does not decode: \(error.message)")
                }
                try include(namedBy: domain, in: &next)
                let before = next
                do throws(DomainError) {
                    for event in batch.events { try next.apply(event) }
                } catch {
                    throw ReadModelError("the log's events do not fold onto the stored state: \(error.message)")
                }
                try writeChanges(from: before, to: next, named: Set(domain.flatMap(\.namedRecordIds)))
            }
            try writeDayTotals(calendar: next.calendar)
            try writePosition(of: next, head: head, tail: tail)
        }
        setHead(head)
        state = next
    }
}
