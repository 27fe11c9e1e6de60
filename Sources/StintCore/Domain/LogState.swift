/// The state of a log after some prefix of its events: what decisions need and projections read.
///
/// Built by folding events in `seq` order: ``init(genesis:)`` with event 1 (`log.created`), then
/// ``apply(_:)`` for each following event. The fold is strict about the domain: an event that contradicts
/// the state is an error naming its `seq`, and a failed ``apply(_:)`` leaves the state unchanged. It trusts the
/// envelope (`seq` order without gaps, `at` never going back, whole batches): fold events as a store or a
/// log reader hands them out, since checking those is the store's job.
///
/// ```swift
/// var state = try LogState(genesis: events[0])
/// for event in events.dropFirst() { try state.apply(event) }
/// ```
public struct LogState: Hashable, Sendable {
    /// How many batches the undo stack (and so the redo stack) keeps; older ones can no longer be undone.
    public static let undoLimit = 100

    /// The settings from `log.created`.
    public internal(set) var settings: LogSettings
    /// Every tag ever created, archived and deleted ones included, by id.
    public internal(set) var tags: [EntityID: Tag]
    /// Every record that is not deleted, by id.
    public internal(set) var records: [EntityID: Record]
    /// The ids of deleted (and canceled) records: ids are never reused, and a stale reference to one of them
    /// can be told apart from a mistyped one. Ids only, 16 bytes each; the values live in the undo stack
    /// for as long as the delete can be undone, and in the log forever.
    public internal(set) var deletedRecordIds: Set<EntityID>
    /// The ids of the running records, oldest start first, then by id.
    public internal(set) var runningRecordIds: [EntityID]
    /// Tag ids by their last use in `timer.started` or `record.tracked`, newest first, without repeats.
    /// Undo does not take a use back (a tag that was just used stays recent).
    public internal(set) var recentTagIds: [EntityID]
    /// Where each imported record came from and the values its source gave it, by record id; see
    /// ``ImportProvenance``.
    public internal(set) var importProvenance: [EntityID: ImportProvenance] = [:]
    /// Batches that ``Command/undo`` can revert, the most recent last.
    public internal(set) var undoStack: [UndoEntry]
    /// Undo batches that ``Command/redo`` can revert, the most recent last.
    public internal(set) var redoStack: [UndoEntry]
    /// Per tag, the place in a space's merged order of the event that set its current name; empty for a
    /// single log, whose tag names are unique (see ``tags(named:)``).
    public internal(set) var tagNameOrder: [EntityID: Int64] = [:]
    /// The `seq` of the `log.repaired` after which the log resumes at a later `seq` (the one gap a salvage leaves,
    /// docs/log-format.md §3), once applied: the events after it may stop, edit or undo what the lost events
    /// made, so from there on an event whose preconditions fail is ignored instead of refused as damage
    /// (``apply(_:)``). Nil for a log without such a gap.
    public internal(set) var resumedAfterRepair: Int64?
    /// The `seq` of the last applied event.
    public internal(set) var lastSeq: Int64
    /// The `at` of the last applied event.
    public internal(set) var lastAt: Instant
    /// The batch the last applied event belongs to.
    var batch: OpenBatch

    /// Which stack the events of the current batch add their inverses to.
    struct OpenBatch: Hashable, Sendable {
        enum Target: Hashable, Sendable { case none, undo, redo }
        var start: Int64
        var at: Instant
        var target: Target
        /// Whether the batch's events carry `tx` (a batch of two or more); only then can another event join it.
        var grouped = false
    }

    /// The log's calendar.
    public var calendar: LogCalendar { settings.calendar }

    /// The running records, oldest start first, then by id.
    public var runningRecords: [Record] {
        runningRecordIds.compactMap { records[$0] }
    }

