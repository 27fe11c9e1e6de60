/// What a rule says of an event against the state a fold holds: it applies, or it violates a precondition.
/// Every fold asks the same rule and decides what a violation means for it (issue 35,
/// docs/decisions/0009-one-seam.md): the strict folds (`LogState`, `CompactFold`, `ProjectionState`) refuse
/// the event as damage, the merged fold of a space ignores it and lists a conflict, or applies it its own way
/// where decision 0007 says so.
public enum RuleVerdict<Violation: Hashable & Sendable>: Hashable, Sendable {
    case apply
    case violates(Violation)
}

/// What a fold knows of the record an event names, in the terms the rules need: every fold can say it from
/// what it holds (a dictionary of records, columns by a dense number, the merged fold's record table).
public enum RecordPresence: Hashable, Sendable {
    /// No record has that id (never created, or an import withdrawn).
    case unknown
    /// The record was deleted (`record.deleted`, `timer.canceled`).
    case deleted
    /// The record is live; `start` is its start, `running` whether it has no end.
    case live(start: Instant, running: Bool)
}

/// The preconditions of every record event (decision 0009, step 1): here those that name a record by its id
/// alone; `RecordRules+Values.swift` those that carry its values.
public enum RecordRules {
    public enum Violation: Hashable, Sendable {
        /// The record is not live: unknown, or deleted when `deleted`.
        case notLive(deleted: Bool)
        /// The record is live but has ended.
        case notRunning
        /// The end given is before the record's start.
        case endsBeforeStart
        /// A new record's id is taken: by a live record, or by a deleted one when `deleted` (never reused).
        case idTaken(deleted: Bool)
        /// A restore of a record that is not deleted.
        case notDeleted
        /// A re-import or unimport of a record that was not imported.
        case notImported
        /// The tag given does not exist.
        case tagUnknown
        /// The tag given is deleted, where a deleted tag is not allowed.
        case tagDeleted
    }

    /// `timer.stopped`: the record is live and running, and the end is not before its start.
    public static func stop(_ record: RecordPresence, end: Instant) -> RuleVerdict<Violation> {
        guard case .live(let start, let running) = record else { return .violates(notLive(record)) }
        guard running else { return .violates(.notRunning) }
        return end < start ? .violates(.endsBeforeStart) : .apply
    }

    /// `timer.canceled`: the record is live and running.
    public static func cancel(_ record: RecordPresence) -> RuleVerdict<Violation> {
        guard case .live(_, let running) = record else { return .violates(notLive(record)) }
        return running ? .apply : .violates(.notRunning)
    }

    /// `record.deleted`: the record is live.
    public static func delete(_ record: RecordPresence) -> RuleVerdict<Violation> {
        guard case .live = record else { return .violates(notLive(record)) }
        return .apply
    }

    private static func notLive(_ record: RecordPresence) -> Violation {
        .notLive(deleted: record == .deleted)
    }
}
