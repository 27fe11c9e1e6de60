extension LogState {
    /// The events that revert `event`, computed from this state (the state before `event`).
    ///
    /// The undo model in Events/README.md lists the pairs. Markers (`command.undone`, `command.redone`),
    /// `log.created` and the bookkeeping of a space have no inverse. The inverse of an edit sets the members
    /// the edit set, to their values before it (so undoing it on a space leaves another device's later change
    /// of another member alone).
    /// - Throws: ``DomainError/Code/inconsistentEvent`` when the entity the event names does not exist.
    func inverse(of event: DomainEvent) throws(DomainError) -> [DomainEvent] {
        switch event {
        case .logCreated, .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return []
        case .tagCreated(let id, _, _):
            return [.tagDeleted(tagId: id)]
        case .tagRenamed(let id, _):
            return [.tagRenamed(tagId: id, name: try existingTag(id).name)]
        case .tagArchived(let id):
            return [.tagUnarchived(tagId: id)]
        case .tagUnarchived(let id):
            return [.tagArchived(tagId: id)]
        case .tagDeleted(let id):
            return [.tagRestored(tagId: id)]
        case .tagRestored(let id):
            return [.tagDeleted(tagId: id)]
        case .timerStarted(let id, _, _, _), .recordTracked(let id, _, _, _, _):
            return [.recordDeleted(recordId: id)]
        case .recordRestored(let record):
            return [.recordDeleted(recordId: record.id)]
        case .timerStopped(let id, _):
            return [.recordEdited(try existingRecord(id), fields: .end)]
        case .recordEdited(let record, let fields):
            return [.recordEdited(try existingRecord(record.id), fields: fields)]
        case .recordDeleted(let id), .timerCanceled(let id):
            return [.recordRestored(try existingRecord(id))]
        case .recordImported(let record, _):
            return [.recordUnimported(recordId: record.id)]
        case .recordReimported(let record, _):
            return try importInverse(of: record.id, removing: false)
        case .recordUnimported(let id):
            return try importInverse(of: id, removing: true)
        }
    }

    private func existingTag(_ id: EntityID) throws(DomainError) -> Tag {
        guard let tag = tags[id] else { throw DomainError(.inconsistentEvent, "tag \(id) does not exist") }
        return tag
    }

    private func existingRecord(_ id: EntityID) throws(DomainError) -> Record {
        guard let record = records[id] else {
            throw DomainError(.inconsistentEvent, "record \(id) does not exist or is deleted")
        }
        return record
    }
}
