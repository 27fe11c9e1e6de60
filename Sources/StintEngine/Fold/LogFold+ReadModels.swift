import StintCore
import StintLog

/// How a log directory opened for writing gets the state its commands are decided against: a slice from
/// its read models, caught up from the log, or — when they are missing, unreadable, off the log's chain or
/// far behind — a slice of read models rebuilt from the log by ``CompactFold``, or when that fails, the whole
/// state folded from the newest checkpoint, from which the read models are rebuilt.
extension LogFold {
    /// The fold of the log directory `store` at `head`, from its read models (`opened`, when the store's
    /// opening read them) or the log.
    ///
    /// - Throws: ``StintError`` (damaged) for a log that cannot be folded up to `head`.
    static func open(
        _ store: LogDirectoryStore, upTo head: StoreHead?, model opened: ReadModel?, options: EngineOptions
    ) throws(StintError) -> LogFold {
        let (model, state, isSlice) = try prepareState(of: store, head: head, model: opened, options: options)
        return LogFold(
            path: store.path, store: store, state: state, head: head, options: options, model: model,
            isSlice: isSlice, directory: store)
    }

    /// The read models and the state to decide on for `store` at `head`; no read models when they cannot be
    /// used at all (the state is then the whole fold, as without them).
    private static func prepareState(
        of store: LogDirectoryStore, head: StoreHead?, model opened: ReadModel?, options: EngineOptions
    ) throws(StintError) -> (model: ReadModel?, state: LogState, isSlice: Bool) {
        guard options.usesReadModels, let head else {
            opened?.close()
            return (nil, try wholeState(of: store, head: head, options: options), false)
        }
        var model = opened
        do {
            if model == nil { model = try ReadModel.open(inLogDirectory: store.path) }
            if let model, let state = try caughtUpSlice(model, store: store, head: head) {
                return (model, state, true)
            }
        } catch {
            options.onNotice("the read models of \(store.path) are rebuilt from the log (\(error.description))")
            model?.close()
            ReadModel.remove(inLogDirectory: store.path)
            model = try? ReadModel.open(inLogDirectory: store.path)
        }
        guard let model else { return (nil, try wholeState(of: store, head: head, options: options), false) }
        if options.foldsCompactly, let slice = rebuiltSlice(model, store: store, head: head) {
            return (model, slice, true)
        }
        let whole = try wholeState(of: store, head: head, options: options)
        do {
            try model.rebuild(from: whole, head: head, tail: store.tail())
            return (model, whole, false)
        } catch {
            options.onNotice("the read models of \(store.path) could not be written (\(error.description))")
            model.close()
            ReadModel.remove(inLogDirectory: store.path)
            return (nil, whole, false)
        }
    }

    /// Rebuilds `model` from the whole log with ``CompactFold`` and returns its slice: the cold path that never
    /// holds the whole ``LogState`` (nor the history). Starts at the log's first event rather than at a state
    /// checkpoint, since restoring one builds the whole `LogState` this path avoids, and leaves no checkpoint
    /// (the read models are the state that persists). nil when anything does not go as expected (the fold
    /// refuses an event, the log is damaged or ends before `head`, SQLite fails): the caller then takes the
    /// path of the whole fold, which reports the error or writes the same rows.
    private static func rebuiltSlice(_ model: ReadModel, store: LogDirectoryStore, head: StoreHead) -> LogState? {
        var fold = compactFold(of: store, head: head)
        guard fold != nil else { return nil }
        do {
            try model.rebuild(from: &fold, head: head, tail: store.tail())
            return try model.slice()
        } catch {
            return nil
        }
    }

    /// `store`'s events up to `head` folded by ``CompactFold``; nil when it cannot fold them all.
    static func compactFold(of store: LogDirectoryStore, head: StoreHead) -> CompactFold? {
        var fold: CompactFold?
        do {
            let cursor = try store.batches(after: nil)
            while fold?.lastSeq != head.position.seq, let batch = try cursor.next() {
                for event in batch.events {
                    if fold == nil {
                        fold = CompactFold(genesis: event, capacity: Int(clamping: head.position.seq))
                        if fold == nil { return nil }
                    } else if !fold!.apply(event) {
                        return nil
                    }
                }
            }
            if cursor.damage != nil { return nil }
        } catch {
            return nil
        }
        guard fold?.lastSeq == head.position.seq else { return nil }
        return fold
    }

    /// The slice of `model` caught up to `head`; nil when the read models must be rebuilt instead (new,
    /// ahead of the log, off its chain, or far behind).
    private static func caughtUpSlice(
        _ model: ReadModel, store: LogDirectoryStore, head: StoreHead
    ) throws(ReadModelError) -> LogState? {
        guard let stored = model.head else { return nil }
        if stored == head { return try model.slice() }
        let behind = head.position.seq - stored.position.seq
        guard behind > 0, behind <= ReadModel.catchUpLimit else { return nil }
        var batches: [StoredBatch] = []
        do {
            let cursor = try store.batches(after: stored.position)
            while let batch = try cursor.next() {
                batches.append(batch)
                if batch.position == head.position { break }
            }
        } catch {
            return nil
        }
        // The read models are of this log only if the event after them links to their head (log-format §3).
        guard let first = batches.first?.events.first, first.prev == String(stored.hash.prefix(32)),
            batches.last?.position == head.position
        else { return nil }
        var state = try model.slice()
        try model.fold(batches, into: &state, head: head, tail: store.tail())
        return state
    }

    /// The whole state at `head`, folded from the newest usable checkpoint.
    static func wholeState(
        of store: LogDirectoryStore, head: StoreHead?, options: EngineOptions
    ) throws(StintError) -> LogState {
        let folded = try StateLoader(reader: store.reader, options: options).load(upTo: .latest)
        guard let state = folded.state, state.lastSeq == head?.position.seq else {
            throw StintError(
                .damaged,
                "the log at \(store.path) could not be read up to its last event "
                    + "(\(head?.position.description ?? "none")); run 'stint verify' to see where it is damaged")
        }
        return state
    }
}
