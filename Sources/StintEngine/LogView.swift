public import StintCore
public import StintLog

/// A log's folded state at a point of its history, read without the writer's lock.
///
/// `--at T` folds the events *recorded* at or before T and takes T as "now"; `--seq N` folds events 1…N
/// and takes the recorded time of event N as "now"; the latest view folds everything and takes the
/// clock's instant. Reads start from the newest valid checkpoint at or before the point and, when they
/// had to fold far, leave a new checkpoint behind (log directories only).
///
/// ```swift
/// let view = try LogView.load(try LogSource.open(path: path, options: options), at: .at(tuesdayNine), options: options)
/// let snapshot = WidgetData(source: view.state.projectionSource, now: view.now)
/// ```
public struct LogView: Sendable {
    /// The state after the last event of the point.
    public let state: LogState
    /// The instant the projections are computed at.
    public let now: Instant
    /// The point that was asked for.
    public let point: ReadPoint
    /// Why reading stopped before the end of the log, when damage stopped it (the view is the intact prefix).
    public let warning: LogProblem?
    /// In a space, what the merged fold's rules resolved up to the point, in merge order (minor ones
    /// included); none for a log that is not part of a space.
    public var conflicts: [Conflict] = []

    /// Folds `source`'s log up to `point`.
    ///
    /// - Throws: ``StintError`` (refused) for a point outside the log (a `seq` past its end, an instant before
    ///   its first event), (damaged) for events this build cannot fold, and the reader's errors.
    public static func load(
        _ source: LogSource, at point: ResolvedPoint, options: EngineOptions
    ) throws(StintError) -> LogView {
        try source.fold.state(at: point, options: options)
    }

    /// ``ReadPoint/now(reached:lastAt:clock:)`` for a single log's fold that ended at `lastSeq`.
    ///
    /// - Throws: ``StintError`` (refused) for a `seq` past the end of the log.
    static func now(at point: ResolvedPoint, lastSeq: Int64, lastAt: Instant, options: EngineOptions) throws(StintError)
        -> Instant
    {
        guard let now = point.now(reached: lastSeq, lastAt: lastAt, clock: options.clock) else {
            let n = point.seqLimit ?? lastSeq + 1
            throw StintError(.refused, "the log has \(lastSeq) events, so there is no seq \(n); use --seq 1…\(lastSeq)")
        }
        return now
    }
}
