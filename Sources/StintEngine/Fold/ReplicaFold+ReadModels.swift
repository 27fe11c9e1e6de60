import StintCore
import StintLog

/// How a replica opened for writing gets its merged fold from its read models (decision 0010 step 3,
/// docs/read-models.md): the fold in parts at the models' mark, caught up from there batch by batch (each
/// batch taking in the rows it names and those its device's stacks edit) and saved; or, when the models are
/// new, unreadable, of another history, or passed by events that sort before their mark (a device that was
/// offline), the merged fold from the newest merged checkpoint, written to them whole.
extension ReplicaFold {
    /// The fold of `store`'s merged history up to `head`: from the replica's read models when `usesModels`,
    /// else from the newest merged checkpoint.
    ///
    /// - Throws: ``StintError`` (damaged) for a merged history that does not fold up to `head`.
    static func open(_ store: MergedStore, upTo head: StoreHead?, usesModels: Bool, options: EngineOptions)
        throws(StintError) -> ReplicaFold
    {
        guard usesModels, let head else { return try ReplicaFold(store, upTo: head) }
        let database: ReadModel
        do {
            database = try ReadModel.open(inLogDirectory: store.space.log)
        } catch {
            // Not a database of ours (overwritten, truncated): removed, and new ones built in its place.
            options.onNotice(
                "the read models of \(store.space.log) could not be opened and are rebuilt (\(error.description))")
            ReadModel.remove(inLogDirectory: store.space.log)
            guard let fresh = try? ReadModel.open(inLogDirectory: store.space.log) else {
                return try ReplicaFold(store, upTo: head)
            }
            database = fresh
        }
        let opened = try modelFold(database, of: store, upTo: head, continuing: nil, options: options)
        return ReplicaFold(store, fold: opened.fold, model: opened.model, head: head, options: options)
    }

    /// The merged fold up to `head` with `database`: `known` (a fold in parts at the models' mark) or the
    /// models' own fold in parts, caught up and saved; else the fold from the newest merged checkpoint,
    /// written to them whole. Without the models when they cannot be written (the whole fold then).
    static func modelFold(
        _ database: ReadModel, of store: MergedStore, upTo head: StoreHead,
        continuing known: (fold: MergedFold, mark: ReadModel.MergedMark)?, options: EngineOptions
    ) throws(StintError) -> (fold: MergedFold, model: (database: ReadModel, mark: ReadModel.MergedMark)?) {
        let device = store.space.device
        // What the models hold is read again from here on: what a writer kept open held since its last command
        // is let go of rather than kept growing (the lock kept it true).
        database.heldRows = [:]
        do {
            var start = known
            if start == nil, let mark = try database.mergedMark() {
                start = (try database.mergedFold(for: device), mark)
            }
            if var mark = start?.mark, var fold = start?.fold {
                if mark.head == head {
                    // The same events, and a log whose end moved (a writer sealed its segment as it opened): the
                    // reads compare the ends.
                    if let ends = try? store.logEnds(), ends != mark.ends {
                        try database.setEnds(ends)
                        mark.ends = ends
                    }
                    return (fold, (database, mark))
                }
                if let reached = try foldOn(&fold, from: mark, upTo: head, store: store, database: database) {
                    return (fold, (database, reached))
                }
                // Events that sort before the mark (a device that was offline): the journal's steps since the
                // earliest of them are rolled back, and the fold goes on from the mark before them.
                if let rewound = try rewind(database, from: mark, upTo: head, store: store) {
                    var again = try database.mergedFold(for: device)
                    if let reached = try foldOn(&again, from: rewound, upTo: head, store: store, database: database) {
                        return (again, (database, reached))
                    }
                }
            }
        } catch {
            options.onNotice(
                "the read models of \(store.space.log) are rebuilt from the merged history (\(error.description))")
        }
        // New models, or a history that does not go on from their mark: the fold from a checkpoint.
        let whole = try fold(store, upTo: head)
        do {
            let mark = try mark(of: store, at: head)
            try database.rebuild(from: whole, at: mark)
            // As the models hold it: the undo and redo entries with their record edits only.
            var thinned = whole
            _ = thinned.takeInversesOtherThanEdits()
            return (try MergedFold(parts: thinned.parts(for: device)), (database, mark))
        } catch {
            options.onNotice("the read models of \(store.space.log) could not be written (\(error))")
            database.close()
            ReadModel.remove(inLogDirectory: store.space.log)
            return (whole, nil)
        }
    }

