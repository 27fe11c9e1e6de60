import StintCore
import StintLog

/// A replica's reads (a log that is part of a space, docs/decisions/0007): every read is of the merged
/// history of every device (``MergedHistory``), from the newest merged checkpoint that holds and is not past
/// the point; its points may name a device, and its views carry the conflicts the merge resolved.
struct ReplicaReadFold: ReadFold {
    /// The replica's own log, and the merged history of the space.
    let own: LogReader
    let history: MergedHistory

    var name: String { own.name }
    var mergesDevices: Bool { true }

    func settings() throws(StintError) -> LogSettings {
        guard let settings = try Space.open(log: history.log, options: history.options).settings() else {
            throw StintError(
                .damaged,
                "no log of the space at \(history.log) begins with log.created yet; run 'stint sync' to bring in the "
                    + "founding device's")
        }
        return settings
    }

    func devices() throws(StintError) -> [DeviceID] {
        let opened = try Space.open(log: history.log, options: history.options)
        return Array(Set(try opened.mirroredDevices() + [opened.device])).sorted()
    }

    /// The merged history from the first event; from a later `seq`, the replica's own log.
    func events(from seq: Int64) throws(StintError) -> EventCursor {
        if seq <= 1 {
            let (store, cursor) = try history.batches()
            return EventCursor(cursor, close: store.close)
        }
        do {
            return EventCursor(try own.events(from: seq))
        } catch {
            throw StintError(error)
        }
    }

    func state(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> LogView {
        let merged = try fold(at: point, options: options)
        // Tags that share a name (rule 8) are shown as `NAME (2)` in every output of the view.
        var view = LogView(
            state: merged.fold.state.withDisplayNames(), now: merged.now, point: point.point, warning: merged.warning)
        view.conflicts = merged.fold.conflicts
        return view
    }

    /// Only the records a projection can read at `now` (or at the last event, when another device's clock put
    /// it after `now`), as a single log's projection checkpoint holds them: at the head from the read models
    /// when they reflect every device's log as it ends now, else taken from the fold's table without building
    /// the whole state.
    func projections(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> ProjectionView {
        if point.isLatest, let view = projectionsFromReadModels(options: options) { return view }
        let merged = try fold(at: point, options: options)
        let horizon = ProjectionState.horizon(at: min(merged.now, merged.fold.lastAt), calendar: merged.fold.calendar)
        return ProjectionView(
            source: merged.fold.projectionSource(from: horizon), now: merged.now, point: point.point,
            warning: merged.warning, horizon: horizon)
    }

    /// The projections at the head from the replica's read models (decision 0010 step 5), when every device's
    /// log (the own log and each mirror, no more and no fewer) ends where the models say it ended when they were
    /// written; nil otherwise, or without read models.
    func projectionsFromReadModels(options: EngineOptions) -> ProjectionView? {
        guard options.usesReadModels, let model = ReadModel.openForReading(inLogDirectory: history.log) else {
            return nil
        }
        defer { model.close() }
        guard let subject = modelSubject() else { return nil }
        let now = options.clock()
        guard let read = model.mergedProjectionSource(of: subject, now: now) else { return nil }
        return ProjectionView(source: read.source, now: now, point: .latest, warning: nil, horizon: read.horizon)
    }

    /// At the head from the read models when they reflect every device's log as it ends now, else the state's.
    func records(at point: ResolvedPoint, options: EngineOptions, window: TimeInterval64?) throws(StintError)
        -> RecordsView
    {
        if point.isLatest, let subject = modelSubject(),
            let view = RecordsView.fromReadModels(in: history.log, of: subject, options: options, window: window)
        {
            return view
        }
        return RecordsView(try state(at: point, options: options), window: window)
    }

    func reportTotalsAtHead(options: EngineOptions, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?)
        -> ReportTotalsView?
    {
        guard let subject = modelSubject() else { return nil }
        return ReadModel.reportTotals(in: history.log, of: subject, options: options, query: query)
    }

    /// From the read models when they reflect every device's log as it ends now, else the state's.
    func recordStream(options: EngineOptions) throws(StintError) -> RecordStream {
        if let subject = modelSubject(),
            let stream = RecordStream.fromReadModels(in: history.log, of: subject, options: options)
        {
            return stream
        }
        return RecordStream(try state(at: .latest, options: options))
    }

    /// The replica as its read models reflect it: the models were written where every log of the replica (the
    /// own log and each mirror, no more and no fewer) ends now. Nil when the logs cannot be listed.
    func modelSubject() -> ModelSubject? {
        guard let logs = try? Space.open(log: history.log, options: history.options).logs(own: own) else { return nil }
        return .replica(logsEnd: { ends in
            ends.count == logs.count && logs.allSatisfy { log in ends[log.device].map(log.reader.ends(at:)) == true }
        })
    }

    func walk(after point: ResolvedPoint?, options: EngineOptions) throws(StintError) -> any BatchWalk {
        try MergedWalk(history, after: point)
    }

    /// The merged history folded up to `point`, and the instant its projections are computed at.
    ///
    /// - Throws: as ``LogView/load(_:at:options:)``.
    private func fold(at point: ResolvedPoint, options: EngineOptions) throws(StintError)
        -> (fold: MergedFold, now: Instant, warning: LogProblem?)
    {
        let folded = try history.fold(upTo: point, usingCheckpoints: true)
        guard let fold = folded.fold, folded.count > 0 else {
            if let instant = point.instantLimit {
                throw StintError(
                    .refused, "nothing was recorded at or before \(instant.iso8601) in the space of \(history.log)")
            }
            throw StintError(
                .damaged,
                "the space of \(history.log) has no readable events\(folded.warning.map { ": \($0.description)" } ?? "")"
            )
        }
        // The merged history refused a `seq` its device does not have: every point has its "now" here.
        let now = point.now(reached: nil, lastAt: fold.lastAt, clock: options.clock) ?? fold.lastAt
        return (fold, now, folded.warning)
    }
}
