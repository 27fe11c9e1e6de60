/// What an import did to a log, record by record: what it added, updated and left alone, compared with
/// what the log held.
///
/// ``ImportReport`` says what the file held and how it was mapped; this says what the decision step made
/// of it against the log (`docs/import-export.md` §6). Lists are in the order of the plan's records (by
/// start, then id); ``vanished`` is by start, then id.
public struct ImportChanges: Hashable, Sendable {
    /// A value of a record that an import compares and may change.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case start, end, tag, comment
    }

    /// A record the import added.
    public struct Added: Hashable, Sendable {
        public var record: Record
        public var source: ImportSource
        public var position: ImportPosition
    }

    /// A record the source changed since it was last imported.
    public struct Updated: Hashable, Sendable {
        /// The record in the log before the import.
        public var before: Record
        /// The record after it.
        public var after: Record
        public var source: ImportSource
        public var position: ImportPosition
        /// The fields the source changed since the last import; they now have the source's values.
        public var changed: [Field]
        /// Those of ``changed`` that had also been edited in Stint, to another value: the source's value
        /// replaced the one set in Stint.
        public var overwritten: [Field]
        /// Fields edited in Stint that the source did not change: Stint's values were kept.
        public var kept: [Field]
        /// Whether the record ran and the source now shows it finished (a Timewarrior interval that was
        /// open, a Watson frame that was running).
        public var completed: Bool { before.end == nil && after.end != nil }
        /// Whether the record's values changed; false when only what the log remembers of the source did
        /// (its identity, as for a Watson frame that was running and now has an id, or values already equal).
        public var recordChanged: Bool { before != after }
    }

    /// A record that differs from the source only by edits made in Stint, which were kept.
    public struct Kept: Hashable, Sendable {
        public var record: Record
        public var source: ImportSource
        public var position: ImportPosition
        /// The fields edited in Stint.
        public var fields: [Field]
    }

    /// An interval whose record was deleted in Stint: it stays deleted.
    public struct LeftDeleted: Hashable, Sendable {
        public var recordId: EntityID
        public var source: ImportSource
        public var position: ImportPosition
    }

    /// A record imported earlier from the same system whose interval is not in the file: it is kept.
    public struct Vanished: Hashable, Sendable {
        public var record: Record
        public var source: ImportSource
    }

    /// The system the records were imported from.
    public var system: ImportSystem
    public var added: [Added]
    public var updated: [Updated]
    /// Records in the log with the source's values, untouched.
    public var unchanged: Int
    public var kept: [Kept]
    public var leftDeleted: [LeftDeleted]
    public var vanished: [Vanished]
    /// Tags created for names the log did not have, in the order of the records that first use them.
    public var createdTags: [Tag]

    public init(
        system: ImportSystem, added: [Added] = [], updated: [Updated] = [], unchanged: Int = 0, kept: [Kept] = [],
        leftDeleted: [LeftDeleted] = [], vanished: [Vanished] = [], createdTags: [Tag] = []
    ) {
        self.system = system
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.kept = kept
        self.leftDeleted = leftDeleted
        self.vanished = vanished
        self.createdTags = createdTags
    }

    /// Whether the import appends nothing.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && createdTags.isEmpty }
}
