import StintCore
import StintLog

/// What read models reflect, and how a lockless read checks that they still do before taking them.
enum ModelSubject {
    /// A single log: the models' tail is the log's end (``LogReader/ends(as:)``).
    case log(LogReader)
    /// A replica: every device's log ends where the models say (``ReadModel/MergedMark/ends``); the closure
    /// compares them with the replica's logs.
    case replica(logsEnd: ([DeviceID: LogEnd]) -> Bool)
}

/// What a read of the records at the head takes besides the records: the log's calendar, its tags (as the
/// verbs show them: on a space, tags that share a name are told apart), the recent tags, the last event's
/// instant and the running records.
struct ModelHead {
    var calendar: LogCalendar
    var tags: [EntityID: Tag]
    var recentTagIds: [EntityID]
    var lastAt: Instant
    var running: [Record]
}

extension ReadModel {
    /// What a read at the head takes when the models reflect `subject` as it is now; nil when they do not. Read
    /// inside the caller's transaction, with the rows it reads next.
    ///
    /// - Throws: ``ReadModelError`` when the models are not readable.
    func head(of subject: ModelSubject) throws(ReadModelError) -> ModelHead? {
        switch subject {
        case .log(let reader):
            guard let tail = storedTail(), reader.ends(as: tail) else { return nil }
            let state = try slice()
            return ModelHead(
                calendar: state.calendar, tags: state.tags, recentTagIds: state.recentTagIds, lastAt: state.lastAt,
                running: state.runningRecords)
        case .replica(let logsEnd):
            guard let mark = try mergedMark(), logsEnd(mark.ends) else { return nil }
            let state = try storedHeadState().withDisplayNames()
            return ModelHead(
                calendar: state.calendar, tags: state.tags, recentTagIds: state.recentTagIds, lastAt: state.lastAt,
                running: try records(where: "end_ms IS NULL ORDER BY start_ms, id"))
        }
    }
}
