/// What ``decide(_:state:context:)`` decided: the events to append as one batch and what to tell the person.
///
/// An empty ``events`` list means there is nothing to append (the ``notices`` say why); the command still
/// succeeded.
public struct Decision: Hashable, Sendable {
    /// The events to append, in order, as one batch.
    public var events: [DomainEvent]
    /// What the command did, for the CLI to print.
    public var outcome: Outcome
    /// Things a person should know (stale ids, ambiguous local times, …).
    public var notices: [Notice]

    public init(events: [DomainEvent], outcome: Outcome, notices: [Notice] = []) {
        self.events = events
        self.outcome = outcome
        self.notices = notices
    }

    /// The drafts the writer appends.
    public var drafts: [EventDraft] { events.map(\.draft) }

    /// The tags this batch creates (a start, track, edit or tag add with a new name).
    public var createdTags: [Tag] {
        events.compactMap { event in
            guard case .tagCreated(let id, let name, let color) = event else { return nil }
            return Tag(id: id, name: name, color: color)
        }
    }
}

/// What a command did, with the records and tags as they are after it.
public enum Outcome: Hashable, Sendable {
    /// A timer started; `stopped` lists the timers a switch stopped, as they ended.
    case started(Record, stopped: [Record])
    /// These timers stopped (empty when the ids were stale; see the notices).
    case stopped([Record])
    case tracked(Record)
    case edited(before: Record, after: Record)
    case deleted(Record)
    /// The batch that started at `tx` was undone with `events`.
    case undone(tx: Int64, events: [DomainEvent])
    /// The undo batch that started at `tx` was redone with `events`.
    case redone(tx: Int64, events: [DomainEvent])
    case tagAdded(Tag)
    case tagRenamed(before: Tag, after: Tag)
    case tagArchived(Tag)
    case tagUnarchived(Tag)
    case tagDeleted(Tag)
    /// A timer started with the tag and comment of `from`; `stopped` lists the timers a switch stopped.
    case continued(Record, from: Record, stopped: [Record])
    case canceled(Record)
    /// A record was cut in two; `earlier` has the new id.
    case split(earlier: Record, later: Record)
    /// Two records became `record`; `removed` was deleted.
    case joined(Record, removed: Record)
    /// Records were imported; what changed and what was left alone.
    case imported(ImportChanges)
    /// Nothing to do; the notices say why.
    case unchanged
}

/// What a decision may read besides the state: the current instant and a source of new ids.
///
/// Nothing in the domain reads the clock or generates ids on its own, so tests pass fixed values.
public struct DecisionContext {
    /// The current instant (the CLI's clock, or `STINT_NOW`).
    public var now: Instant
    /// Returns a new id each call; called once per created tag, then once per created record, in event order
    /// (on a space, tags take derived ids instead: see ``space``).
    public var newID: () -> EntityID
    /// The space the decision is for, nil for a single log. On a space a new tag's id is derived from the
    /// space and the tag's name (`EntityID.newSpaceTag`), so that devices creating the same name offline
    /// make one tag (decision 0007 §8, rule 6). The device that decides is told by the state it decides on:
    /// `MergedFold.state(for:)`, whose undo and redo stacks are that device's (rule 11).
    public var space: EntityID?

    public init(now: Instant, newID: @escaping () -> EntityID, space: EntityID? = nil) {
        self.now = now
        self.newID = newID
        self.space = space
    }
}
