import StintCore

/// Which fold a store's events go through (docs/decisions/0007 §7). A single log's are folded by the
/// strict rules; a space's replica (``MergedStore``) keeps a ``MergedFold`` instead (``TimeLog``,
/// ``MergedHistory``), whose rules apply every event in every state.
enum FoldRules: Hashable, Sendable {
    /// ``LogState/apply(_:)``: an event that does not fit the state is damage. The fold of a single log.
    case strict

    /// The rules for the events of `store`.
    static func of(_ store: any EventStore) -> FoldRules { .strict }

    /// Applies `event` to `state` by these rules.
    func apply(_ event: RecordedEvent, to state: inout LogState) throws(DomainError) {
        switch self {
        case .strict: try state.apply(event)
        }
    }
}
