/// What a fold knows of the tag a record event gives, in the terms the rules need.
public enum TagPresence: Hashable, Sendable {
    /// No tag has that id.
    case unknown
    /// The tag was deleted (`tag.deleted`).
    case deleted
    /// The tag is live (archived or not).
    case live
}

/// The preconditions of the record events that carry a record's values (decision 0009, step 1b): a new record
/// (`timer.started`, `record.tracked`, `record.imported`), new values for a live one (`record.edited`,
/// `record.reimported`), a deleted one back (`record.restored`), an import withdrawn (`record.unimported`).
/// Each checks, in this order, the record, then its span, then its tag (`tag` nil: no tag).
extension RecordRules {
    /// A new record: its id was never used (an unimported record's id is free again), its end is not before its
    /// start, and its tag exists — and is not deleted unless `allowsDeletedTag` (`record.tracked` and
    /// `record.imported` allow one: `split` copies the tag of a record whose tag was deleted since).
    public static func create(
        _ record: RecordPresence, start: Instant, end: Instant?, tag: TagPresence?, allowsDeletedTag: Bool
    ) -> RuleVerdict<Violation> {
        switch record {
        case .live: return .violates(.idTaken(deleted: false))
        case .deleted: return .violates(.idTaken(deleted: true))
        case .unknown: return values(start: start, end: end, tag: tag, allowsDeletedTag: allowsDeletedTag)
        }
    }

    /// `record.edited`: the record is live, its new end is not before its new start, its tag exists.
    public static func edit(
        _ record: RecordPresence, start: Instant, end: Instant?, tag: TagPresence?
    ) -> RuleVerdict<Violation> {
        guard case .live = record else { return .violates(.notLive(deleted: record == .deleted)) }
        return values(start: start, end: end, tag: tag, allowsDeletedTag: true)
    }

    /// `record.restored`: the record is deleted, and the values it comes back with fit.
    public static func restore(
        _ record: RecordPresence, start: Instant, end: Instant?, tag: TagPresence?
    ) -> RuleVerdict<Violation> {
        guard record == .deleted else { return .violates(.notDeleted) }
        return values(start: start, end: end, tag: tag, allowsDeletedTag: true)
    }

    /// `record.reimported`: the record is live and was imported, and its new values fit.
    public static func reimport(
        _ record: RecordPresence, imported: Bool, start: Instant, end: Instant?, tag: TagPresence?
    ) -> RuleVerdict<Violation> {
        guard case .live = record else { return .violates(.notLive(deleted: record == .deleted)) }
        guard imported else { return .violates(.notImported) }
        return values(start: start, end: end, tag: tag, allowsDeletedTag: true)
    }

    /// `record.unimported`: the record is live and was imported.
    public static func unimport(_ record: RecordPresence, imported: Bool) -> RuleVerdict<Violation> {
        guard case .live = record else { return .violates(.notLive(deleted: record == .deleted)) }
        return imported ? .apply : .violates(.notImported)
    }

    private static func values(
        start: Instant, end: Instant?, tag: TagPresence?, allowsDeletedTag: Bool
    ) -> RuleVerdict<Violation> {
        if let end, end < start { return .violates(.endsBeforeStart) }
        switch tag {
        case nil, .live: return .apply
        case .unknown: return .violates(.tagUnknown)
        case .deleted: return allowsDeletedTag ? .apply : .violates(.tagDeleted)
        }
    }
}
