import StintCore
import StintLog

/// Folds a log one committed batch at a time, for verbs that look at every moment of its history
/// (``PublishReplay``: `stint replay`, `stint widget`).
///
/// The walk can begin after a point: the events up to it are folded first (from the newest usable
/// checkpoint, as ``LogView`` does) and are not handed out. Then ``next()`` returns each later batch,
/// already folded into ``state``.
///
/// ```swift
/// let walk = try LogWalk(reader: reader, after: .at(monday), options: options)
/// while let batch = try walk.next() { print(batch.firstSeq, walk.state!.runningRecords.count) }
/// ```
final class LogWalk {
    /// The state after the last batch handed out, or after the events folded before the walk; nil while
    /// no event was folded.
    private(set) var state: LogState?
    /// Why the walk stopped before the end of the log, when damage stopped it.
    private(set) var warning: LogProblem?
    private let cursor: LogBatchCursor?
    /// A replica's merged batches (``MergedHistory``), and the store they are read from.
    private var merged: (cursor: MergedBatchCursor, store: MergedStore)?
    /// The point's events left to fold before the first batch handed out, in a replica.
    private var mergedSkip: Int = 0
    /// A replica's merged fold, whose state is ``state``.
    private var mergedFold: MergedFold?

    /// Starts a walk of `reader`'s log.
    ///
    /// - Parameters:
    ///   - point: the events to fold before the first batch handed out: `nil` for none, `.at(T)` for the
    ///     events recorded at or before T, `.seq(N)` for events 1…N, `.latest` for all of them.
    /// - Throws: ``StintError`` for an unreadable log or events this build cannot fold.
    convenience init(reader: LogReader, after point: ResolvedPoint?, options: EngineOptions) throws(StintError) {
        try self.init(source: LogSource(reader: reader), after: point, options: options)
    }

    /// Starts a walk of `source`: a replica's walk is of its merged history.
    init(source: LogSource, after point: ResolvedPoint?, options: EngineOptions) throws(StintError) {
        let reader = source.reader
        if let space = source.space {
            cursor = nil
            let batches = try space.batches()
            merged = (batches.cursor, batches.store)
            if let point {
                let folded = try space.fold(upTo: point)
                mergedSkip = folded.fold == nil ? 0 : try Self.count(space, upTo: folded.last)
                mergedFold = folded.fold
                // The walk reads the state after every batch: kept up as it goes, not rebuilt each time.
                mergedFold?.keepRecordsByID()
                state = mergedFold?.state
                warning = folded.warning
            }
            return
        }
        if let point {
            let folded = try StateLoader(reader: reader, options: options).load(upTo: point)
            state = folded.state
            warning = folded.warning
        }
        if warning != nil {
            cursor = nil
            return
        }
        do {
            cursor = try reader.batches(from: (state?.lastSeq ?? 0) + 1)
        } catch {
            throw StintError(error)
        }
    }

    /// The next batch, folded into ``state``; nil at the end of the log (or of its intact part).
    ///
    /// - Throws: ``StintError`` (damaged) for an event that does not fold onto the ones before it, and
    ///   the reader's I/O errors.
    deinit {
        merged?.store.close()
    }

    /// How many merged events come up to and including `last`.
    private static func count(_ space: MergedHistory, upTo last: RecordedEvent?) throws(StintError) -> Int {
        guard let last else { return 0 }
        let (store, cursor) = try space.batches()
        defer { store.close() }
        var count = 0
        while let batch = try cursor.next() {
            count += batch.events.count
            if batch.events.contains(where: { $0 == last }) { return count }
        }
        return count
    }

    /// The next merged batch after the point's events, folded by the space's rules.
    private func nextMerged(_ merged: MergedBatchCursor) throws(StintError) -> LogBatch? {
        while let batch = try merged.next() {
            if mergedSkip >= batch.events.count {
                mergedSkip -= batch.events.count
                continue
            }
            let events = Array(batch.events.dropFirst(mergedSkip))
            mergedSkip = 0
            do throws(DomainError) {
                _ = try MergedFold.fold(batch: events, into: &mergedFold)
            } catch {
                throw StintError(error)
            }
            mergedFold?.keepRecordsByID()
            state = mergedFold?.state
            return LogBatch(events: events)
        }
        warning = merged.problem
        return nil
    }

    func next() throws(StintError) -> LogBatch? {
        if let merged { return try nextMerged(merged.cursor) }
        guard let cursor else { return nil }
        let batch: LogBatch
        do {
            guard let next = try cursor.next() else {
                warning = cursor.warning
                return nil
            }
            batch = next
        } catch {
            throw StintError(error)
        }
        // Move the state out so that folding mutates it in place instead of copying its dictionaries.
        var folded = state
        state = nil
        do {
            for event in batch.events {
                if let current = folded, event.seq <= current.lastSeq { continue }
                if folded == nil {
                    folded = try LogState(genesis: event)
                } else {
                    try folded!.apply(event)
                }
            }
        } catch {
            throw StintError(error)
        }
        state = folded
        return batch
    }
}
