/// undo and redo.
extension Decider {
    mutating func undo() throws(DomainError) -> ([DomainEvent], Outcome) {
        guard let entry = state.undoStack.last else {
            throw DomainError(.nothingToUndo, "nothing to undo")
        }
        return (
            [.commandUndone(tx: entry.batchStart)] + entry.inverses,
            .undone(tx: entry.batchStart, events: entry.inverses)
        )
    }

    mutating func redo() throws(DomainError) -> ([DomainEvent], Outcome) {
        guard let entry = state.redoStack.last else {
            throw DomainError(
                .nothingToRedo, "nothing to redo: only an undo that no other command followed can be redone")
        }
        return (
            [.commandRedone(tx: entry.batchStart)] + entry.inverses,
            .redone(tx: entry.batchStart, events: entry.inverses)
        )
    }
}
