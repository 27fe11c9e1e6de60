import StintCore
import StintLog

/// The fold of a space's replica (docs/decisions/0007 §7): the merged fold of every device's events, whose
/// state for this device (its own undo and redo stacks) commands are decided against as a slice
/// (``MergedFold/slice(for:matching:including:)``: its table holds the stacks whole). Before every command
/// the replica takes in what the other devices wrote (§6.1); events of theirs that sort before what was
/// folded make it fold again from the newest merged checkpoint that holds.
///
/// With the replica's read models (decision 0010 step 3, `ReplicaFold+ReadModels.swift`) the merged fold is
/// a fold in parts: the frame and the rows of the records the commands read, taken from the models, caught
/// up from their mark and saved after every change, so that a command costs what it reads, not the history.
final class ReplicaFold: StoreFold {
    let path: String
    private(set) var state: LogState
    private(set) var head: StoreHead?
    let store: MergedStore
    let device: DeviceID
    let options: EngineOptions
    /// The merged fold up to ``head``; nil only after events the store appended did not fold (the next
    /// command folds the merged history again: the head is then behind the store's). A fold in parts while
    /// ``model`` is kept.
    private var merged: MergedFold?
    /// The replica's read models and the mark they hold (``head``'s), while commands decide on them.
    private var model: (database: ReadModel, mark: ReadModel.MergedMark)?
    /// The records the command being decided names (a slice that takes in more rows keeps them).
    private var references: [RecordRef] = []
    /// The events of the command being appended as ``check(_:now:reading:)`` placed them, and the merged
    /// fold with them when the check could not tell them apart without applying them.
    private var checked: (events: [RecordedEvent], fold: MergedFold?)?

    /// The fold of `store`'s merged history up to `head`, from the newest merged checkpoint.
    ///
    /// - Throws: as ``fold(_:upTo:continuing:)``.
    convenience init(_ store: MergedStore, upTo head: StoreHead?) throws(StintError) {
        try self.init(store, fold: Self.fold(store, upTo: head), model: nil, head: head, options: store.space.options)
    }

    init(
        _ store: MergedStore, fold: MergedFold, model: (database: ReadModel, mark: ReadModel.MergedMark)?,
        head: StoreHead?, options: EngineOptions
    ) {
        self.store = store
        self.options = options
        device = store.space.device
        path = store.space.log
        merged = fold
        self.model = model
        state = fold.slice(for: device)
        self.head = head
    }

    var decidesOnSlice: Bool { true }
    var decisionSpace: EntityID? { store.space.description.spaceId }

    func beforeCommand() throws(StintError) { try store.ingest() }

    func catchUp(to current: StoreHead?) throws(StintError) {
        // What an earlier attempt checked is of a state this catch-up replaces.
        checked = nil
        guard current != head else { return }
        if let (database, mark) = model, let current {
            let known = merged.map { (fold: $0, mark: mark) }
            merged = nil
            let reached = try Self.modelFold(database, of: store, upTo: current, continuing: known, options: options)
            merged = reached.fold
            model = reached.model
        } else {
            // Events of other devices may sort anywhere before the head: the merged history is folded on when
            // they all sort after what was folded, else again from a checkpoint.
            merged = try Self.fold(
                store, upTo: current, continuing: merged.flatMap { fold in head.map { (fold, $0.position) } })
        }
        state = merged!.slice(for: device)
        head = current
    }

    func beforeDeciding() throws(StintError) {
        references = []
        guard let (database, _) = model, merged != nil else { return }
        // The models hold what was folded: the running records and the one that ended last, which a fold in
        // parts may lack after other devices' events (a deletion of the last ended, an earlier end).
        try withModel { () throws(ReadModelError) in
            try database.include(database.mergedRowsDecidedOn(), in: &merged!)
        }
        state = merged!.slice(for: device)
    }

