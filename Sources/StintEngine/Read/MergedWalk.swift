import StintCore
import StintLog

/// A replica's walk (``BatchWalk``): its merged history one batch at a time, folded by the space's rules.
final class MergedWalk: BatchWalk {
    private(set) var state: LogState?
    private(set) var warning: LogProblem?
    var willFold: ((LogState?, [RecordedEvent]) -> Void)?
    private(set) var conflictsOfLastBatch: [Conflict] = []
    /// The merged batches, and the store they are read from.
    private let cursor: MergedBatchCursor
    private let store: MergedStore
    /// The point's events left to fold before the first batch handed out.
    private var skip: Int = 0
    /// The merged fold, whose state is ``state``.
    private var fold: MergedFold?

    /// Starts a walk of `history` after `point`'s events (from the first with nil).
    init(_ history: MergedHistory, after point: ResolvedPoint?) throws(StintError) {
        (store, cursor) = try history.batches()
        guard let point else { return }
        let folded = try history.fold(upTo: point)
        skip = folded.fold == nil ? 0 : try Self.count(history, upTo: folded.last)
        fold = folded.fold
        // The walk reads the state after every batch: kept up as it goes, not rebuilt each time.
        fold?.keepRecordsByID()
        state = fold?.state
        warning = folded.warning
    }

    deinit {
        store.close()
    }

    /// How many merged events come up to and including `last`.
    private static func count(_ history: MergedHistory, upTo last: RecordedEvent?) throws(StintError) -> Int {
        guard let last else { return 0 }
        let (store, cursor) = try history.batches()
        defer { store.close() }
        var count = 0
        while let batch = try cursor.next() {
            count += batch.events.count
            if batch.events.contains(where: { $0 == last }) { return count }
        }
        return count
    }

    func next() throws(StintError) -> LogBatch? {
        while let batch = try cursor.next() {
            if skip >= batch.events.count {
                skip -= batch.events.count
                continue
            }
            let events = Array(batch.events.dropFirst(skip))
            skip = 0
            willFold?(state, events)
            let resolved = fold?.conflicts.count ?? 0
            do throws(DomainError) {
                _ = try MergedFold.fold(batch: events, into: &fold)
            } catch {
                throw StintError(error)
            }
            conflictsOfLastBatch = Array(fold?.conflicts.dropFirst(resolved) ?? [])
            fold?.keepRecordsByID()
            state = fold?.state
            return LogBatch(events: events)
        }
        warning = cursor.problem
        return nil
    }
}
