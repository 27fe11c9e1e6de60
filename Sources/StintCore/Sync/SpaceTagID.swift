extension EntityID {
    /// The id of a tag created on a space (decision 0007 §8, rule 6): the same on every device that creates a
    /// tag of that name, so that two devices creating "writing" offline make one tag.
    ///
    /// `derived(namespace: space, name: casefold(name) + "\n" + k)` with the name case-folded as tag names are
    /// compared (``InputLimits``), `k` written in decimal: the `k`-th tag of that name (0 for the first; a
    /// name given again after its tag was deleted or renamed takes the next `k`).
    ///
    /// ```swift
    /// EntityID.spaceTag(space: spaceId, name: "Writing", k: 0) == EntityID.spaceTag(space: spaceId, name: "writing", k: 0)
    /// ```
    public static func spaceTag(space: EntityID, name: String, k: Int) -> EntityID {
        derived(namespace: space, name: Array((InputLimits.nameKey(name) + "\n" + String(k)).utf8))
    }

    /// The id a device creating a tag named `name` on `space` gives it: ``spaceTag(space:name:k:)`` with the
    /// smallest `k` whose id names no tag in `known` (the tags the device knows, deleted ones included).
    public static func newSpaceTag(space: EntityID, name: String, known: (EntityID) -> Bool) -> EntityID {
        var k = 0
        while true {
            let id = spaceTag(space: space, name: name, k: k)
            if !known(id) { return id }
            k += 1
        }
    }
}
