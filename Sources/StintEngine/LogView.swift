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
        let reader = source.reader
        if let space = source.space { return try load(space, at: point, options: options) }
        if point.namesDevice {
            throw StintError(
                .usage,
                "--seq DEVICE:N and --as-known-by name a device of a space, and the log \(reader.name) is not part of one"
            )
        }
        let folded = try StateLoader(reader: reader, options: options).load(upTo: point)
        guard let state = folded.state else {
            if let instant = point.instantLimit, let first = try? reader.events(from: 1).next() {
                throw StintError(
                    .refused,
                    "nothing was recorded at or before \(instant.iso8601): the log begins at \(first.at.iso8601)")
            }
            if let warning = folded.warning {
                throw StintError(
                    .damaged, "the log \(reader.name) has no readable events: \(warning.message)")
            }
            throw StintError(
                .damaged,
                "the log \(reader.name) has no events; a log begins with the log.created event of 'stint init'")
        }
        let now = try LogView.now(at: point, lastSeq: state.lastSeq, lastAt: state.lastAt, options: options)
        return LogView(state: state, now: now, point: point.point, warning: folded.warning)
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

    /// The view of a replica: its merged history folded up to `point`.
    static func load(_ space: MergedHistory, at point: ResolvedPoint, options: EngineOptions) throws(StintError)
        -> LogView
    {
        let merged = try fold(space, at: point, options: options)
        // Tags that share a name (rule 8) are shown as `NAME (2)` in every output of the view.
        var view = LogView(
            state: merged.fold.state.withDisplayNames(), now: merged.now, point: point.point, warning: merged.warning)
        view.conflicts = merged.fold.conflicts
        return view
    }

    /// A replica's merged history folded up to `point`, and the instant its projections are computed at.
    ///
    /// - Throws: as ``load(_:at:options:)``.
    static func fold(_ space: MergedHistory, at point: ResolvedPoint, options: EngineOptions) throws(StintError)
        -> (fold: MergedFold, now: Instant, warning: LogProblem?)
    {
        let folded = try space.fold(upTo: point, usingCheckpoints: true)
        guard let fold = folded.fold, folded.count > 0 else {
            if let instant = point.instantLimit {
                throw StintError(
                    .refused, "nothing was recorded at or before \(instant.iso8601) in the space of \(space.log)")
            }
            throw StintError(
                .damaged,
                "the space of \(space.log) has no readable events\(folded.warning.map { ": \($0.description)" } ?? "")")
        }
        // The merged history refused a `seq` its device does not have: every point has its "now" here.
        let now = point.now(reached: nil, lastAt: fold.lastAt, clock: options.clock) ?? fold.lastAt
        return (fold, now, folded.warning)
    }
}
