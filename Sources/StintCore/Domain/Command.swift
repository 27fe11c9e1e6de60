/// What a person asked Stint to do, with every argument already parsed (but not yet checked against the log).
///
/// ``decide(_:state:context:)`` turns a command into the events to append, or a refusal. Time arguments are
/// ``ParsedTime`` values (see ``TimeArgument``); a missing time means now.
public enum Command: Hashable, Sendable {
    /// Starts a timer. `switching` stops every running timer at the new start first.
    case start(
        tag: TagChoice = .untagged, comment: String? = nil, at: ParsedTime? = nil, switching: Bool = false,
        force: Bool = false)
    /// Stops the only running timer, the given ones, or all of them.
    case stop(records: [RecordRef] = [], all: Bool = false, at: ParsedTime? = nil, force: Bool = false)
    /// Adds a completed record.
    case track(
        start: ParsedTime, end: ParsedTime, tag: TagChoice = .untagged, comment: String? = nil, force: Bool = false)
    /// Changes a record; nil leaves a value as it is, an empty comment removes the comment, `.untagged` the tag.
    case edit(
        record: RecordRef, start: ParsedTime? = nil, end: ParsedTime? = nil, tag: TagChoice? = nil,
        comment: String? = nil, force: Bool = false)
    /// Deletes a record (running or completed).
    case delete(record: RecordRef)
    /// Reverts the most recent command that is not an undo.
    case undo
    /// Reverts the most recent undo, if no other command came after it.
    case redo
    /// Creates a tag; without a color, the next one of ``TagPalette``.
    case addTag(name: String, color: String? = nil)
    /// Renames a tag; a new case of the same name is allowed.
    case renameTag(name: String, newName: String)
    /// Archives a tag: it keeps naming past time but is not offered for new timers.
    case archiveTag(name: String)
    /// Offers an archived tag again.
    case unarchiveTag(name: String)
    /// Deletes a tag: its records keep its id and count as untagged.
    case deleteTag(name: String)
    /// Starts a timer with the tag and comment of a record, by default the one that ended last.
    case `continue`(record: RecordRef? = nil, at: ParsedTime? = nil, switching: Bool = false, force: Bool = false)
    /// Drops a running timer as if it never ran.
    case cancel(record: RecordRef? = nil)
    /// Cuts a record in two at an instant strictly inside it; the earlier part gets a new id.
    case split(record: RecordRef, at: ParsedTime)
    /// Makes one record of two with the same tag and comment that touch or overlap.
    case join(first: RecordRef, second: RecordRef, force: Bool = false)
    /// Imports the records of `plan`, read from `system`: adds the new ones, updates those the source changed,
    /// and leaves alone what the log already has; `force` allows records longer than 7 days (up to 366). See
    /// `docs/import-export.md` for the rules.
    case `import`(ImportPlan, from: ImportSystem, force: Bool = false)
}

/// How a command names the tag of a new or edited record.
public enum TagChoice: Hashable, Sendable {
    /// No tag.
    case untagged
    /// A tag name, matched case-insensitively among tags that are not deleted; an unknown name creates the tag.
    case name(String)
    /// A tag id (as widgets pass it); for a new timer an unknown or deleted id means untagged.
    case id(EntityID)
}