    /// How many batches of a catch-up take in the rows they name with one query
    /// (``foldOn(_:from:upTo:store:database:)``): a steady `stint sync` of 1 000 events made some five hundred
    /// queries of one id each.
    static let batchesPerInclude = 256

    /// Folds the merged batches after `mark` up to `head` onto `fold`, a fold in parts of `database`, taking
    /// in the rows each batch needs, and saves what changed at the mark of `head`, which it returns. nil, with
    /// `fold` and the models as they were, when the merged history does not go on from `mark`: events that
    /// sort before it arrived, a device's log no longer holds the event it names (its first event after it
    /// does not link to it), or the events do not fold (the fold from a checkpoint says why).
    ///
    /// - Throws: ``ReadModelError`` when the models' rows cannot be read or written.
    private static func foldOn(
        _ fold: inout MergedFold, from mark: ReadModel.MergedMark, upTo head: StoreHead, store: MergedStore,
        database: ReadModel
    ) throws(ReadModelError) -> ReadModel.MergedMark? {
        var next = fold
        var linked: Set<DeviceID> = []
        let reachedMark: ReadModel.MergedMark
        do {
            // No lane for a device with nothing new: its log is not read.
            let cursor = try store.mergedBatches(after: mark.head.position, through: head.position.merged)
            var reached = mark.head.position
            while reached != head.position {
                // A run of batches takes in the rows they name with one query: the models hold each row as it was
                // before the catch-up, and a row the run changes is named by the first batch that changes it, so
                // taking it in at the run's start is taking it in before that batch.
                var run: [StoredBatch] = []
                var wanted: [EntityID] = []
                while run.count < Self.batchesPerInclude, run.last?.position != head.position,
                    let batch = try cursor.next()
                {
                    guard let device = batch.device, let first = batch.events.first else { return nil }
                    wanted += batch.events.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
                    if linked.insert(device).inserted {
                        let link = mark.frontier.heads[device].map { String($0.hash.prefix(32)) }
                        guard first.prev == link ?? RecordedEvent.genesisPrev else { return nil }
                        // Its stacks, and the records its top entries edit, at its first batch: what a command's fold
                        // in parts holds for its own device (``MergedFold/recordsEditedByTopEntries(of:)``); an entry
                        // a later batch pushes edits records that batch touched, which the fold holds from then on.
                        // Only a device's own batches change its stacks, so they are as they were at the run's start.
                        try database.includeStacks(of: device, in: &next)
                        wanted += next.recordsEditedByTopEntries(of: device)
                    }
                    run.append(batch)
                }
                guard !run.isEmpty else { break }
                try database.include(wanted, in: &next)
                for batch in run {
                    for event in batch.events { try next.apply(event) }
                    reached = batch.position
                }
            }
            guard cursor.damage == nil, reached == head.position else { return nil }
            reachedMark = try Self.mark(of: store, at: head)
        } catch let error as ReadModelError {
            throw error
        } catch {
            return nil
        }
        // A device with nothing new still holds the event the mark names.
        for (device, held) in mark.frontier.heads where !linked.contains(device) {
            guard reachedMark.frontier.heads[device] == held else { return nil }
        }
        let changed = next.takeChangedRows()
        try database.save(changed, of: &next, at: reachedMark)
        fold = next
        return reachedMark
    }

    /// Rolls `database`, at `mark`, back to before the earliest event the store holds after it
    /// (``ReadModel/rewind(toBefore:)``), when that event sorts before the mark's last key; the mark the models
    /// hold then, or nil (the models unchanged) when no event sorts before it or the journal does not reach
    /// back so far.
    private static func rewind(
        _ database: ReadModel, from mark: ReadModel.MergedMark, upTo head: StoreHead, store: MergedStore
    ) throws(ReadModelError) -> ReadModel.MergedMark? {
        guard let lastKey = mark.lastKey,
            let earliest = try? store.earliestKey(after: mark.head.position, through: head.position.merged),
            earliest < lastKey
        else { return nil }
        return try database.rewind(toBefore: earliest)
    }

    /// The mark of `head`, the store's head: the frontier and the merge key of the last event.
    ///
    /// - Throws: ``StintError`` (refused) when the store's frontier is not `head`'s.
    static func mark(of store: MergedStore, at head: StoreHead) throws(StintError) -> ReadModel.MergedMark {
        let frontier = try store.frontier()
        guard frontier.hash == head.hash, let merged = head.position.merged else {
            throw StintError(.refused, "the replica at \(store.space.log) moved on while its read models were saved")
        }
        return ReadModel.MergedMark(frontier: frontier, lastKey: merged.lastKey, ends: try store.logEnds())
    }
}
