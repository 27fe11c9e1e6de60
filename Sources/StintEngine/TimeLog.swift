public import StintCore
import StintLog

/// A log opened for writing: an event store, and the folded state that commands are decided against.
///
/// One command is one atomic batch: ``execute(_:)`` reads the clock once, decides the command against
/// the current state at that instant (or at the log's last event, if that is later), and appends the
/// events to the store (durable before it returns) only if no other writer appended since the state was
/// folded; otherwise it folds what the other writer appended and decides again.
/// A refused command appends nothing.
///
/// ```swift
/// let log = try TimeLog.open(at: path, options: options)
/// defer { log.close() }
/// let result = try log.execute(.start(tag: .name("writing")))
/// ```
public final class TimeLog {
    /// How many times a command is decided again when other writers keep appending before it.
    static let maximumAttempts = 16

    /// The log directory, or a description of the store for other stores.
    public let path: String
    /// The state after the last event of the log that commands are decided against.
    ///
    /// For a log directory with read models, and for a space's replica, this is a slice (see
    /// `LogState+Slice`, ``MergedFold/slice(for:matching:including:)``): the settings, every tag, the recent
    /// tags, the running records, the record that ended last, the undo and redo stacks and the records the
    /// commands named; otherwise the whole state.
    public private(set) var state: LogState
    /// The store's head as of ``state``.
    public private(set) var head: StoreHead?
    let store: any EventStore
    let options: EngineOptions
    /// The read models of a log directory, when commands decide against them.
    private var model: ReadModel?
    /// Whether ``state`` is a slice of the read models rather than the whole state.
    private var isSlice: Bool
    /// The log directory, for the whole state a command that reads every record needs.
    private let directory: LogDirectoryStore?
    /// The fold of the store's events.
    let rules: FoldRules
    /// For a space's replica (a ``MergedStore``): the merged fold of every device's events, whose state for
    /// this device (its own undo and redo stacks) is ``state`` (docs/decisions/0007 §7).
    private var merged: MergedFold?
    /// The merged fold with the events of the command being appended, as ``checkFits(_:now:reading:)`` left it.
    private var checkedFold: MergedFold?

    init(
        path: String, store: any EventStore, state: LogState, head: StoreHead?, options: EngineOptions,
        model: ReadModel? = nil, isSlice: Bool = false, directory: LogDirectoryStore? = nil, merged: MergedFold? = nil
    ) {
        self.merged = merged
        self.path = path
        self.store = store
        self.state = state
        self.head = head
        self.options = options
        self.model = model
        self.isSlice = isSlice
        self.directory = directory
        rules = FoldRules.of(store)
    }

    /// Creates a log directory whose first event records its settings.
    ///
    /// - Parameters:
    ///   - timeZone: the IANA zone days are computed in, such as `Europe/Berlin`.
    ///   - firstWeekday: the first day of the week, 1 = Sunday … 7 = Saturday.
    /// - Throws: ``StintError`` (usage) for an unknown zone or weekday, (refused) when something already
    ///   exists at `path` that is not an empty directory, or for I/O failures.
    public static func create(
        at path: String, timeZone: String, firstWeekday: Int, options: EngineOptions
    ) throws(StintError) -> TimeLog {
        let settings = try settingsEvent(timeZone: timeZone, firstWeekday: firstWeekday, options: options)
        let store = try LogDirectoryStore.create(
            at: path, genesis: settings, recordedAt: options.clock(), options: options)
        do {
            guard let first = store.lastWrittenEvent, let head = try store.head() else {
                throw StintError(.refused, "the log at \(path) was created without its first event")
            }
            let state = try LogState(genesis: first)
            var model: ReadModel?
            if options.usesReadModels {
                model = try? ReadModel.open(inLogDirectory: path)
                if (try? model?.rebuild(from: state, head: head, tail: store.tail())) == nil {
                    model?.close()
                    model = nil
                }
            }
            return TimeLog(
                path: path, store: store, state: state, head: head, options: options, model: model, directory: store)
        } catch let error as StintError {
            store.close()
            throw error
        } catch let error as DomainError {
            store.close()
            throw StintError(error)
        } catch {
            store.close()
            throw StintError(.refused, "\(error)")
        }
    }

