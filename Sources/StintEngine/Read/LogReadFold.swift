import StintCore
@_spi(FaultInjection) import StintLog

/// A single log's reads (a log directory, one segment file, a plain file or bytes): the strict fold from the
/// newest checkpoint at or before the point, the projection checkpoints and the compact fold for the widget
/// projections, and the read models at the head.
struct LogReadFold: ReadFold {
    let reader: LogReader

    var name: String { reader.name }
    var mergesDevices: Bool { false }

    func settings() throws(StintError) -> LogSettings {
        try settings(empty: "the log \(name) has no events; create a log with 'stint init'")
    }

    func events(from seq: Int64) throws(StintError) -> EventCursor {
        do {
            return EventCursor(try reader.events(from: seq))
        } catch {
            throw StintError(error)
        }
    }

    func lastSeq() -> Int64? { try? reader.lastSeq() }

    func state(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> LogView {
        try refuseDevice(point, of: "the log \(reader.name)")
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

    /// From the read models at the head, else the newest projection checkpoint, else the compact fold of a
    /// cold read, else the strict fold's view.
    func projections(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> ProjectionView {
        if !point.namesDevice {
            if point.isLatest, let view = ProjectionView.fromReadModels(of: reader, options: options) { return view }
            if let folded = ProjectionLoader(reader: reader, options: options).load(upTo: point) {
                return ProjectionView(
                    source: folded.state.projectionSource, now: folded.now, point: point.point, warning: nil,
                    horizon: folded.state.horizon)
            }
            if let view = try ProjectionView.compactView(of: reader, at: point, options: options) { return view }
        }
        return ProjectionView(try state(at: point, options: options))
    }

    /// From the read models at the head when they reflect it, else the state's fold.
    func records(at point: ResolvedPoint, options: EngineOptions, window: TimeInterval64?) throws(StintError)
        -> RecordsView
    {
        if point.isLatest, let view = RecordsView.fromReadModels(of: reader, options: options, window: window) {
            return view
        }
        return RecordsView(try state(at: point, options: options), window: window)
    }

    func reportTotalsAtHead(options: EngineOptions, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?)
        -> ReportTotalsView?
    {
        guard let directory = reader.directoryPath else { return nil }
        return ReadModel.reportTotals(in: directory, of: .log(reader), options: options, query: query)
    }

    func recordStream(options: EngineOptions) throws(StintError) -> RecordStream {
        if let stream = RecordStream.fromReadModels(of: reader, options: options) { return stream }
        return RecordStream(try state(at: .latest, options: options))
    }

    func walk(after point: ResolvedPoint?, options: EngineOptions) throws(StintError) -> any BatchWalk {
        try LogWalk(reader: reader, after: point, options: options)
    }
}
