import StintCore
import StintLog

/// The widget projections' source at the log's head, read from the read models: the tags, the recent tags,
/// the running records and the records that started since the projection horizon, by one indexed query.
extension ReadModel {
    /// Opens the read models of a log directory for reading only; nil when there are none, or they are of
    /// another schema.
    static func openForReading(inLogDirectory directory: String) -> ReadModel? {
        guard let database = try? SQLiteDatabase(path: directory + "/" + fileName, readOnly: true) else {
            return nil
        }
        let model = ReadModel(database: database, path: directory + "/" + fileName)
        // No memory map: a scan through one counts every page it touched in the process's RSS (73 MiB for an
        // export at 1M events, 26 MiB without), and reading the pages with a system call each was no slower
        // (docs/performance.md).
        guard let version = try? database.statement("PRAGMA user_version"), (try? version.step()) == true,
            version.integer(0) == schemaVersion
        else {
            model.close()
            return nil
        }
        return model
    }

    /// The projection state at the log's head when the read models reflect it (their tail is the log's end),
    /// read in one transaction; nil when they do not (the caller folds from checkpoints instead).
    func projectionState(of reader: LogReader) -> ProjectionState? {
        do {
            return try database.reading { () throws(ReadModelError) -> ProjectionState? in
                guard let tail = storedTail(), reader.ends(as: tail) else { return nil }
                var state = try slice()
                let horizon = ProjectionState.horizon(at: state.lastAt, calendar: state.calendar)
                for record in try records(where: "start_ms >= ?", .integer(horizon.milliseconds)) {
                    state.include(record)
                }
                // Cut at the same horizon as a projection checkpoint of the whole state.
                return ProjectionState(state)
            }
        } catch {
            return nil
        }
    }
}

extension ReadModel {
    /// Every record (or every record that overlaps `window`) and tag at the head when the read models reflect
    /// `subject` as it is now, in one transaction; nil when they do not.
    ///
    /// A window is one range scan of the index by start: no completed record is longer than the stored bound
    /// (`record_bounds.longest_ms`), so none that starts before `window.start - longest` reaches the window;
    /// the running records are the slice's.
    func recordsSource(
        of subject: ModelSubject, overlapping window: TimeInterval64? = nil
    ) -> (source: ProjectionSource, lastAt: Instant)? {
        do {
            return try database.reading { () throws(ReadModelError) -> (ProjectionSource, Instant)? in
                guard let state = try head(of: subject) else { return nil }
                let records: [Record]
                if let window {
                    let earliest = window.start.milliseconds - (try longestRecord())
                    var found = try self.records(
                        where: "start_ms >= ? AND start_ms < ? AND end_ms >= ? ORDER BY start_ms, id",
                        .integer(earliest), .integer(window.end.milliseconds), .integer(window.start.milliseconds))
                    found += state.running.filter { window.overlaps($0) }
                    records = found.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
                } else {
                    records = try self.records(where: "1 ORDER BY start_ms, id")
                }
                return (
                    ProjectionSource(
                        calendar: state.calendar, tags: state.tags, records: records,
                        recentTagIds: state.recentTagIds), state.lastAt
                )
            }
        } catch {
            return nil
        }
    }
}

extension ReadModel {
    /// Begins a read transaction that lasts until ``endStreaming()`` and returns what a read at the head takes
    /// when the read models reflect `subject` as it is now; nil (with the transaction still open) when they do
    /// not.
    func beginStreaming(of subject: ModelSubject) -> ModelHead? {
        guard (try? database.execute("BEGIN")) != nil else { return nil }
        return (try? head(of: subject)) ?? nil
    }

    func endStreaming() {
        try? database.execute("COMMIT")
    }

    /// Calls `body` with every record whose start is in `[from, before)` milliseconds, by start, then id.
    func scanRecords(from: Int64, before: Int64, _ body: (Record) -> Void) throws(ReadModelError) {
        let rows = try database.statement(
            "SELECT id, start_ms, end_ms, tag_id, comment FROM records WHERE start_ms >= ? AND start_ms < ? "
                + "ORDER BY start_ms, id")
        try rows.bind(.integer(from), .integer(before))
        while try rows.step() { body(try Self.record(at: rows)) }
    }
}
