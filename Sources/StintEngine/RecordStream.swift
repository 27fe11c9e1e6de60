public import StintCore
public import StintLog

/// Every record at the log's head, one at a time in start order, for exports that must not hold a long
/// history in memory.
///
/// From the read models when they reflect the log's end (one ordered scan of the records table, in one read
/// transaction from ``open(_:options:)`` to ``close()``, so the tags and the records are of one state);
/// otherwise from the whole fold, as ``RecordsView``.
///
/// ```swift
/// let stream = try RecordStream.open(try LogSource.open(path: path, options: options), options: options)
/// defer { stream.close() }
/// try stream.forEach(startingFrom: nil, before: nil) { record in print(record.id) }
/// ```
public final class RecordStream {
    /// The log's calendar.
    public let calendar: LogCalendar
    /// Every tag of the log, archived and deleted ones included, by id.
    public let tags: [EntityID: Tag]
    /// The instant running records are measured to.
    public let now: Instant
    /// Why reading stopped before the end of the log, when damage stopped it.
    public let warning: LogProblem?
    private var model: ReadModel?
    private let records: [Record]

    private init(
        calendar: LogCalendar, tags: [EntityID: Tag], now: Instant, warning: LogProblem?, model: ReadModel?,
        records: [Record]
    ) {
        self.calendar = calendar
        self.tags = tags
        self.now = now
        self.warning = warning
        self.model = model
        self.records = records
    }

    deinit {
        close()
    }

    /// Opens the records of `source`'s log at its head.
    ///
    /// - Throws: what ``LogView/load(_:at:options:)`` throws for the latest point.
    public static func open(_ source: LogSource, options: EngineOptions) throws(StintError) -> RecordStream {
        try source.fold.recordStream(options: options)
    }

    /// The records of the strict fold's view at the head (`view`'s state), held in memory.
    convenience init(_ view: LogView) {
        let source = view.state.projectionSource
        self.init(
            calendar: source.calendar, tags: source.tags, now: view.now, warning: view.warning, model: nil,
            records: source.records)
    }

    /// The records at the log's head from its read models, in one read transaction, when they reflect the
    /// head and the clock is not behind the log; nil otherwise.
    static func fromReadModels(of reader: LogReader, options: EngineOptions) -> RecordStream? {
        guard let directory = reader.directoryPath else { return nil }
        return fromReadModels(in: directory, of: .log(reader), options: options)
    }

    /// The records at the head from the read models in `directory`, in one read transaction, when they reflect
    /// `subject` as it is now and the clock is not behind the last event; nil otherwise.
    static func fromReadModels(in directory: String, of subject: ModelSubject, options: EngineOptions)
        -> RecordStream?
    {
        guard options.usesReadModels, let model = ReadModel.openForReading(inLogDirectory: directory) else {
            return nil
        }
        if let state = model.beginStreaming(of: subject), options.clock() >= state.lastAt {
            return RecordStream(
                calendar: state.calendar, tags: state.tags, now: options.clock(), warning: nil, model: model,
                records: [])
        }
        model.endStreaming()
        model.close()
        return nil
    }

    /// Calls `body` with each record that starts in `[since, until)` (no bound for nil), by start, then id.
    ///
    /// - Throws: ``StintError`` (damaged) when the read models cannot be read part way.
    public func forEach(
        startingFrom since: Instant?, before until: Instant?, _ body: (Record) -> Void
    ) throws(StintError) {
        guard let model else {
            for record in records
            where since.map({ record.start >= $0 }) ?? true && until.map({ record.start < $0 }) ?? true {
                body(record)
            }
            return
        }
        do {
            try model.scanRecords(
                from: since?.milliseconds ?? .min, before: until?.milliseconds ?? .max, body)
        } catch {
            throw StintError(
                .damaged, "the read models could not be read (\(error.description)); delete \(model.path) and retry")
        }
    }

    /// Ends the read transaction and closes the read models.
    public func close() {
        model?.endStreaming()
        model?.close()
        model = nil
    }
}
