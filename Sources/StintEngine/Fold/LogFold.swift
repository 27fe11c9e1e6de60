import StintCore
import StintLog

/// The fold of a single log: its events applied by the strict rules (``LogState/apply(_:)``: an event that
/// does not fit is damage). For a log directory with read models, ``state`` is a slice of them
/// (`LogState+Slice`: the settings, every tag, the recent tags, the running records, the record that ended
/// last, the undo and redo stacks and the records the commands named), kept up by each command; otherwise
/// the whole state (`LogFold+ReadModels.swift` says how a log directory gets it).
final class LogFold: StoreFold {
    let path: String
    private(set) var state: LogState
    private(set) var head: StoreHead?
    private let store: any EventStore
    private let options: EngineOptions
    /// The read models of a log directory, when commands decide against them.
    private var model: ReadModel?
    /// Whether ``state`` is a slice of the read models rather than the whole state.
    private var isSlice: Bool
    /// The log directory, for the whole state a command that reads every record needs.
    private let directory: LogDirectoryStore?
    /// The state after the events of the command being appended, as ``check(_:now:reading:)`` folded them.
    private var checked: (state: LogState, events: [RecordedEvent])?

    init(
        path: String, store: any EventStore, state: LogState, head: StoreHead?, options: EngineOptions,
        model: ReadModel? = nil, isSlice: Bool = false, directory: LogDirectoryStore? = nil
    ) {
        self.path = path
        self.store = store
        self.state = state
        self.head = head
        self.options = options
        self.model = model
        self.isSlice = isSlice
        self.directory = directory
    }

    /// The fold of every event of `store` up to `head`, from the first.
    ///
    /// - Throws: ``StintError`` (damaged) for an empty store or events that cannot be folded.
    static func whole(_ store: any EventStore, upTo head: StoreHead?, options: EngineOptions) throws(StintError)
        -> LogFold
    {
        var state: LogState?
        try fold(store, after: nil, upTo: head, into: &state)
        guard let state else {
            throw StintError(.damaged, "the store holds no events; a log begins with log.created ('stint init')")
        }
        return LogFold(path: "\(store)", store: store, state: state, head: head, options: options)
    }

    var decidesOnSlice: Bool { isSlice }
    var decisionSpace: EntityID? { nil }

    func beforeCommand() {}

    func beforeDeciding() throws(StintError) {
        try sliceing { (model, state) throws(ReadModelError) in try model.includeLastEnded(in: &state) }
    }

    func catchUp(to current: StoreHead?) throws(StintError) {
        // What an earlier attempt checked is of a state this catch-up replaces.
        checked = nil
        guard current != head else { return }
        guard let current, let known = head, current.position.seq > known.position.seq else {
            throw StintError(
                .damaged,
                "the log at \(path) no longer holds what this writer read (its head was \(head?.description ?? "none"), "
                    + "it is \(current?.description ?? "none")); run 'stint verify'")
        }
        if let model {
            var batches: [StoredBatch] = []
            let cursor = try store.batches(after: known.position)
            while batches.last?.position != current.position, let batch = try cursor.next() { batches.append(batch) }
            if let damage = cursor.damage { throw damage }
            do {
                var next = state
                try model.fold(batches, into: &next, head: current, tail: directory?.tail())
                state = next
                head = current
                return
            } catch {
                dropReadModels(because: error)
                if isSlice {
                    state = try Self.wholeState(of: directory!, head: current, options: options)
                    isSlice = false
                    head = current
                    return
                }
            }
        }
        var next: LogState? = state
        try Self.fold(store, after: known.position, upTo: current, into: &next)
        guard let next else { throw StintError(.damaged, "the log at \(path) lost its events") }
        state = next
        head = current
    }

    func prepare(for command: Command) throws(StintError) {
        guard isSlice else { return }
        if command.readsEveryRecord, let directory {
            state = try Self.wholeState(of: directory, head: head, options: options)
            isSlice = false
            return
        }
        let references = command.recordReferences
        try sliceing { (model, state) throws(ReadModelError) in
            if !references.isEmpty { try model.include(matching: references, in: &state) }
            if command == .undo || command == .redo { try model.includeTopInverses(in: &state) }
        }
    }

    func include(namedBy events: [DomainEvent]) throws(StintError) {
        try sliceing { (model, state) throws(ReadModelError) in try model.include(namedBy: events, in: &state) }
    }

    func check(_ drafts: [EventDraft], now: Instant, reading: Instant) throws(StintError) {
        var next = state
        let events = drafts.placed(from: state.lastSeq + 1, now: now, reading: reading)
        do {
            for event in events { try next.apply(event) }
        } catch {
            throw StintError(
                .refused,
                "the command was refused because its events contradict the log (\(error.message)); nothing was "
                    + "recorded. A new id that is already in use causes this: check how ids are generated",
                domain: error)
        }
        checked = (next, events)
    }

    func appended(
        _ events: [RecordedEvent], head newHead: StoreHead, named: (references: [RecordRef], ids: [EntityID]),
        decided: [DomainEvent]
    ) throws(StintError) {
        // The state before, for the read models only.
        let before = model == nil ? nil : state
        if let checked, events.arePlaced(as: checked.events) {
            state = checked.state
        } else {
            var next = state
            do {
                for event in events { try next.apply(event) }
            } catch {
                throw StintError(error)
            }
            state = next
        }
        checked = nil
        head = newHead
        if let before { saveToReadModels(from: before, named: decided, head: newHead) }
    }

    func endCommand() { checked = nil }

    func close() {
        model?.close()
        model = nil
    }

    /// Folds the batches of `store` after `position` up to `head` into `state`.
    static func fold(
        _ store: any EventStore, after position: StorePosition?, upTo head: StoreHead?, into state: inout LogState?
    ) throws(StintError) {
        guard let head else { return }
        let cursor = try store.batches(after: position)
        var reached = position
        while reached != head.position, let batch = try cursor.next() {
            do throws(DomainError) {
                try LogState.fold(batch.events, onto: &state)
            } catch {
                throw StintError(error)
            }
            reached = batch.position
        }
        if let damage = cursor.damage { throw damage }
        guard reached == head.position else {
            throw StintError(
                .damaged, "the store ended before its head (\(head.position)); run 'stint verify' to see where")
        }
    }

    /// Runs `body` on the read models and the slice; when they fail, drops them and goes on with the whole
    /// state.
    private func sliceing(_ body: (ReadModel, inout LogState) throws(ReadModelError) -> Void) throws(StintError) {
        guard isSlice, let model, let directory else { return }
        do {
            try body(model, &state)
        } catch {
            dropReadModels(because: error)
            state = try Self.wholeState(of: directory, head: head, options: options)
            isSlice = false
        }
    }

    /// Writes what a command changed to the read models; a failure only drops them (the log is durable, and the
    /// next command rebuilds them).
    private func saveToReadModels(from before: LogState, named events: [DomainEvent], head: StoreHead) {
        guard let model else { return }
        do {
            try model.save(
                from: before, to: state, named: Set(events.flatMap(\.namedRecordIds)), head: head,
                tail: directory?.tail())
        } catch {
            dropReadModels(because: error)
        }
    }

    /// Stops using the read models and removes them, to be rebuilt by the next command.
    private func dropReadModels(because error: ReadModelError) {
        guard let model else { return }
        options.onNotice("the read models of \(path) will be rebuilt from the log (\(error.description))")
        model.close()
        ReadModel.remove(inLogDirectory: path)
        self.model = nil
    }
}
