public import StintCore
public import StintLog

/// Every record and tag at a point of a log's history: what reports and exports read.
///
/// At the log's head this comes from the read models (one ordered, indexed query over the records table)
/// when they reflect the head; at other points, or without them, from ``LogView``'s fold, which gives the
/// same source. A view of a window holds only the records that overlap it, so that a week's report costs a
/// week's records at any length of history.
///
/// ```swift
/// let view = try RecordsView.load(try LogSource.open(path: path, options: options), at: .latest, options: options)
/// let report = TimeReport(source: view.source, range: week, grouping: .day, now: view.now)
/// ```
public struct RecordsView: Sendable {
    /// The tags, the recent tags and every record that is not deleted (that overlaps the window, for a view of
    /// a window), ordered by start, then id.
    public let source: ProjectionSource
    /// The instant the outputs are computed at.
    public let now: Instant
    /// Why reading stopped before the end of the log, when damage stopped it.
    public let warning: LogProblem?

    /// The log's calendar.
    public var calendar: LogCalendar { source.calendar }

    /// Every tag ever created, archived and deleted ones included, by id.
    public var tags: [EntityID: Tag] { source.tags }

    /// The tag that is not deleted and whose name equals `name` case-insensitively.
    public func tag(named name: String) -> Tag? {
        Tag.live(named: name, in: tags)
    }

    /// Reads the records of `source`'s log at `point`.
    ///
    /// - Parameter window: when given, only the records that overlap it: those that start before its end and
    ///   end at or after its start, or still run (every record a report of the window reads, whether it
    ///   counts records whole on their start day or splits them at midnight).
    /// - Throws: what ``LogView/load(_:at:options:)`` throws for the same log and point.
    public static func load(
        _ source: LogSource, at point: ResolvedPoint, options: EngineOptions, window: TimeInterval64? = nil
    ) throws(StintError) -> RecordsView {
        try source.fold.records(at: point, options: options, window: window)
    }
}

extension RecordsView {
    /// The records of the strict fold's view (`view`'s state), those that overlap `window` when given.
    init(_ view: LogView, window: TimeInterval64?) {
        var records = view.state.projectionSource
        if let window { records.records.removeAll { !window.overlaps($0) } }
        self.init(source: records, now: view.now, warning: view.warning)
    }

    /// The records at the log's head from its read models, when they reflect the head and the clock is not
    /// behind the log; nil otherwise.
    static func fromReadModels(of reader: LogReader, options: EngineOptions, window: TimeInterval64?) -> RecordsView? {
        guard let directory = reader.directoryPath else { return nil }
        return fromReadModels(in: directory, of: .log(reader), options: options, window: window)
    }

    /// The records at the head from the read models in `directory`, when they reflect `subject` as it is now and
    /// the clock is not behind the last event; nil otherwise.
    static func fromReadModels(
        in directory: String, of subject: ModelSubject, options: EngineOptions, window: TimeInterval64?
    ) -> RecordsView? {
        guard options.usesReadModels, let model = ReadModel.openForReading(inLogDirectory: directory) else {
            return nil
        }
        defer { model.close() }
        guard let source = model.recordsSource(of: subject, overlapping: window) else { return nil }
        let now = options.clock()
        guard now >= source.lastAt else { return nil }
        return RecordsView(source: source.source, now: now, warning: nil)
    }
}

extension RecordsView {
    /// Reads the records of `source`'s log at `point`; at the log's head, only those that overlap the window
    /// `windowAtHead` makes from the log's calendar and the engine clock's `now` (nil: every record). A past
    /// point reads every record: its window depends on the records (a report's range of a past `now`).
    ///
    /// - Throws: what ``load(_:at:options:window:)`` throws, reading the log's settings throws, and what
    ///   `windowAtHead` throws.
    public static func load(
        _ source: LogSource, at point: ResolvedPoint, options: EngineOptions,
        windowAtHead: (LogCalendar, Instant) throws(StintError) -> TimeInterval64?
    ) throws(StintError) -> RecordsView {
        let window = point.isLatest ? try windowAtHead(try source.settings().calendar, options.clock()) : nil
        return try load(source, at: point, options: options, window: window)
    }
}

extension TimeInterval64 {
    /// Whether `record` overlaps the interval as a records view of a window counts it: it starts before the
    /// end and ends at or after the start (a record of no length at the start included), or still runs.
    func overlaps(_ record: Record) -> Bool {
        record.start < end && (record.end.map { $0 >= start } ?? true)
    }
}
