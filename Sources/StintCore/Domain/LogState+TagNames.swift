/// Tag names shared by several live tags, which only the merged fold of a space produces (decision 0007 §8,
/// rule 8): lookups take the tag whose current name was set first in merge order, listings show the others
/// as `NAME (2)`, `NAME (3)` in that order.
extension LogState {
    /// Where a tag stands among tags of the same name: the position of the event that set its current name
    /// (``tagNameOrder``; tags the strict fold made have none and rank by id only, their names being unique),
    /// then its id.
    func nameRank(_ id: EntityID) -> (Int64, EntityID) {
        (tagNameOrder[id] ?? 0, id)
    }

    /// The live tags named `name` (case-insensitively), the one a lookup takes first.
    public func tags(named name: String) -> [Tag] {
        let key = InputLimits.nameKey(name)
        return tags.values.filter { !$0.isDeleted && InputLimits.nameKey($0.name) == key }
            .sorted { nameRank($0.id) < nameRank($1.id) }
    }

    /// The name listings show for tag `id`: its name, or `NAME (n)` when it is the n-th live tag holding that
    /// name (n ≥ 2; rule 8). A deleted or unknown tag's name as it is.
    public func displayName(of id: EntityID) -> String? {
        guard let tag = tags[id] else { return nil }
        guard !tag.isDeleted, !tagNameOrder.isEmpty else { return tag.name }
        let holders = tags(named: tag.name)
        guard let index = holders.firstIndex(where: { $0.id == id }), index > 0 else { return tag.name }
        return "\(tag.name) (\(index + 1))"
    }

    /// The state as listings show it: each tag that shares its name with live tags whose name was set before
    /// (rule 8) carries ``displayName(of:)`` (`NAME (2)`), so that every output tells them apart. Lookups keep
    /// using the state itself. Unchanged when no name is shared.
    public func withDisplayNames() -> LogState {
        guard !tagNameOrder.isEmpty else { return self }
        var shown = self
        for id in tags.keys {
            if let name = displayName(of: id), name != tags[id]?.name { shown.tags[id]?.name = name }
        }
        return shown
    }
}
