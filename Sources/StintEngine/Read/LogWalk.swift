import StintCore
import StintLog

/// A single log's walk (``BatchWalk``): its committed batches one at a time, for verbs that look at every
/// moment of its history (``PublishReplay``: `stint replay`, `stint widget`).
///
/// The walk can begin after a point: the events up to it are folded first (from the newest usable
/// checkpoint, as ``LogView`` does) and are not handed out. Then ``next()`` returns each later batch,
/// already folded into ``state``.
///
/// ```swift
/// let walk = try LogWalk(reader: reader, after: .at(monday), options: options)
/// while let batch = try walk.next() { print(batch.firstSeq, walk.state!.runningRecords.count) }
/// ```
final class LogWalk: BatchWalk {
    private(set) var state: LogState?
    private(set) var warning: LogProblem?
    var willFold: ((LogState?, [RecordedEvent]) -> Void)?
    private let cursor: LogBatchCursor?

    /// Starts a walk of `reader`'s log.
    ///
    /// - Parameters:
    ///   - point: the events to fold before the first batch handed out: `nil` for none, `.at(T)` for the
    ///     events recorded at or before T, `.seq(N)` for events 1…N, `.latest` for all of them.
    /// - Throws: ``StintError`` for an unreadable log or events this build cannot fold.
    init(reader: LogReader, after point: ResolvedPoint?, options: EngineOptions) throws(StintError) {
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

    func next() throws(StintError) -> LogBatch? {
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
        let after = state?.lastSeq ?? 0
        if let willFold { willFold(state, batch.events.filter { $0.seq > after }) }
        // Move the state out so that folding mutates it in place instead of copying its dictionaries.
        var folded = state
        state = nil
        do {
            try LogState.fold(batch.events.lazy.filter { $0.seq > after }, onto: &folded)
        } catch {
            throw StintError(error)
        }
        state = folded
        return batch
    }
}
