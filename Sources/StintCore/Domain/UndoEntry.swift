/// One step of the undo or redo stack: the batch that can be reverted and the events that revert it.
///
/// The fold computes ``inverses`` from the state before the batch, in reverse order of the batch's
/// events, so appending them (after a `command.undone` or `command.redone` marker) restores that state.
public struct UndoEntry: Hashable, Sendable {
    /// The `seq` of the first event of the batch this entry reverts; the `tx` of the marker that uses it.
    public var batchStart: Int64
    /// ``inverses`` from last to first: the fold adds the inverses of each further event of a batch in front
    /// of those already there, which is an append here (a batch of 100 000 imported records would make
    /// inserting at the front quadratic).
    private var reversedInverses: [DomainEvent]

    public init(batchStart: Int64, inverses: [DomainEvent]) {
        self.batchStart = batchStart
        self.reversedInverses = inverses.reversed()
    }

    /// The compensating events, in the order they are appended.
    public var inverses: [DomainEvent] {
        get { reversedInverses.reversed() }
        set { reversedInverses = newValue.reversed() }
    }

    /// Puts the inverses of the batch's next event in front of the inverses already recorded.
    mutating func prepend(_ events: [DomainEvent]) {
        reversedInverses.append(contentsOf: events.reversed())
    }
}
