/// A fact about a log, decoded from (or about to become) the payload of one event.
///
/// Each case is one persisted ``EventType``. Instants and ids are typed values here; their text forms
/// are fixed by the canonical encoding (``draft``), so an event always has exactly one byte form.
/// Cases whose payload is a record's complete values (`record.edited`, `record.restored`) carry a
/// ``Record``; `record.tracked` spells its members out because its `end` is required.
public enum DomainEvent: Hashable, Sendable {
    /// The log exists, with these settings. Always the first event (`seq` 1).
    case logCreated(LogSettings)
    /// A tag was created with a name and a color (`#RRGGBB`).
    case tagCreated(tagId: EntityID, name: String, color: String)
    /// A tag has a new name.
    case tagRenamed(tagId: EntityID, name: String)
    /// A tag is no longer offered for new time.
    case tagArchived(tagId: EntityID)
    /// An archived tag is offered again.
    case tagUnarchived(tagId: EntityID)
    /// A tag was deleted; it is kept so history can name it, and its records count as untagged.
    case tagDeleted(tagId: EntityID)
    /// A deleted tag is back (the undo of a delete).
    case tagRestored(tagId: EntityID)
    /// A timer started: a new record without an end.
    case timerStarted(recordId: EntityID, start: Instant, tagId: EntityID?, comment: String?)
    /// A running timer stopped at `end`.
    case timerStopped(recordId: EntityID, end: Instant)
    /// A running timer was dropped as if it never ran.
    case timerCanceled(recordId: EntityID)
    /// A completed record was added.
    case recordTracked(recordId: EntityID, start: Instant, end: Instant, tagId: EntityID?, comment: String?)
    /// A record now has these complete values (an absent end means it runs again); `fields` are the members
    /// the command set (all four for an edit written before version 2).
    case recordEdited(Record, fields: RecordFields)
    /// A record was deleted.
    case recordDeleted(recordId: EntityID)
    /// A deleted record is back with these complete values (the undo of a delete or a cancel).
    case recordRestored(Record)
    /// A record was imported from another time tracker: a new record (running when it has no end) whose
    /// values are the source's, and the interval of the source it stands for.
    case recordImported(Record, source: ImportSource)
    /// A record imported earlier was imported again with the source's new values (complete), which become
    /// both the record's values and the values remembered as the source's.
    case recordReimported(Record, source: ImportSource)
    /// An imported record was withdrawn (the undo of its import): it is gone, and its id may be imported again.
    case recordUnimported(recordId: EntityID)
    /// The batch that starts here undoes the batch that started at `tx`; the compensating events follow.
    case commandUndone(tx: Int64)
    /// The batch that starts here redoes the undo batch that started at `tx`; the compensating events follow.
    case commandRedone(tx: Int64)
    /// This device joined the space `spaceId` (the first event of a joining device's log); `name` is its host
    /// name, for `stint devices`. Bookkeeping: changes no record or tag and is never undone.
    case deviceJoined(spaceId: EntityID, device: DeviceID, name: String?)
    /// This log continues device `from`'s branch after its `seq` `upTo`, whose line hashes to `head`: the
    /// first event of a device created by fork-off (decision 0007 §6.3). Bookkeeping.
    case deviceForked(from: DeviceID, upTo: Int64, head: String)
    /// This device now holds device `from`'s log up to `seq` `upTo`, whose line hashes to `head` (one event per
    /// device of an ingestion, decision 0007 §6.4). Bookkeeping.
    case syncIngested(from: DeviceID, upTo: Int64, head: String)
    /// `stint repair` cut the log after `seq` `from - 1`: the events from `from` to (at least) `to` were set aside
    /// as damaged (docs/log-format.md §5.7); `reason` is the damage found. Bookkeeping: the fold goes on from
    /// the events before it, as if the lost ones had never been written. With a `resume` point (version 2), the
    /// events the salvage kept after the gap follow this one, the first of them at that `seq` with that `prev`.
    case logRepaired(from: Int64, to: Int64, reason: String, resume: ResumePoint?)

    /// The persisted type of this event.
    public var type: EventType {
        switch self {
        case .logCreated: return .logCreated
        case .tagCreated: return .tagCreated
        case .tagRenamed: return .tagRenamed
        case .tagArchived: return .tagArchived
        case .tagUnarchived: return .tagUnarchived
        case .tagDeleted: return .tagDeleted
        case .tagRestored: return .tagRestored
        case .timerStarted: return .timerStarted
        case .timerStopped: return .timerStopped
        case .timerCanceled: return .timerCanceled
        case .recordTracked: return .recordTracked
        case .recordEdited: return .recordEdited
        case .recordDeleted: return .recordDeleted
        case .recordRestored: return .recordRestored
        case .recordImported: return .recordImported
        case .recordReimported: return .recordReimported
        case .recordUnimported: return .recordUnimported
        case .commandUndone: return .commandUndone
        case .commandRedone: return .commandRedone
        case .deviceJoined: return .deviceJoined
        case .deviceForked: return .deviceForked
        case .syncIngested: return .syncIngested
        case .logRepaired: return .logRepaired
        }
    }

    /// Whether the event is bookkeeping (`device.joined`, `device.forked`, `sync.ingested` of a space, and
    /// `log.repaired`): it changes no record or tag, its batch is never on an undo stack, and it clears no redo
    /// stack.
    public var isBookkeeping: Bool {
        switch self {
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired: return true
        default: return false
        }
    }

    /// The event as the writer appends it: its type, the current schema version, and the canonical payload.
    public var draft: EventDraft {
        EventDraft(type: type.rawValue, version: type.currentVersion, data: data)
    }
}
