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
    /// commands named; otherwise the whole state. The stacks' entries of a slice hold their inverses only while
    /// `undo` or `redo` is decided (a single log's none, a replica's its record edits), and a replica's slice
    /// takes the running records and the one that ended last in again before each decision (between
    /// commands it may lack the one that ended last, when another device deleted or moved it).
    public var state: LogState { fold.state }
    /// The store's head as of ``state``.
    public var head: StoreHead? { fold.head }
    let store: any EventStore
    let options: EngineOptions
    /// The state kept by the rules of the store's kind (``LogFold``, ``ReplicaFold``).
    private let fold: any StoreFold

    init(store: any EventStore, fold: any StoreFold, options: EngineOptions) {
        self.store = store
        self.fold = fold
        self.options = options
        path = fold.path
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
            let fold = LogFold(
                path: path, store: store, state: state, head: head, options: options, model: model, directory: store)
            return TimeLog(store: store, fold: fold, options: options)
        } catch {
            store.close()
            throw StintError(error)
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
        case .appended(_, let head):
            return TimeLog(store: store, fold: try fold(of: store, upTo: head, options: options), options: options)
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
    /// tail, and folds its events into the current state from the newest usable checkpoint. The one opener of
    /// a log directory: a replica of a space (it has a `space` file) is opened as one, its commands decided
    /// on the merged history of every device (docs/decisions/0007).
    ///
    /// - Throws: ``StintError`` (damaged) for a log damaged before its tail or written by a newer Stint,
    ///   (refused) when the path is not a log, the lock is held, or I/O fails.
    public static func open(at path: String, options: EngineOptions) throws(StintError) -> TimeLog {
        if Space.isReplica(log: path, options: options) { return try openReplica(log: path, options: options) }
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
            let fold = try LogFold.open(store, upTo: try store.head(), model: opened, options: options)
            return TimeLog(store: store, fold: fold, options: options)
        } catch {
            store.close()
            throw error
        }
    }

    /// Opens the log held by `store`, folding all its events (by the store's own rules for a store that has
    /// them, such as a space's replica; else as a single log).
    ///
    /// - Throws: ``StintError`` (damaged) for an empty store or events that cannot be folded.
    public static func open(store: any EventStore, options: EngineOptions) throws(StintError) -> TimeLog {
        TimeLog(store: store, fold: try fold(of: store, upTo: try store.head(), options: options), options: options)
    }

    /// The fold of `store`'s events up to `head`: its own (``FoldingStore``), else a single log's.
    private static func fold(of store: any EventStore, upTo head: StoreHead?, options: EngineOptions)
        throws(StintError) -> any StoreFold
    {
        if let folding = store as? any FoldingStore { return try folding.makeFold(upTo: head, options: options) }
        return try LogFold.whole(store, upTo: head, options: options)
    }

    /// Opens the replica at `log` (a log in a space, docs/decisions/0007) for writing: a ``MergedStore`` holding
    /// the own log's lock, the merged history folded on the replica's read models (decision 0010), or from the
    /// newest merged checkpoint that holds without them. Every command ingests the sync folder first.
    ///
    /// - Throws: as ``MergedStore/open(log:holdingLock:options:)``, and (damaged) for a merged history that
    ///   does not fold.
    private static func openReplica(log: String, options: EngineOptions) throws(StintError) -> TimeLog {
        let usesModels = options.usesReadModels
        let options = ReplicaFold.storeOptions(options)
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        do {
            let fold = try ReplicaFold.open(store, upTo: try store.head(), usesModels: usesModels, options: options)
            return TimeLog(store: store, fold: fold, options: options)
        } catch {
            store.close()
            throw error
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
        // The check's fold is only for the command being appended: not kept after it, whatever happens.
        defer { fold.endCommand() }
        // A space's replica first takes in what the other devices wrote (docs/decisions/0007 §6.1).
        try fold.beforeCommand()
        // A refusal is a decision too: decide on what the store holds now, not on what it held at open.
        try fold.catchUp(to: try store.head())
        for _ in 0..<Self.maximumAttempts {
            let reading = options.clock()
            // Commands are decided in the order the store takes them, so never before the log's last event: a
            // command whose clock was read before another writer appended, or whose clock went back, is decided
            // at that event's instant, where the store records it anyway (keeping the earlier reading in the
            // event's `clock`).
            let now = max(reading, state.lastAt)
            try fold.beforeDeciding()
            var command = try makeCommand(state, now)
            let builtOnSlice = fold.decidesOnSlice
            try fold.prepare(for: command)
            if builtOnSlice, !command.recordReferences.isEmpty {
                // Built again once the slice holds the records it names: building reads them too (a bare
                // HH:MM in `edit` or `split` is a time of the record's own day), and a slice holds at first
                // only the running records and the one that ended last.
                let prepared = command.recordReferences
                command = try makeCommand(state, now)
                if command.recordReferences != prepared { try fold.prepare(for: command) }
            }
            let newID = options.newID
            let decision: Decision
            do {
                decision = try decide(
                    command, state: state,
                    context: DecisionContext(now: now, newID: { newID() }, space: fold.decisionSpace))
            } catch {
                throw StintError(error)
            }
            guard !decision.events.isEmpty else { return Result(decision: decision, events: [], now: now) }
            try fold.include(namedBy: decision.events)
            let drafts = decision.drafts
            try fold.check(drafts, now: now, reading: reading)
            switch try store.append(drafts, recordedAt: reading, expecting: head) {
            case .conflict(let current):
                try fold.catchUp(to: current)
            case .appended(let batch, let newHead):
                try fold.appended(
                    batch.events, head: newHead,
                    named: (command.recordReferences, decision.events.flatMap(\.namedRecordIds)),
                    decided: decision.events)
                return Result(decision: decision, events: batch.events, now: now)
            }
        }
        throw StintError(
            .refused,
            "other writers appended to the log \(Self.maximumAttempts) times while this command was being decided; "
                + "nothing was recorded: try again")
    }

    /// Releases the store (for a log directory, its lock). The log stays usable by other processes.
    public func close() {
        fold.close()
        store.close()
    }
}