    /// Starts a log in an empty store: appends the first event, which records the log's settings.
    ///
    /// - Throws: ``StintError`` (usage) for an unknown zone or weekday, (refused) when the store is not
    ///   empty.
    public static func create(
        in store: any EventStore, timeZone: String, firstWeekday: Int, options: EngineOptions
    ) throws(StintError) -> TimeLog {
        let settings = try settingsEvent(timeZone: timeZone, firstWeekday: firstWeekday, options: options)
        switch try store.append([settings], recordedAt: options.clock(), expecting: nil) {
        case .conflict:
            throw StintError(.refused, "the store already holds a log; open it instead of creating one")
        case .appended(let batch, let head):
            do {
                let state = try LogState(genesis: batch.events[0])
                return TimeLog(path: "\(store)", store: store, state: state, head: head, options: options)
            } catch {
                throw StintError(error)
            }
        }
    }

    /// The first event of a new log.
    private static func settingsEvent(
        timeZone: String, firstWeekday: Int, options: EngineOptions
    ) throws(StintError) -> EventDraft {
        guard (1...7).contains(firstWeekday) else {
            throw StintError(.usage, "the first weekday must be 1 (Sunday) … 7 (Saturday), not \(firstWeekday)")
        }
        guard let calendar = LogCalendar(timeZone: timeZone, firstWeekday: firstWeekday) else {
            throw StintError(
                .usage, "'\(timeZone)' is not an IANA time zone; use a name such as Europe/Berlin or UTC")
        }
        return DomainEvent.logCreated(LogSettings(logId: options.newID(), calendar: calendar)).draft
    }

    /// Opens a log directory for writing: takes its lock (waiting up to the configured time), repairs a torn
    /// tail, and folds its events into the current state from the newest usable checkpoint.
    ///
    /// - Throws: ``StintError`` (damaged) for a log damaged before its tail or written by a newer Stint,
    ///   (refused) when the path is not a log, the lock is held, or I/O fails.
    public static func open(at path: String, options: EngineOptions) throws(StintError) -> TimeLog {
        // The read models keep the end of the log as the last writer left it: opening then reads a few bytes.
        // They are opened once the writer has found a log there and holds its lock (never in a directory that
        // is not a log).
        var opened: ReadModel?
        let store: LogDirectoryStore
        do {
            store = try LogDirectoryStore.open(
                at: path, holdingLock: true, options: options,
                tail: {
                    guard options.usesReadModels else { return nil }
                    opened = try? ReadModel.open(inLogDirectory: path)
                    return opened?.storedTail()
                })
        } catch {
            opened?.close()
            throw error
        }
        do throws(StintError) {
            let head = try store.head()
            let (model, state, isSlice) = try prepareState(of: store, head: head, model: opened, options: options)
            return TimeLog(
                path: path, store: store, state: state, head: head, options: options, model: model, isSlice: isSlice,
                directory: store)
        } catch {
            store.close()
            throw error
        }
    }

    /// Opens the log held by `store`, folding all its events.
    ///
    /// - Throws: ``StintError`` (damaged) for an empty store or events that cannot be folded.
    public static func open(store: any EventStore, options: EngineOptions) throws(StintError) -> TimeLog {
        let head = try store.head()
        if let space = store as? MergedStore {
            let fold = try foldMerged(space, upTo: head)
            return TimeLog(
                path: space.space.log, store: store, state: fold.slice(for: space.space.device), head: head,
                options: options, merged: fold)
        }
        var state: LogState?
        try fold(store, after: nil, upTo: head, into: &state, rules: FoldRules.of(store))
        guard let state else {
            throw StintError(.damaged, "the store holds no events; a log begins with log.created ('stint init')")
        }
        return TimeLog(path: "\(store)", store: store, state: state, head: head, options: options)
    }

