public import StintCore
public import StintLog

/// A log opened for writing: the writer's lock, and the folded state that commands are decided against.
///
/// One command is one atomic batch: ``execute(_:)`` reads the clock once, decides the command against
/// the current state at that instant (or at the log's last event, if that is later), appends the events
/// (durable before it returns) and folds them.
/// A refused command appends nothing.
///
/// ```swift
/// let log = try TimeLog.open(at: path, options: options)
/// defer { log.close() }
/// let result = try log.execute(.start(tag: .name("writing")))
/// ```
public final class TimeLog {
    /// The log directory.
    public let path: String
    /// The state after the last event of the log.
    public private(set) var state: LogState
    let writer: LogWriter
    let options: EngineOptions
    let instant: CommandInstant

    init(path: String, writer: LogWriter, state: LogState, options: EngineOptions, instant: CommandInstant) {
        self.path = path
        self.writer = writer
        self.state = state
        self.options = options
        self.instant = instant
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
        guard (1...7).contains(firstWeekday) else {
            throw StintError(.usage, "the first weekday must be 1 (Sunday) … 7 (Saturday), not \(firstWeekday)")
        }
        guard let calendar = LogCalendar(timeZone: timeZone, firstWeekday: firstWeekday) else {
            throw StintError(
                .usage, "'\(timeZone)' is not an IANA time zone; use a name such as Europe/Berlin or UTC")
        }
        let instant = CommandInstant(options.clock())
        let settings = LogSettings(logId: options.newID(), calendar: calendar)
        do {
            let writer = try LogWriter.create(
                at: path, settingsEvent: DomainEvent.logCreated(settings).draft,
                configuration: options.logConfiguration(clock: instant))
            guard let first = writer.lastEvent else {
                throw StintError(.refused, "the log at \(path) was created without its first event")
            }
            return TimeLog(
                path: path, writer: writer, state: try LogState(genesis: first), options: options, instant: instant)
        } catch let error as LogError {
            throw StintError(error)
        } catch let error as DomainError {
            throw StintError(error)
        } catch let error as StintError {
            throw error
        } catch {
            throw StintError(.refused, "\(error)")
        }
    }

    /// Opens a log for writing: takes its lock (waiting up to the configured time), repairs a torn tail,
    /// and folds its events into the current state.
    ///
    /// - Throws: ``StintError`` (damaged) for a log damaged before its tail or written by a newer Stint,
    ///   (refused) when the path is not a log, the lock is held, or I/O fails.
    public static func open(at path: String, options: EngineOptions) throws(StintError) -> TimeLog {
        let writer: LogWriter
        let instant = CommandInstant(options.clock())
        do {
            writer = try LogWriter.open(at: path, configuration: options.logConfiguration(clock: instant))
        } catch {
            throw StintError(error)
        }
        do {
            let reader = try LogReader(path: path, options: options.readOptions)
            let folded = try StateLoader(reader: reader, options: options).load(upTo: .latest)
            guard let state = folded.state, state.lastSeq == writer.lastSeq else {
                writer.close()
                throw StintError(
                    .damaged,
                    "the log at \(path) could not be read up to its last event (seq \(writer.lastSeq)); "
                        + "run 'stint verify' to see where it is damaged")
            }
            return TimeLog(path: path, writer: writer, state: state, options: options, instant: instant)
        } catch let error as StintError {
            writer.close()
            throw error
        } catch let error as LogError {
            writer.close()
            throw StintError(error)
        } catch {
            writer.close()
            throw StintError(.refused, "\(error)")
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
    public func execute(
        building makeCommand: (LogState, Instant) throws(StintError) -> Command
    ) throws(StintError) -> Result {
        let reading = options.clock()
        // Commands are decided in the order the lock gives them, so never before the log's last event: a
        // command whose clock was read before another writer appended (while it waited for the lock), or
        // whose clock went back, is decided at that event's instant, where the writer records it anyway
        // (keeping the earlier reading in the event's `clock`).
        let now = max(reading, state.lastAt)
        let command = try makeCommand(state, now)
        let newID = options.newID
        let decision: Decision
        do {
            decision = try decide(command, state: state, context: DecisionContext(now: now, newID: { newID() }))
        } catch {
            throw StintError(error)
        }
        guard !decision.events.isEmpty else { return Result(decision: decision, events: [], now: now) }
        let drafts = decision.drafts
        let checked = try checkFits(drafts, now: now, reading: reading)
        do {
            instant.value = reading
            let events = try writer.append(drafts)
            // The checked fold is the state after the batch, as long as the writer placed the events where the
            // check did (the fold reads only their seq, at and tx).
            let placedAsChecked =
                events.count == checked.events.count
                && zip(events, checked.events).allSatisfy { $0.seq == $1.seq && $0.at == $1.at && $0.tx == $1.tx }
            if placedAsChecked {
                state = checked.state
            } else {
                var next = state
                for event in events { try next.apply(event) }
                state = next
            }
            return Result(decision: decision, events: events, now: now)
        } catch let error as LogError {
            throw StintError(error)
        } catch let error as DomainError {
            throw StintError(error)
        } catch {
            throw StintError(.refused, "\(error)")
        }
    }

    /// Folds the events a decision would append onto a copy of the state, as the writer will record them,
    /// so that an event that contradicts the log (such as a new id that is already taken) is refused before
    /// anything is written: once appended, it would make every later read of the log fail. Returns the
    /// folded state and the events as checked.
    private func checkFits(
        _ drafts: [EventDraft], now: Instant, reading: Instant
    ) throws(StintError) -> (state: LogState, events: [RecordedEvent]) {
        var next = state
        let first = state.lastSeq + 1
        var events: [RecordedEvent] = []
        do {
            for (index, draft) in drafts.enumerated() {
                let event = RecordedEvent(
                    seq: first + Int64(index), at: now, type: draft.type, version: draft.version,
                    tx: drafts.count > 1 ? first : nil, clock: reading < now ? reading : nil,
                    prev: RecordedEvent.genesisPrev, data: draft.data)
                try next.apply(event)
                events.append(event)
            }
        } catch {
            throw StintError(
                .refused,
                "the command was refused because its events contradict the log (\(error.message)); nothing was "
                    + "recorded. A new id that is already in use causes this: check how ids are generated",
                domain: error)
        }
        return (next, events)
    }

    /// The head of the log: its last `seq` and the SHA-256 of that event's line.
    public var head: LogHead? { writer.head }

    /// Releases the lock. The log stays usable by other processes.
    public func close() {
        writer.close()
    }
}
