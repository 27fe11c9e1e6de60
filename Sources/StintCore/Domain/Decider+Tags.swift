/// tag add, rename, archive, unarchive and delete.
extension Decider {
    mutating func addTag(name text: String, color colorText: String?) throws(DomainError) -> ([DomainEvent], Outcome) {
        let name = try InputLimits.newTagName(text)
        let color = try colorText.map { (text) throws(DomainError) in try InputLimits.color(text) }
        try checkNameFree(name, except: nil)
        let tag = Tag(
            id: newTagID(named: name), name: name, color: color ?? TagPalette.color(forTagNumber: state.tags.count))
        return ([.tagCreated(tagId: tag.id, name: tag.name, color: tag.color)], .tagAdded(tag))
    }

    mutating func renameTag(name: String, to newText: String) throws(DomainError) -> ([DomainEvent], Outcome) {
        let newName = try InputLimits.newTagName(newText)
        let tag = try existingTag(named: name)
        guard newName != tag.name else {
            notices.append(Notice(.unchanged, "the tag is already named \"\(tag.name)\"; nothing changed"))
            return ([], .unchanged)
        }
        try checkNameFree(newName, except: tag.id)
        var renamed = tag
        renamed.name = newName
        return ([.tagRenamed(tagId: tag.id, name: newName)], .tagRenamed(before: tag, after: renamed))
    }

    mutating func setArchived(name: String, _ archived: Bool) throws(DomainError) -> ([DomainEvent], Outcome) {
        var tag = try existingTag(named: name)
        guard tag.isArchived != archived else {
            let state = archived ? "already archived" : "not archived"
            notices.append(Notice(.unchanged, "the tag \"\(tag.name)\" is \(state); nothing changed"))
            return ([], .unchanged)
        }
        tag.isArchived = archived
        return archived
            ? ([.tagArchived(tagId: tag.id)], .tagArchived(tag))
            : ([.tagUnarchived(tagId: tag.id)], .tagUnarchived(tag))
    }

    mutating func deleteTag(name: String) throws(DomainError) -> ([DomainEvent], Outcome) {
        var tag = try existingTag(named: name)
        tag.isDeleted = true
        return ([.tagDeleted(tagId: tag.id)], .tagDeleted(tag))
    }

    /// Refuses a name that another tag that is not deleted already has (case-insensitive).
    func checkNameFree(_ name: String, except id: EntityID?) throws(DomainError) {
        guard let other = state.tag(named: name), other.id != id else { return }
        let hint =
            other.isArchived
            ? "it is archived: unarchive it (stint tag unarchive \"\(other.name)\") or choose another name"
            : "choose another name"
        throw DomainError(.tagNameTaken, "a tag named \"\(other.name)\" already exists; \(hint)")
    }
}
