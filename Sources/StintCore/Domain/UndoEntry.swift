/// One step of the undo or redo stack: the batch that can be reverted and the events that revert it.
///
/// The fold computes ``inverses`` from the state before the batch, in reverse order of the batch's
/// events, so appending them (after a `command.undone` or `command.redone` marker) restores that state.
public struct UndoEntry: Hashable, Sendable {
    /// The `seq` of the first event of the batch this entry reverts; the `tx` of the marker that uses it.
    public var batchStart: Int64
    /// The compensating events, in the order they are appended.
    public var inverses: [DomainEvent]

    public init(batchStart: Int64, inverses: [DomainEvent]) {
        self.batchStart = batchStart
        self.inverses = inverses
    }
}
