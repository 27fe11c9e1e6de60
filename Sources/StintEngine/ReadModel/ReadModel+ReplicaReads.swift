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
    /// the fold's view takes it); nil when `logsEnd` says the logs do not end at the models' ends, or the
    /// models hold no readable merged fold.
    func mergedProjectionSource(ifLogsEnd logsEnd: ([DeviceID: LogEnd]) -> Bool, now: Instant)
        -> (source: ProjectionSource, horizon: Instant)?
    {
        try? database.reading { () throws(ReadModelError) -> (source: ProjectionSource, horizon: Instant)? in
            guard let mark = try mergedMark(), logsEnd(mark.ends) else { return nil }
            let frame = try storedFrame()
            let horizon = ProjectionState.horizon(at: min(now, frame.lastAt), calendar: frame.calendar)
            let rows = try mergedRows(
                where: "s.id IN (SELECT id FROM records WHERE end_ms IS NULL OR start_ms >= ?)",
                .integer(horizon.milliseconds))
            let fold: MergedFold
            do throws(DomainError) {
                fold = try MergedFold(parts: MergedFold.Parts(frame: frame, rows: rows))
            } catch {
                throw ReadModelError(error.message)
            }
            return (fold.projectionSource(from: horizon), horizon)
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