    /// Opens the replica at `log` (a log in a space, docs/decisions/0007) for writing: a ``MergedStore`` holding
    /// the own log's lock, the merged history folded from the newest merged checkpoint that holds (no read
    /// models for spaces yet). Every command ingests the sync folder first.
    ///
    /// - Throws: as ``MergedStore/open(log:holdingLock:options:)``, and (damaged) for a merged history that
    ///   does not fold.
    public static func openSpace(log: String, options: EngineOptions) throws(StintError) -> TimeLog {
        var options = options
        options.usesReadModels = false
        options.foldsCompactly = false
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        do {
            return try open(store: store, options: options)
        } catch {
            store.close()
            throw error
        }
    }

    /// The merged fold of a replica's every device's events up to `head`, from the newest merged checkpoint
    /// that still holds (``MergedCheckpoints``) or the start; leaves a checkpoint when it folded many.
    ///
    /// - Throws: ``StintError`` (damaged) for an empty store, events that do not fold (the merged fold's few
    ///   kinds of damage) or a store that ends before `head`.
    private static func foldMerged(
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

    /// Folds the batches of `store` after `position` up to `head` into `state`.
    private static func fold(
        _ store: any EventStore, after position: StorePosition?, upTo head: StoreHead?, into state: inout LogState?,
        rules: FoldRules
    ) throws(StintError) {
        guard let head else { return }
        let cursor = try store.batches(after: position)
        var reached = position
        while reached != head.position, let batch = try cursor.next() {
            do throws(DomainError) {
                for event in batch.events {
                    if state == nil {
                        state = try LogState(genesis: event)
                    } else {
                        try rules.apply(event, to: &state!)
                    }
                }
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

    /// What a command did: the decision and the events as the log recorded them.
    public struct Result: Sendable {
        public var decision: Decision
        /// Empty when the decision appended nothing.
        public var events: [RecordedEvent]
        /// The instant the command was decided and recorded at.
        public var now: Instant
    }

    /// Decides `command` at the clock's current instant, appends its events as one batch, and folds them.
    ///
    /// - Throws: ``StintError`` for a refusal (nothing appended) or a failed append (the log stays valid and
    ///   this writer refuses further appends).
    @discardableResult
    public func execute(_ command: Command) throws(StintError) -> Result {
        try execute(building: { _, _ in command })
    }

    /// Like ``execute(_:)``, with the command built from the current state and instant (time arguments
    /// are parsed against the log's calendar and the command's `now`).
    ///
    /// When another writer appended since the state was folded, its events are folded and the command is
    /// built and decided again on the new state, so it is decided as if it had come after them.
    public func execute(
        building makeCommand: (LogState, Instant) throws(StintError) -> Command
    ) throws(StintError) -> Result {
        // The checked fold is only for the command being appended: not kept after it, whatever happens.
        defer { checkedFold = nil }
        // A space's replica first takes in what the other devices wrote (docs/decisions/0007 §6.1).
        if let merged = store as? MergedStore { try merged.ingest() }
        // A refusal is a decision too: decide on what the store holds now, not on what it held at open.
        try catchUp(to: try store.head())
        for _ in 0..<Self.maximumAttempts {
            let reading = options.clock()
            // Commands are decided in the order the store takes them, so never before the log's last event: a
            // command whose clock was read before another writer appended, or whose clock went back, is decided
            // at that event's instant, where the store records it anyway (keeping the earlier reading in the
            // event's `clock`).
            let now = max(reading, state.lastAt)
            if isSlice {
                try sliceing { (model, state) throws(ReadModelError) in try model.includeLastEnded(in: &state) }
            }
            var command = try makeCommand(state, now)
            let builtOnSlice = isSlice || merged != nil
            try prepareState(for: command)
            if builtOnSlice, !command.recordReferences.isEmpty {
                // Built again once the slice holds the records it names: building reads them too (a bare
                // HH:MM in `edit` or `split` is a time of the record's own day), and a slice holds at first
                // only the running records and the one that ended last.
                let prepared = command.recordReferences
                command = try makeCommand(state, now)
                if command.recordReferences != prepared { try prepareState(for: command) }
            }
            let newID = options.newID
            let decision: Decision
            do {
                let space = (store as? MergedStore)?.space.description.spaceId
                decision = try decide(
                    command, state: state, context: DecisionContext(now: now, newID: { newID() }, space: space))
            } catch {
                throw StintError(error)
            }
            guard !decision.events.isEmpty else { return Result(decision: decision, events: [], now: now) }
            if isSlice {
                try sliceing { (model, state) throws(ReadModelError) in
                    try model.include(namedBy: decision.events, in: &state)
                }
            }
            let drafts = decision.drafts
            let checked = try checkFits(drafts, now: now, reading: reading)
            switch try store.append(drafts, recordedAt: reading, expecting: head) {
            case .conflict(let current):
                try catchUp(to: current)
            case .appended(let batch, let newHead):
                // The state before, for the read models only: held on to without them, a replica's whole state
                // (after an import) would make its fold copy its records to change them.
                let before = model == nil ? nil : state
                state = try stateAfter(
                    batch.events, checked: checked,
                    named: (command.recordReferences, decision.events.flatMap(\.namedRecordIds)))
                head = newHead
                if let before { saveToReadModels(from: before, named: decision.events, head: newHead) }
                return Result(decision: decision, events: batch.events, now: now)
            }
        }
        throw StintError(
            .refused,
            "other writers appended to the log \(Self.maximumAttempts) times while this command was being decided; "
                + "nothing was recorded: try again")
    }

    /// Folds what other writers appended up to `current`, the store's head.
    private func catchUp(to current: StoreHead?) throws(StintError) {
        guard current != head else { return }
        if let space = store as? MergedStore {
            // Events of other devices may sort anywhere before the head: the merged history is folded on when
            // they all sort after what was folded, else again from a checkpoint.
            let fold = try Self.foldMerged(
                space, upTo: current, continuing: merged.flatMap { fold in head.map { (fold, $0.position) } })
            merged = fold
            state = fold.slice(for: space.space.device)
            head = current
            return
        }
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
        try Self.fold(store, after: known.position, upTo: current, into: &next, rules: rules)
        guard let next else { throw StintError(.damaged, "the log at \(path) lost its events") }
        state = next
        head = current
    }

    /// Loads what deciding `command` on a slice reads: the records its references match (live or deleted), the
    /// inverses `undo` and `redo` append, or the whole state for a command that reads every record. A replica's
    /// slice comes from its merged fold's table (whose stacks it holds whole), a log directory's from its read
    /// models.
    private func prepareState(for command: Command) throws(StintError) {
        if var fold = merged, let space = store as? MergedStore {
            let device = space.space.device
            if command.readsEveryRecord {
                merged = nil  // Not shared while it builds its records by id.
                fold.keepRecordsByID()
                merged = fold
                state = fold.state(for: device)
            } else if !command.recordReferences.isEmpty {
                state = fold.slice(for: device, matching: command.recordReferences)
            }
            return
        }
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

    /// The state after an appended batch: the checked fold, as long as the store placed the events where the
    /// check did (the fold reads only their seq, at and tx); otherwise the events folded again.
    private func stateAfter(
        _ events: [RecordedEvent], checked: (state: LogState?, events: [RecordedEvent]),
        named: (references: [RecordRef], ids: [EntityID])
    ) throws(StintError) -> LogState {
        let placedAsChecked =
            events.count == checked.events.count
            && zip(events, checked.events).allSatisfy { $0.seq == $1.seq && $0.at == $1.at && $0.tx == $1.tx }
        if let space = store as? MergedStore, merged != nil {
            if placedAsChecked, let checkedFold {
                // The check folded these events already (the merged fold reads their device, seq, at and tx):
                // no second copy of the fold.
                merged = checkedFold
            } else {
                // Applied in place: the fold taken out of this log, and the state decided on let go of (after an
                // import it is the whole state, which shares the fold's records), so that nothing holds a second
                // reference to what changes.
                var fold = merged.take()!
                state = state.withoutRecords
                do {
                    for event in events { try fold.apply(event) }
                } catch {
                    // The events are in the store, not all in the fold: without a fold, the next command folds
                    // the merged history again (``catchUp(to:)``, the head being behind the store's).
                    state = fold.slice(for: space.space.device)
                    throw StintError(error)
                }
                merged = fold
            }
            checkedFold = nil
            // The slice after: what it held before, and the records the command named and changed.
            return merged!.slice(for: space.space.device, matching: named.references, including: named.ids)
        }
        if placedAsChecked, let state = checked.state { return state }
        var next = state
        do {
            for event in events { try rules.apply(event, to: &next) }
        } catch {
            throw StintError(error)
        }
        return next
    }

    /// Folds the events a decision would append onto a copy of the state, as the writer will record them,
    /// so that an event that contradicts the log (such as a new id that is already taken) is refused before
    /// anything is written: once appended, it would make every later read of the log fail. Returns the
    /// folded state (nil for a replica, whose state after comes from its merged fold) and the events as
    /// checked.
    private func checkFits(
        _ drafts: [EventDraft], now: Instant, reading: Instant
    ) throws(StintError) -> (state: LogState?, events: [RecordedEvent]) {
        if let space = store as? MergedStore, let merged {
            return try checkFitsMerged(drafts, now: now, reading: reading, space: space, fold: merged)
        }
        var next = state
        let events = Self.placed(drafts, from: state.lastSeq + 1, now: now, reading: reading)
        do {
            for event in events { try rules.apply(event, to: &next) }
        } catch {
            throw StintError(
                .refused,
                "the command was refused because its events contradict the log (\(error.message)); nothing was "
                    + "recorded. A new id that is already in use causes this: check how ids are generated",
                domain: error)
        }
        return (next, events)
    }

    /// `drafts` as the store will place them from `first` on (their `prev` links aside): what the checks fold.
    private static func placed(_ drafts: [EventDraft], from first: Int64, now: Instant, reading: Instant)
        -> [RecordedEvent]
    {
        drafts.enumerated().map { index, draft in
            RecordedEvent(
                seq: first + Int64(index), at: now, type: draft.type, version: draft.version,
                tx: drafts.count > 1 ? first : nil, clock: reading < now ? reading : nil,
                prev: RecordedEvent.genesisPrev, data: draft.data)
        }
    }

    /// ``checkFits(_:now:reading:)`` for a replica: the events as this device will record them, checked
    /// against the merged fold (only the merged fold's damage — a second log.created, an undo marker that
    /// does not name the top of this device's stack — refuses a command here).
    private func checkFitsMerged(
        _ drafts: [EventDraft], now: Instant, reading: Instant, space: MergedStore, fold: MergedFold
    ) throws(StintError) -> (state: LogState?, events: [RecordedEvent]) {
        let device = space.space.device
        var events = Self.placed(
            drafts, from: (try space.frontier().heads[device]?.seq ?? 0) + 1, now: now, reading: reading)
        for index in events.indices {
            events[index].device = device
            events[index].hlc = HLC(impliedBy: now)
        }
        do {
            // Checked without changing the fold, which takes the events once they are appended
            // (``stateAfter(_:checked:)``): a copy to apply them to copied every record. Only a batch the
            // check cannot tell is applied to a copy, which the append then keeps.
            if try !fold.check(batch: events) {
                var next = fold
                for event in events { try next.apply(event) }
                checkedFold = next
            }
        } catch {
            throw StintError(
                .refused,
                "the command was refused because its events contradict the space's history (\(error.message)); "
                    + "nothing was recorded", domain: error)
        }
        return (nil, events)
    }

    /// Releases the store (for a log directory, its lock). The log stays usable by other processes.
    public func close() {
        model?.close()
        model = nil
        store.close()
    }
}
