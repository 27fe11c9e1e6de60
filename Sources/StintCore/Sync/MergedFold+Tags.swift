/// The tag events of the merged fold: rules 6, 7 and 8 (decision 0007 §7.2's table).
extension MergedFold {
    mutating func mutateTag(_ event: DomainEvent, _ ref: EventRef) -> [DomainEvent] {
        switch event {
        case .tagCreated(let id, let name, let color):
            let holders = nameHolders(name, other: id)
            // A name another tag holds is kept by both (rule 8, listed): only a taken id is not applied.
            if TagRules.create(base.tags[id], nameTaken: !holders.isEmpty) == .violates(.idTaken),
                let tag = base.tags[id]
            {
                // Rule 6: the same derived id created again: one tag, the colour of the last in merge order.
                if tag.color != color {
                    list(
                        6, .tag(id),
                        .createdTwice(
                            name: tag.name, first: tagCreatedBy[id] ?? ref, second: ref, color: color, colorBy: ref))
                    base.tags[id]!.color = color
                    tagColoredBy[id] = ref
                }
                return []
            }
            listSharedName(name, of: id, ref, holders: holders)
            base.tags[id] = Tag(id: id, name: name, color: color)
            base.tagNameOrder[id] = ref.position
            tagCreatedBy[id] = ref
            tagNamedBy[id] = (ref, false)
            tagColoredBy[id] = ref
            return [.tagDeleted(tagId: id)]
        case .tagRenamed(let id, let name):
            guard let tag = base.tags[id], tag.name != name else { return [] }
            if let previous = tagNamedBy[id], previous.renamed, !knew(ref.device, previous.ref) {
                list(7, .tag(id), .renameLost(lost: tag.name, lostBy: previous.ref, won: name, wonBy: ref))
            }
            if !tag.isDeleted { listSharedName(name, of: id, ref, holders: nameHolders(name, other: id)) }
            base.tags[id]!.name = name
            base.tagNameOrder[id] = ref.position
            tagNamedBy[id] = (ref, true)
            return tag.isDeleted ? [] : [.tagRenamed(tagId: id, name: tag.name)]
        // A tag event that does not fit (an unknown or deleted tag, archived twice) is ignored silently.
        case .tagArchived(let id):
            guard TagRules.archive(base.tags[id]) == .apply else { return [] }
            base.tags[id]!.isArchived = true
            return [.tagUnarchived(tagId: id)]
        case .tagUnarchived(let id):
            guard TagRules.unarchive(base.tags[id]) == .apply else { return [] }
            base.tags[id]!.isArchived = false
            return [.tagArchived(tagId: id)]
        case .tagDeleted(let id):
            guard TagRules.delete(base.tags[id]) == .apply else { return [] }
            base.tags[id]!.isDeleted = true
            return [.tagRestored(tagId: id)]
        case .tagRestored(let id):
            let holders = base.tags[id].map { nameHolders($0.name, other: id) } ?? []
            guard TagRules.restore(base.tags[id], nameTaken: !holders.isEmpty) != .violates(.notDeleted) else {
                return []
            }
            listSharedName(base.tags[id]!.name, of: id, ref, holders: holders)
            base.tags[id]!.isDeleted = false
            return [.tagDeleted(tagId: id)]
        default:
            return []
        }
    }

    /// The live tags other than `id` that hold `name`.
    private func nameHolders(_ name: String, other id: EntityID) -> [Tag] {
        let key = InputLimits.nameKey(name)
        return base.tags.values.filter { $0.id != id && !$0.isDeleted && InputLimits.nameKey($0.name) == key }
    }

    /// Rule 8: `name` about to be held by tag `id` too, when other live tags (`holders`) hold it: all keep it.
    private mutating func listSharedName(_ name: String, of id: EntityID, _ ref: EventRef, holders: [Tag]) {
        guard let holder = holders.min(by: { base.nameRank($0.id) < base.nameRank($1.id) }) else { return }
        list(
            8, .name(name),
            .nameShared(
                name: name, holder: holder.id, since: tagNamedBy[holder.id]?.ref, other: id, otherBy: ref,
                shownAs: "\(name) (\(holders.count + 1))"))
    }
}
