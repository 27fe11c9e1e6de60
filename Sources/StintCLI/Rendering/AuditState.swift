import StintCore

/// What the audit lines of `history` and `diff` read of the state around an event or a batch: the tags,
/// the records the events name as they were then, and the state's time.
///
/// Kept instead of a copy of the whole ``LogState``: holding such a copy while the fold goes on makes the
/// next event copy every record, which made `history` quadratic in the length of the log.
struct AuditState {
    private(set) var tags: [EntityID: Tag]
    private(set) var records: [EntityID: Record] = [:]
    let lastAt: Instant
    /// The ids whose record (or absence) was taken.
    private var taken: Set<EntityID> = []

    /// The tags and time of `state`, and its records named by `events`.
    init(_ state: LogState, naming events: some Sequence<DomainEvent> = []) {
        tags = state.tags
        lastAt = state.lastAt
        for event in events { take(event, from: state) }
    }

    /// Takes the records `event` names from `state`, unless they were taken before (a batch keeps the
    /// records as they were before its first event).
    mutating func take(_ event: DomainEvent, from state: LogState) {
        for id in event.namedRecordIds where taken.insert(id).inserted {
            records[id] = state.records[id]
        }
    }
}
