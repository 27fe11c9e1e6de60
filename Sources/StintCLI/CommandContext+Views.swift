import StintCore
@_spi(FaultInjection) import StintEngine

/// The views a read verb loads, at the point it resolved, with a warning when damage cut the reading short.
extension CommandContext {
    /// Reads the log at the point `--at` or `--seq` name (the latest state when neither is given), and
    /// prints a warning when damage cut the reading short.
    func view(_ point: PointArguments) throws(CLIError) -> LogView {
        try opened(warning: \.warning?.message) { (reader) throws(StintError) in
            try LogView.load(reader, query: point, options: engineOptions)
        }
    }

    /// Reads `reader` at an already resolved `point`, and prints a warning when damage cut the reading short.
    func view(at point: ResolvedPoint, of reader: LogSource) throws(CLIError) -> LogView {
        let view = try engine { () throws(StintError) in try LogView.load(reader, at: point, options: engineOptions) }
        warnIfCut(view.warning?.message)
        return view
    }

    /// Every record and tag at the point `--at` or `--seq` name (``RecordsView``: from the read models at
    /// the log's head), with a warning when damage cut the reading short.
    ///
    /// - Parameter window: at the log's head, the interval whose records are enough, from the log's calendar
    ///   and the command's `now` (nil: every record); the view then holds only the records that overlap it.
    func recordsView(
        _ point: PointArguments, window: ((LogCalendar, Instant) throws(CLIError) -> TimeInterval64?)? = nil
    ) throws(CLIError) -> RecordsView {
        try load(point, warning: \.warning?.message) { (source, resolved) throws(CLIError) in
            try engine { () throws(StintError) in
                guard let window else { return try RecordsView.load(source, at: resolved, options: engineOptions) }
                return try RecordsView.load(source, at: resolved, options: engineOptions) {
                    (calendar, now) throws(StintError) in
                    do throws(CLIError) {
                        return try window(calendar, now)
                    } catch {
                        throw StintError(error)
                    }
                }
            }
        }
    }

    /// A report at the log's head from the read models' day-and-tag totals (``ReportTotalsView``), when `point`
    /// is the head and the models reflect it; nil otherwise.
    func reportTotalsView(
        _ point: PointArguments, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?
    ) throws(CLIError) -> ReportTotalsView? {
        let reader = try reader()
        guard try resolve(point, of: reader).isLatest else { return nil }
        return reader.reportTotalsAtHead(options: engineOptions, query: query)
    }

    /// Every record at the log's head, one at a time (``RecordStream``), with a warning when damage cut the
    /// reading short.
    func recordStream() throws(CLIError) -> RecordStream {
        let reader = try reader()
        let stream = try engine { () throws(StintError) in try RecordStream.open(reader, options: engineOptions) }
        warnIfCut(stream.warning?.message)
        return stream
    }

    /// What the widget projections read at a point (``ProjectionView``): the same outputs as ``view(_:)``'s
    /// state, from the read models or a projection checkpoint close to the point when there is one.
    func projectionView(_ point: PointArguments) throws(CLIError) -> ProjectionView {
        try opened(warning: \.warning?.message) { (reader) throws(StintError) in
            try ProjectionView.load(reader, query: point, options: engineOptions)
        }
    }

    /// What the widget projections read at an already resolved `point` of `reader`.
    func projectionView(at point: ResolvedPoint, of reader: LogSource) throws(CLIError) -> ProjectionView {
        let view = try engine { () throws(StintError) in
            try ProjectionView.load(reader, at: point, options: engineOptions)
        }
        warnIfCut(view.warning?.message)
        return view
    }

    /// Resolves `point` against the log and loads a view there, warning when damage cut the reading short.
    private func load<View>(
        _ point: PointArguments, warning: (View) -> String?,
        _ load: (LogSource, ResolvedPoint) throws(CLIError) -> View
    ) throws(CLIError) -> View {
        let reader = try reader()
        let view = try load(reader, try resolve(point, of: reader))
        warnIfCut(warning(view))
        return view
    }

    /// Opens the log and loads a view of it in one engine call, warning when damage cut the reading short.
    private func opened<View>(
        warning: (View) -> String?, _ load: (LogSource) throws(StintError) -> View
    ) throws(CLIError) -> View {
        let reader = try reader()
        let view = try engine { () throws(StintError) in try load(reader) }
        warnIfCut(warning(view))
        return view
    }

    private func warnIfCut(_ damage: String?) {
        guard let damage else { return }
        warn("the log is damaged; showing what was recorded before the damage: \(damage)")
    }
}
