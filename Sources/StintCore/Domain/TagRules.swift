/// The preconditions of the tag events that name a tag by its id alone (decision 0009, step 1): every fold
/// asks these and decides what a violation means for it (``RuleVerdict``).
public enum TagRules {
    public enum Violation: Hashable, Sendable {
        /// No tag has that id, or it was deleted.
        case notLive
        /// `tag.archived` of an archived tag.
        case alreadyArchived
        /// `tag.unarchived` of a tag that is not archived.
        case notArchived
    }

    /// `tag.archived`: the tag is live and not archived. `tag` is nil when no tag has the id.
    public static func archive(_ tag: Tag?) -> RuleVerdict<Violation> {
        guard let tag, !tag.isDeleted else { return .violates(.notLive) }
        return tag.isArchived ? .violates(.alreadyArchived) : .apply
    }

    /// `tag.unarchived`: the tag is live and archived.
    public static func unarchive(_ tag: Tag?) -> RuleVerdict<Violation> {
        guard let tag, !tag.isDeleted else { return .violates(.notLive) }
        return tag.isArchived ? .apply : .violates(.notArchived)
    }

    /// `tag.deleted`: the tag is live.
    public static func delete(_ tag: Tag?) -> RuleVerdict<Violation> {
        guard let tag, !tag.isDeleted else { return .violates(.notLive) }
        return .apply
    }
}
