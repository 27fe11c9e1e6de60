/// The persisted name of every domain event type, and the schema version this build writes.
///
/// The raw values are what the log stores in an event's `type`; they are spelled out here so that
/// renaming a Swift case can never change a persisted name. Events/README.md describes each one.
public enum EventType: String, CaseIterable, Hashable, Sendable {
    case logCreated = "log.created"
    case tagCreated = "tag.created"
    case tagRenamed = "tag.renamed"
    case tagArchived = "tag.archived"
    case tagUnarchived = "tag.unarchived"
    case tagDeleted = "tag.deleted"
    case tagRestored = "tag.restored"
    case timerStarted = "timer.started"
    case timerStopped = "timer.stopped"
    case timerCanceled = "timer.canceled"
    case recordTracked = "record.tracked"
    case recordEdited = "record.edited"
    case recordDeleted = "record.deleted"
    case recordRestored = "record.restored"
    case recordImported = "record.imported"
    case recordReimported = "record.reimported"
    case recordUnimported = "record.unimported"
    case commandUndone = "command.undone"
    case commandRedone = "command.redone"

    /// The schema version of this type's payload that this build writes and decodes natively.
    ///
    /// Older versions are upgraded on read through ``EventUpgrades``; a newer version is refused.
    public var currentVersion: Int {
        switch self {
        case .logCreated, .tagCreated, .tagRenamed, .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored,
            .timerStarted, .timerStopped, .timerCanceled, .recordTracked, .recordEdited, .recordDeleted,
            .recordRestored, .recordImported, .recordReimported, .recordUnimported, .commandUndone, .commandRedone:
            return 1
        }
    }
}
