import StintCore
import StintLog

/// A replica's read models as the read verbs take them (decision 0010 step 5): at the merged history's head,
/// when every device's log still ends where it ended when the models were written (``MergedMark/ends``).
/// Reads take no lock: the check and the rows are read in one transaction, and a log that moved on since (an
/// ingestion by `stint sync`, a command killed before its save, another process's append) sends the read to
/// the fold from the merged checkpoints.
extension ReadModel {
    /// The widget projections' source at the merged history's head, at the instant `now`: the tags (as the
    /// space shows them), the recent tags, the running records and those that started since the projection
    /// horizon, which is taken at `now` or at the last event when another device's clock put it later (as
    /// the fold's view takes it); nil when the models do not reflect `subject` (a replica whose logs do not end
    /// at the models' ends), or hold no readable merged fold.
    func mergedProjectionSource(of subject: ModelSubject, now: Instant)
        -> (source: ProjectionSource, horizon: Instant)?
    {
        try? database.reading { () throws(ReadModelError) -> (source: ProjectionSource, horizon: Instant)? in
            // The frame's head (not its stacks) and the records by the index on their start, as a single log's
            // projections read them: the rows' stamps are for a fold that goes on.
            guard let head = try head(of: subject) else { return nil }
            let horizon = ProjectionState.horizon(at: min(now, head.lastAt), calendar: head.calendar)
            let cut = horizon.milliseconds
            let records =
                head.running.filter { $0.start.milliseconds < cut }
                + (try self.records(where: "start_ms >= ? ORDER BY start_ms, id", .integer(cut)))
            return (
                ProjectionSource(
                    calendar: head.calendar, tags: head.tags,
                    records: records.sorted { ($0.start, $0.id) < ($1.start, $1.id) }, recentTagIds: head.recentTagIds),
                horizon
            )
        }
    }

    /// Replaces the logs' ends the models hold, their mark staying: the logs hold the same events and end
    /// elsewhere (a segment sealed since).
    func setEnds(_ ends: [DeviceID: LogEnd]) throws(ReadModelError) {
        try database.statement("UPDATE merged_position SET ends = ?").bind(.text(Self.json(of: ends))).run()
    }

    /// The `ends` column of `merged_position`: `[[device, segment, size, last bytes in hex], …]` in device
    /// order.
    static func json(of ends: [DeviceID: LogEnd]) -> String {
        JSON.array(
            ends.keys.sorted().map { device in
                let end = ends[device]!
                return .array([device.json, .string(end.segment), .int(end.size), .string(hex(end.endBytes))])
            }
        ).encodedString
    }

    /// The ends the `ends` column holds.
    ///
    /// - Throws: ``ReadModelError`` when it is not what ``json(of:)`` writes.
    static func ends(fromJSON text: String?) throws(ReadModelError) -> [DeviceID: LogEnd] {
        guard let entries = try json(text).arrayValue else { throw ReadModelError("the logs' ends are not readable") }
        var ends: [DeviceID: LogEnd] = [:]
        for entry in entries {
            guard let fields = entry.arrayValue, fields.count == 4, let device = try? DeviceID(json: fields[0]),
                let segment = fields[1].stringValue, let size = fields[2].intValue,
                let bytes = fields[3].stringValue.flatMap(bytes(hex:)),
                ends.updateValue(LogEnd(segment: segment, size: size, endBytes: bytes), forKey: device) == nil
            else { throw ReadModelError("the logs' ends are not readable") }
        }
        return ends
    }
}
