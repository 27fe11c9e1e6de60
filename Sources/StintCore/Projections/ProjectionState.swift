/// What the widget projections need of a log at a point, and nothing older: the tags, the recent tags,
/// the running records and the records that started since the *horizon* — the start of the earliest
/// summary window (``WidgetPeriod/earliestStart(at:calendar:)``) around the point, less a day.
///
/// `WidgetData`, its summaries and timeline, and the Live Activity content read records only by their
/// start in that window (today lies inside it) and the running ones. The window's start never moves
/// back as `now` moves forward, so a state cut at its point's horizon serves every `now` at or after the
/// point: its projection source gives the same snapshot, summary, timeline and Live Activity content as
/// the full ``LogState``'s. That makes it small — about a month of records, whatever the length of the
/// history — and cheap to save along a log, so a historical read starts close to its point.
///
/// The fold (``apply(_:)``) can work without the older records because every event that gives a record
/// values carries all of them (`record.edited`, `record.restored`, `record.imported`,
/// `record.reimported`; docs: Events/README.md), and the events that carry only an id either remove a
/// record or stop a running one, which is always kept. Like ``LogState/apply(_:)`` it trusts the envelope
/// (`seq` order, `at` never going back, whole batches), which the store or log reader it folds from checks;
/// and it trusts the events otherwise — it cannot tell whether an edited record was deleted long ago — so it
/// folds only logs the strict ``LogState`` fold has accepted up to a checkpoint; any surprise is an error,
/// and the caller then falls back to the strict fold.
public struct ProjectionState: Hashable, Sendable {
    /// The settings from `log.created`.
    public let settings: LogSettings
    /// Every tag ever created, archived and deleted ones included, by id.
    public private(set) var tags: [EntityID: Tag]
    /// The records that are not deleted and that are running or started at or after ``horizon``, by id
    /// (and any older record an event gave values to since the last ``prune()``).
    public private(set) var records: [EntityID: Record]
    /// Tag ids by their last use, newest first, as ``LogState/recentTagIds``.
    public private(set) var recentTagIds: [EntityID]
    /// Records that are not running and started before this instant were left out.
    public private(set) var horizon: Instant
    /// The `seq` and `at` of the last applied event.
    public private(set) var lastSeq: Int64
    public private(set) var lastAt: Instant
    /// ``LogState/resumedAfterRepair``. After a repair's gap the strict fold ignores the events that name what
    /// the lost ones made, and this fold cannot tell them (it does not hold the older records), so it folds no
    /// event from there on: ``apply(_:)`` refuses, and the caller folds the strict state instead.
    public private(set) var resumedAfterRepair: Int64?

    /// The projection state of `state`, cut at its horizon.
    public init(_ state: LogState) {
        let horizon = ProjectionState.horizon(at: state.lastAt, calendar: state.calendar)
        self.init(
            settings: state.settings, tags: state.tags,
            records: state.records.filter { $0.value.isRunning || $0.value.start >= horizon },
            recentTagIds: state.recentTagIds, horizon: horizon, lastSeq: state.lastSeq, lastAt: state.lastAt,
            resumedAfterRepair: state.resumedAfterRepair)
    }

    init(
        settings: LogSettings, tags: [EntityID: Tag], records: [EntityID: Record], recentTagIds: [EntityID],
        horizon: Instant, lastSeq: Int64, lastAt: Instant, resumedAfterRepair: Int64?
    ) {
        self.settings = settings
        self.tags = tags
        self.records = records
        self.recentTagIds = recentTagIds
        self.horizon = horizon
        self.lastSeq = lastSeq
        self.lastAt = lastAt
        self.resumedAfterRepair = resumedAfterRepair
    }

    /// The log's calendar.
    public var calendar: LogCalendar { settings.calendar }

    /// The start of the day before the earliest summary window around `instant`: no projection at or
    /// after `instant` reads a completed record that started before it.
    public static func horizon(at instant: Instant, calendar: LogCalendar) -> Instant {
        let earliest = WidgetPeriod.earliestStart(at: instant, calendar: calendar)
        return calendar.startOfDay(calendar.date(of: earliest).adding(days: -1))
    }

    /// What the projections are computed from; records ordered by start, then id, as
    /// ``LogState/projectionSource`` orders them.
    public var projectionSource: ProjectionSource {
        ProjectionSource(
            calendar: calendar, tags: tags,
            records: records.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }, recentTagIds: recentTagIds)
    }

    /// Moves the horizon up to the last event's and drops the records that fell behind it.
    public mutating func prune() {
        let horizon = ProjectionState.horizon(at: lastAt, calendar: calendar)
        guard horizon > self.horizon else { return }
        self.horizon = horizon
        records = records.filter { $0.value.isRunning || $0.value.start >= horizon }
    }

    /// Applies the next event of the log, which must follow ``lastSeq`` and ``lastAt`` (the envelope is the
    /// store's to check, as for ``LogState/apply(_:)``).
    ///
    /// - Throws: ``DomainError`` (damaged) when the event cannot be decoded, is a second `log.created`, or
    ///   stops a record this state does not hold; the state is then unchanged.
    public mutating func apply(_ event: RecordedEvent) throws(DomainError) {
        let domain = try DomainEvent(event)
        if resumedAfterRepair != nil || event.resumePoint != nil {
            throw DomainError(
                .inconsistentEvent, "after a repair's gap the projections are folded from the strict state",
                seq: event.seq)
        }
        switch domain {
        case .logCreated:
            throw DomainError(.inconsistentEvent, "log.created may only be the first event of a log", seq: event.seq)
        case .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            break
        case .tagCreated(let id, let name, let color):
            tags[id] = Tag(id: id, name: name, color: color)
        case .tagRenamed(let id, let name):
            tags[id]?.name = name
        case .tagArchived(let id):
            tags[id]?.isArchived = true
        case .tagUnarchived(let id):
            tags[id]?.isArchived = false
        case .tagDeleted(let id):
            tags[id]?.isDeleted = true
        case .tagRestored(let id):
            tags[id]?.isDeleted = false
        case .timerStarted(let id, let start, let tagId, let comment):
            records[id] = Record(id: id, start: start, tagId: tagId, comment: comment)
            noteUse(of: tagId)
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            records[id] = Record(id: id, start: start, end: end, tagId: tagId, comment: comment)
            noteUse(of: tagId)
        case .timerStopped(let id, let end):
            // The projections fold a log already checked: only what they need is checked here, so a stop before
            // the start is the checked fold's to refuse.
            let presence = records[id].map { RecordPresence.live(start: $0.start, running: $0.isRunning) } ?? .unknown
            switch RecordRules.stop(presence, end: end) {
            case .apply, .violates(.endsBeforeStart): break
            case .violates:
                // Not live, or not running (a stop gives no other violation).
                throw DomainError(.inconsistentEvent, "record \(id) is not a running record here", seq: event.seq)
            }
            records[id]!.end = end
        case .recordEdited(let record, _), .recordRestored(let record), .recordReimported(let record, _):
            records[record.id] = record
        case .recordImported(let record, _):
            records[record.id] = record
            noteUse(of: record.tagId)
        case .timerCanceled(let id), .recordDeleted(let id), .recordUnimported(let id):
            records[id] = nil
        }
        lastSeq = event.seq
        lastAt = event.at
    }

    /// As ``LogState``'s fold: the tag moves to the front of the recent tags.
    private mutating func noteUse(of tagId: EntityID?) {
        LogState.noteUse(of: tagId, in: &recentTagIds)
    }
}