    func prepare(for command: Command) throws(StintError) {
        guard merged != nil else { return }
        if command.readsEveryRecord {
            var fold = merged.take()!  // Not shared while it builds its records by id.
            if let (database, _) = model {
                do {
                    try database.include(database.everyMergedRow(), in: &fold)
                } catch {
                    merged = fold
                    try dropModel(because: error)
                    return try prepare(for: command)
                }
            }
            fold.keepRecordsByID()
            merged = fold
            state = fold.state(for: device)
            return
        }
        references = command.recordReferences
        var ids: [EntityID] = []
        if command == .undo || command == .redo {
            if let (database, _) = model {
                // The frame holds the entries thinned to their record edits: the top ones whole again.
                try withModel { () throws(ReadModelError) in
                    for (key, entry) in try database.wholeTopEntries(of: device, in: merged!) {
                        merged!.restoreTop(entry, at: key)
                    }
                }
                state = merged!.slice(for: device)
            }
            // Undo and redo append the inverses of the top entries, which name records the slice may lack.
            for entry in [state.undoStack.last, state.redoStack.last].compactMap(\.self) {
                ids += entry.inverses.flatMap(\.namedRecordIds)
            }
        }
        if let (database, _) = model {
            let references = references
            try withModel { () throws(ReadModelError) in
                try database.include(database.mergedRows(matching: references), in: &merged!)
                try database.include(ids, in: &merged!)
            }
        }
        if !references.isEmpty || !ids.isEmpty {
            state = merged!.slice(for: device, matching: references, including: ids)
        }
    }

    func include(namedBy events: [DomainEvent]) throws(StintError) {
        guard let (database, _) = model, merged != nil else { return }
        let ids = events.flatMap(\.namedRecordIds)
        try withModel { () throws(ReadModelError) in try database.include(ids, in: &merged!) }
        state = merged!.slice(for: device, matching: references, including: ids)
    }

    /// The events as this device will record them, checked against the merged fold (only the merged fold's
    /// damage — a second log.created, an undo marker that does not name the top of this device's stack —
    /// refuses a command here).
    func check(_ drafts: [EventDraft], now: Instant, reading: Instant) throws(StintError) {
        let fold = try current()
        var events = drafts.placed(
            from: (try store.frontier().heads[device]?.seq ?? 0) + 1, now: now, reading: reading)
        for index in events.indices {
            events[index].device = device
            events[index].hlc = HLC(impliedBy: now)
        }
        do {
            // Checked without changing the fold, which takes the events once they are appended
            // (``appended(_:head:named:decided:)``): a copy to apply them to copied every record. Only a batch
            // the check cannot tell is applied to a copy, which the append then keeps.
            if try fold.check(batch: events) {
                checked = (events, nil)
            } else {
                var next = fold
                for event in events { try next.apply(event) }
                checked = (events, next)
            }
        } catch {
            throw StintError(
                .refused,
                "the command was refused because its events contradict the space's history (\(error.message)); "
                    + "nothing was recorded", domain: error)
        }
    }

    func appended(
        _ events: [RecordedEvent], head newHead: StoreHead, named: (references: [RecordRef], ids: [EntityID]),
        decided: [DomainEvent]
    ) throws(StintError) {
        _ = try current()
        if let checked, let checkedFold = checked.fold, events.arePlaced(as: checked.events) {
            // The check folded these events already (the merged fold reads their device, seq, at and tx): no
            // second copy of the fold.
            merged = checkedFold
        } else {
            // Applied in place: the fold taken out of this replica, and the state decided on let go of (after
            // an import it is the whole state, which shares the fold's records), so that nothing holds a second
            // reference to what changes.
            var fold = merged.take()!
            state = state.withoutRecords
            do {
                for event in events { try fold.apply(event) }
            } catch {
                // The events are in the store, not all in the fold: without a fold, the next command folds the
                // merged history again (``catchUp(to:)``, the head being behind the store's; with read models,
                // from their mark, which is before these events).
                state = fold.slice(for: device)
                throw StintError(error)
            }
            merged = fold
        }
        checked = nil
        head = newHead
        if let (database, _) = model {
            // The models hold what the next command reads: a failure drops them (the log is durable, and the
            // next opening rebuilds them).
            do {
                let mark = try Self.mark(of: store, at: newHead)
                let changed = merged!.takeChangedRows()
                try database.save(changed, of: &merged!, at: mark)
                model = (database, mark)
            } catch {
                try dropModel(because: error)
            }
        }
        // The slice after: what it held before, and the records the command named and changed.
        state = merged!.slice(for: device, matching: named.references, including: named.ids)
    }

