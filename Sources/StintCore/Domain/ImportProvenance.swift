/// Where an imported record came from, and the values its source gave it when it was last imported.
///
/// The fold keeps one for every record added by `record.imported` (also after the record is deleted, so
/// that undoing the delete keeps it) and drops it with `record.unimported`. The next import compares the
/// source's values with ``values`` to tell a change made in the source from one made in Stint: see
/// `docs/import-export.md`.
public struct ImportProvenance: Hashable, Sendable {
    /// The system and the interval's identity there.
    public var source: ImportSource
    /// The values of the last `record.imported` or `record.reimported` of the record: the source's values,
    /// before any edit made in Stint.
    public var values: Record
    /// The name of the values' tag when they were imported (a later rename in Stint does not change it);
    /// nil for untagged values.
    public var tagName: String?

    public init(source: ImportSource, values: Record, tagName: String?) {
        self.source = source
        self.values = values
        self.tagName = tagName
    }
}
