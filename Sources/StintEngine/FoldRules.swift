import StintCore

/// Which fold a store's events go through (docs/decisions/0007 §7): the one place that chooses, so that a
/// space switches to the merged fold by changing ``spaces``.
enum FoldRules: Hashable, Sendable {
    /// ``LogState/apply(_:)``: an event that does not fit the state is damage. The fold of a single log.
    case strict

    /// The fold of a space's merged history. Decision 0007 §7.2 gives spaces the merged fold
    /// (`LogState.applyMerged`, plan step 5); until it exists they use the strict fold, which folds every
    /// merged history whose devices' events do not conflict.
    static let spaces: FoldRules = .strict

    /// The rules for the events of `store`.
    static func of(_ store: any EventStore) -> FoldRules {
        store is MergedStore ? .spaces : .strict
    }

    /// Applies `event` to `state` by these rules.
    func apply(_ event: RecordedEvent, to state: inout LogState) throws(DomainError) {
        switch self {
        case .strict: try state.apply(event)
        }
    }
}