    func endCommand() { checked = nil }

    func close() {
        model?.database.close()
        model = nil
    }

    /// Runs `body` on the read models; when they fail, drops them and goes on with the whole merged fold.
    private func withModel(_ body: () throws(ReadModelError) -> Void) throws(StintError) {
        do {
            try body()
        } catch {
            try dropModel(because: error)
        }
    }

    /// Closes and removes the read models after `error` (the next opening rebuilds them), and folds the
    /// merged history up to ``head`` from the newest merged checkpoint to go on with.
    private func dropModel(because error: any Error) throws(StintError) {
        guard let (database, _) = model else { return }
        options.onNotice("the read models of \(path) could not be used and are rebuilt at the next command (\(error))")
        database.close()
        ReadModel.remove(inLogDirectory: path)
        model = nil
        merged = nil
        // Without a fold the head is let go of too, so that the next command folds again (``catchUp(to:)``)
        // if this one cannot.
        let known = head
        head = nil
        let whole = try Self.fold(store, upTo: known)
        merged = whole
        head = known
        state = whole.slice(for: device, matching: references)
    }

    /// The merged fold; refused when the last appended events did not fold into it (the next command folds
    /// the merged history again).
    private func current() throws(StintError) -> MergedFold {
        guard let merged else {
            throw StintError(
                .damaged, "the merged history of \(path) did not fold after the last command; run the command again")
        }
        return merged
    }

    /// The merged fold of a replica's every device's events up to `head`, from the newest merged checkpoint
    /// that still holds (``MergedCheckpoints``) or the start; leaves a checkpoint when it folded many.
    ///
    /// - Throws: ``StintError`` (damaged) for an empty store, events that do not fold (the merged fold's few
    ///   kinds of damage) or a store that ends before `head`.
    static func fold(
        _ store: MergedStore, upTo head: StoreHead?,
        continuing known: (fold: MergedFold, position: StorePosition)? = nil
    ) throws(StintError) -> MergedFold {
        let checkpoints = MergedCheckpoints(store: store)
        var fold: MergedFold?
        var reached: StorePosition?
        var cursor: MergedBatchCursor
        if let known, let continued = try? store.mergedBatches(after: known.position) {
            (fold, reached, cursor) = (known.fold, known.position, continued)
        } else {
            // Nothing to continue, or events that sort before its last one arrived: from a checkpoint.
            (fold, reached, cursor) = try checkpoints.start()
        }
        let started = fold?.eventCount ?? 0
        let expected = cursor.remaining
        while reached != head?.position, let batch = try cursor.next() {
            do throws(DomainError) {
                _ = try MergedFold.fold(batch: batch.events, into: &fold, expectedEvents: expected)
            } catch {
                throw StintError(error)
            }
            reached = batch.position
        }
        if let damage = cursor.damage { throw damage }
        guard let fold, reached == head?.position else {
            throw StintError(
                .damaged, "the space of \(store.space.log) holds no readable history; run 'stint verify --merged'")
        }
        checkpoints.saveIfDue(fold, startedAt: started, reached: reached?.merged)
        return fold
    }
}

extension MergedStore: FoldingStore {
    /// The fold of the merged history from the newest merged checkpoint (a writer of a store opened by its
    /// caller: no read models, which ``TimeLog/open(at:options:)`` keeps for the replicas it opens).
    func makeFold(upTo head: StoreHead?, options: EngineOptions) throws(StintError) -> any StoreFold {
        try ReplicaFold(self, upTo: head)
    }
}
