/// The preconditions of the tag events (decision 0009, step 1): every fold asks these and decides what a
/// violation means for it (``RuleVerdict``). Whether a name is taken — by another tag that is not deleted,
/// names compared as ``InputLimits/nameKey(_:)`` does — each fold says from its own index of names.
public enum TagRules {
    public enum Violation: Hashable, Sendable {
        /// No tag has that id, or it was deleted.
        case notLive
        /// `tag.archived` of an archived tag.
        case alreadyArchived
        /// `tag.unarchived` of a tag that is not archived.
        case notArchived
        /// `tag.created` with the id of a tag that exists (deleted or not).
        case idTaken
        /// `tag.restored` of a tag that is not deleted (or unknown).
        case notDeleted
        /// The name the event gives the tag is held by another live tag.
        case nameTaken
    }

    /// `tag.created`: no tag has the id, and no other live tag has the name. `existing` is the tag with the id.
    public static func create(_ existing: Tag?, nameTaken: Bool) -> RuleVerdict<Violation> {
        if existing != nil { return .violates(.idTaken) }
        return nameTaken ? .violates(.nameTaken) : .apply
    }

    /// `tag.renamed`: the tag is live, and no other live tag has the new name.
    public static func rename(_ tag: Tag?, nameTaken: Bool) -> RuleVerdict<Violation> {
        guard let tag, !tag.isDeleted else { return .violates(.notLive) }
        return nameTaken ? .violates(.nameTaken) : .apply
    }

    /// `tag.restored`: the tag is deleted, and no live tag has taken its name since.
    public static func restore(_ tag: Tag?, nameTaken: Bool) -> RuleVerdict<Violation> {
        guard let tag, tag.isDeleted else { return .violates(.notDeleted) }
        return nameTaken ? .violates(.nameTaken) : .apply
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
