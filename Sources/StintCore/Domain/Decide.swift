/// Decides what a command does to a log: the events to append as one batch, or a refusal.
///
/// Pure: reads only `state` and `context` (the current instant and the id generator), never the clock.
/// Nothing is appended on a refusal. Usage errors (malformed names, comments, colors, references) are
/// reported before anything is looked up in the state.
///
/// ```swift
/// let decision = try decide(.start(tag: .name("Work")), state: state, context: DecisionContext(now: now, newID: ids))
/// try writer.append(decision.drafts)
/// ```
/// - Throws: ``DomainError`` of category ``DomainError/Category/usage`` or ``DomainError/Category/refused``.
public func decide(_ command: Command, state: LogState, context: DecisionContext) throws(DomainError) -> Decision {
    var decider = Decider(state: state, context: context)
    return try decider.decide(command)
}

/// The working memory of one decision: the state, the context, and the notices gathered on the way.
struct Decider {
    let state: LogState
    let context: DecisionContext
    var notices: [Notice] = []
    /// Tags created by this decision so far (for the palette and for name lookups within the batch).
    var createdTags = 0

    init(state: LogState, context: DecisionContext) {
        self.state = state
        self.context = context
    }

    var now: Instant { context.now }
    var calendar: LogCalendar { state.calendar }

    mutating func decide(_ command: Command) throws(DomainError) -> Decision {
        let (events, outcome) = try run(command)
        return Decision(events: events, outcome: outcome, notices: notices)
    }

    private mutating func run(_ command: Command) throws(DomainError) -> ([DomainEvent], Outcome) {
        switch command {
        case .start(let tag, let comment, let at, let switching, let force):
            return try start(tag: tag, comment: comment, at: at, switching: switching, force: force)
        case .stop(let records, let all, let at, let force):
            return try stop(records: records, all: all, at: at, force: force)
        case .track(let start, let end, let tag, let comment, let force):
            return try track(start: start, end: end, tag: tag, comment: comment, force: force)
        case .edit(let record, let start, let end, let tag, let comment, let force):
            return try edit(record, start: start, end: end, tag: tag, comment: comment, force: force)
        case .delete(let record):
            return try delete(record)
        case .undo:
            return try undo()
        case .redo:
            return try redo()
        case .addTag(let name, let color):
            return try addTag(name: name, color: color)
        case .renameTag(let name, let newName):
            return try renameTag(name: name, to: newName)
        case .archiveTag(let name):
            return try setArchived(name: name, true)
        case .unarchiveTag(let name):
            return try setArchived(name: name, false)
        case .deleteTag(let name):
            return try deleteTag(name: name)
        case .continue(let record, let at, let switching, let force):
            return try continueRecord(record, at: at, switching: switching, force: force)
        case .cancel(let record):
            return try cancel(record)
        case .split(let record, let at):
            return try split(record, at: at)
        case .join(let first, let second, let force):
            return try join(first, second, force: force)
        case .import(let plan, let system, let force):
            return try importRecords(plan, from: system, force: force)
        }
    }
}