    /// What the projections are computed from; records ordered by start, then id.
    public var projectionSource: ProjectionSource {
        ProjectionSource(
            calendar: settings.calendar, tags: tags,
            records: records.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }, recentTagIds: recentTagIds)
    }

    /// ``projectionSource`` without the completed records that started before `horizon`, which no widget
    /// projection at an instant whose ``ProjectionState/horizon(at:calendar:)`` is `horizon` or later reads
    /// (what a ``ProjectionState`` keeps): sorting every record of a long history costs more than the
    /// projections.
    public func projectionSource(from horizon: Instant) -> ProjectionSource {
        ProjectionSource(
            calendar: settings.calendar, tags: tags,
            records: records.values.filter { $0.isRunning || $0.start >= horizon }
                .sorted { ($0.start, $0.id) < ($1.start, $1.id) },
            recentTagIds: recentTagIds)
    }

    /// The state without its records and deleted ids (everything else kept): for letting go of the records a
    /// fold shares with this state, so that the fold changes them in place instead of copying them.
    package var withoutRecords: LogState {
        var state = self
        state.records = [:]
        state.deletedRecordIds = []
        return state
    }

    /// The tag that is not deleted and whose name equals `name` case-insensitively; on a space where
    /// several hold it, the one whose name was set first in merge order (decision 0007 §8, rule 8).
    public func tag(named name: String) -> Tag? {
        guard tagNameOrder.isEmpty else { return tags(named: name).first }
        return Tag.live(named: name, in: tags)
    }

    /// The records that are not deleted and whose id starts with `reference`, by start then id.
    ///
    /// For read verbs that show a record; commands resolve references inside ``decide(_:state:context:)``.
    public func records(matching reference: RecordRef) -> [Record] {
        if let id = reference.exactID { return records[id].map { [$0] } ?? [] }
        return records.values.filter { reference.matches($0.id) }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// The completed record that ended last (by end time, then by id).
    public var lastEndedRecord: Record? {
        records.values.lazy.filter { $0.end != nil }.max { ($0.end!, $0.id) < ($1.end!, $1.id) }
    }
}

extension LogState {
    /// The state after the first event of a log, which must be `log.created` with `seq` 1.
    ///
    /// - Throws: ``DomainError`` (damaged) when the event is not a readable `log.created` at `seq` 1.
    public init(genesis event: RecordedEvent) throws(DomainError) {
        let domain = try DomainEvent(event)
        guard event.seq == 1, case .logCreated(let settings) = domain else {
            throw DomainError(
                .inconsistentEvent, "a log must begin with log.created at seq 1, not \(event.type) at seq \(event.seq)",
                seq: event.seq)
        }
        self.init(
            settings: settings, tags: [:], lastSeq: 1, lastAt: event.at,
            batch: OpenBatch(start: 1, at: event.at, target: .none, grouped: event.tx != nil))
    }

    /// A state with these settings, tags and position and nothing else: no records, no stacks.
    init(settings: LogSettings, tags: [EntityID: Tag], lastSeq: Int64, lastAt: Instant, batch: OpenBatch) {
        self.settings = settings
        self.tags = tags
        records = [:]
        deletedRecordIds = []
        runningRecordIds = []
        recentTagIds = []
        importProvenance = [:]
        undoStack = []
        redoStack = []
        self.lastSeq = lastSeq
        self.lastAt = lastAt
        self.batch = batch
    }

    /// Folds a whole log: its first event, then the others in order.
    ///
    /// - Throws: ``DomainError`` (damaged) for an empty log or the first event that cannot be applied.
    public static func fold(_ events: some Sequence<RecordedEvent>) throws(DomainError) -> LogState {
        var iterator = events.makeIterator()
        guard let first = iterator.next() else {
            throw DomainError(.inconsistentEvent, "the log has no events; it must begin with log.created")
        }
        var state = try LogState(genesis: first)
        while let event = iterator.next() { try state.apply(event) }
        return state
    }

    /// Folds `events` onto `state`, the first of them making it when it is nil (a log's first event).
    ///
    /// - Throws: ``DomainError`` for the first event that cannot be applied (or begin a log).
    @inlinable
    public static func fold(_ events: some Sequence<RecordedEvent>, onto state: inout LogState?) throws(DomainError) {
        for event in events {
            if state == nil {
                state = try LogState(genesis: event)
            } else {
                try state!.apply(event)
            }
        }
    }
}
