import Glibc
import StintCore
@_spi(FaultInjection) import StintLog

/// Simulates a person's work days as Stint commands, decided by the domain's `decide` against the folded
/// state and appended through a real ``LogWriter`` (one batch per command, sealing as in production).
///
/// Work days use 1–6 tags drawn unevenly from ``Vocabulary/tags``; records are timers started and stopped
/// (some switched without a gap), completed records tracked afterwards, some with comments, a few
/// concurrent timers, edits and deletes of earlier records (some undone and redone), and tag renames.
final class HistorySimulator {
    struct Counts {
        var commands = 0
        var refused = 0
        var started = 0
        var tracked = 0
        var concurrent = 0
        var edited = 0
        var deleted = 0
        var undone = 0
        var redone = 0
        var renamed = 0
        var days = 0
    }

    let calendar: LogCalendar
    let clock: SimulatedClock
    let writer: LogWriter
    private(set) var state: LogState
    private(set) var counts = Counts()
    private var random: SplitMix64
    private var tagNames = Vocabulary.tags
    private var renames = 0
    /// Recently completed records that edits and deletes pick from.
    private var recent: [EntityID] = []

    init(path: String, seed: UInt64, timeZone: String, firstDay: CivilDate) throws {
        random = SplitMix64(seed: seed)
        guard let calendar = LogCalendar(timeZone: timeZone, firstWeekday: 2) else {
            throw GeneratorError("unknown time zone \(timeZone)")
        }
        self.calendar = calendar
        clock = SimulatedClock(calendar.startOfDay(firstDay).adding(milliseconds: 7 * 3_600_000))
        var configuration = LogConfiguration(clock: { [clock] in clock.now })
        configuration.fileSystem = NoSyncFileSystem()
        var ids = random
        let settings = LogSettings(logId: HistorySimulator.newID(&ids), calendar: calendar)
        random = ids
        writer = try LogWriter.create(
            at: path, settingsEvent: DomainEvent.logCreated(settings).draft, configuration: configuration)
        guard let first = writer.lastEvent else { throw GeneratorError("the log was created without its first event") }
        state = try LogState(genesis: first)
    }

    static func newID(_ random: inout SplitMix64) -> EntityID {
        EntityID(randomBits: random.next(), random.next())
    }

    /// Runs whole days from `firstDay` until the log holds at least `events` events; returns the last day.
    func run(from firstDay: CivilDate, events target: Int64) throws -> CivilDate {
        var day = firstDay
        while state.lastSeq < target {
            try simulate(day, until: target)
            day = day.adding(days: 1)
        }
        if !state.runningRecordIds.isEmpty { try execute(.stop(all: true)) }
        return day
    }

    /// The instant of a local time on `date` (the later one when a DST change makes it ambiguous).
    private func instant(_ date: CivilDate, minute: Int) -> Instant {
        let local = LocalDateTime(date: date, hour: minute / 60, minute: minute % 60)
        switch calendar.resolve(local) {
        case .unique(let instant): return instant
        case .ambiguous(_, let second): return second
        case .nonexistent(let next): return next
        }
    }

    private func simulate(_ date: CivilDate, until target: Int64) throws {
        let weekend = date.weekday == 1 || date.weekday == 7
        if weekend && !random.chance(0.05) { return }
        counts.days += 1
        let tagCount = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6][Int.random(in: 0..<10, using: &random)]
        var dayTags: [String] = []
        while dayTags.count < tagCount {
            let name = tagNames[random.zipf(tagNames.count)]
            if !dayTags.contains(name) { dayTags.append(name) }
        }
        var minute = 8 * 60 + Int.random(in: 0..<90, using: &random)
        let recordsToday = Int.random(in: 6...16, using: &random)
        var running: EntityID?
        for index in 0..<recordsToday {
            if state.lastSeq >= target { break }
            let duration = 5 + Int(Double(115) * pow(Double.random(in: 0..<1, using: &random), 2))
            guard minute + duration < 23 * 60 else { break }
            let start = instant(date, minute: minute)
            let end = instant(date, minute: minute + duration)
            let tag: TagChoice = random.chance(0.05) ? .untagged : .name(dayTags[random.zipf(dayTags.count)])
            let comment = random.chance(0.3) ? Vocabulary.comment(using: &random) : nil
            if running == nil && random.chance(0.2) {
                clock.advance(to: end)
                if let decision = try execute(
                    .track(start: ParsedTime(start), end: ParsedTime(end), tag: tag, comment: comment)),
                    case .tracked(let record) = decision.outcome
                {
                    counts.tracked += 1
                    remember(record.id)
                }
            } else {
                clock.advance(to: start)
                let switching = running != nil
                guard let decision = try execute(.start(tag: tag, comment: comment, switching: switching)),
                    case .started(let record, let stopped) = decision.outcome
                else { continue }
                counts.started += 1
                for previous in stopped { remember(previous.id) }
                running = record.id
                if random.chance(0.02) { try concurrentTimer(date, from: minute, length: duration) }
                let switchesNext = index < recordsToday - 1 && random.chance(0.3)
                if !switchesNext {
                    clock.advance(to: end)
                    try execute(.stop(records: [try RecordRef(record.id.uuidString)]))
                    remember(record.id)
                    running = nil
                }
            }
            minute += duration
            if running == nil { minute += random.chance(0.3) ? 0 : Int.random(in: 1...20, using: &random) }
            if running == nil { try touchEarlierRecords() }
        }
        if let id = running {
            try execute(.stop(records: [try RecordRef(id.uuidString)]))
            remember(id)
        }
        if random.chance(0.004) { try renameTag() }
    }

    /// A second timer that starts and stops while the day's timer runs.
    private func concurrentTimer(_ date: CivilDate, from minute: Int, length: Int) throws {
        guard length >= 9 else { return }
        let name = tagNames[random.zipf(tagNames.count)]
        clock.advance(to: instant(date, minute: minute + length / 3))
        guard let decision = try execute(.start(tag: .name(name))),
            case .started(let record, _) = decision.outcome
        else { return }
        counts.concurrent += 1
        clock.advance(to: instant(date, minute: minute + 2 * length / 3))
        try execute(.stop(records: [try RecordRef(record.id.uuidString)]))
        remember(record.id)
    }

    /// Now and then, edits or deletes an earlier record, and sometimes undoes (and redoes) that.
    private func touchEarlierRecords() throws {
        if random.chance(0.03), let id = pickRecent(), let record = state.records[id], let end = record.end {
            let reference = try RecordRef(id.uuidString)
            let command: Command
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let moved = end.adding(milliseconds: Int64(Int.random(in: -15...15, using: &random)) * 60_000)
                let newEnd = min(max(moved, record.start), clock.now)
                command = .edit(record: reference, end: ParsedTime(newEnd))
            case 1:
                command = .edit(record: reference, comment: Vocabulary.comment(using: &random))
            default:
                command = .edit(record: reference, tag: .name(tagNames[random.zipf(tagNames.count)]))
            }
            if try execute(command) != nil { counts.edited += 1 }
            try maybeUndo()
        }
        if random.chance(0.01), let id = pickRecent(), state.records[id] != nil {
            if try execute(.delete(record: try RecordRef(id.uuidString))) != nil {
                counts.deleted += 1
                recent.removeAll { $0 == id }
            }
            try maybeUndo()
        }
    }

    private func maybeUndo() throws {
        guard random.chance(0.1) else { return }
        if try execute(.undo) != nil { counts.undone += 1 }
        if random.chance(0.3), try execute(.redo) != nil { counts.redone += 1 }
    }

    private func renameTag() throws {
        let index = random.zipf(tagNames.count)
        let old = tagNames[index]
        guard state.tag(named: old) != nil else { return }
        renames += 1
        let base = old.split(separator: "~").first.map(String.init) ?? old
        let new = "\(base)~\(renames)"
        if try execute(.renameTag(name: old, newName: new)) != nil {
            tagNames[index] = new
            counts.renamed += 1
        }
    }

    private func remember(_ id: EntityID) {
        recent.append(id)
        if recent.count > 400 { recent.removeFirst(recent.count - 300) }
    }

    private func pickRecent() -> EntityID? {
        recent.isEmpty ? nil : recent[Int.random(in: 0..<recent.count, using: &random)]
    }

    /// Decides `command` at the simulated now, appends its events as one batch and folds them, as
    /// `TimeLog.execute` does; nil when the domain refused it (nothing is appended).
    @discardableResult
    private func execute(_ command: Command) throws -> Decision? {
        counts.commands += 1
        var ids = random
        let decision: Decision
        do {
            decision = try decide(
                command, state: state, context: DecisionContext(now: clock.now, newID: { HistorySimulator.newID(&ids) })
            )
        } catch {
            counts.refused += 1
            random = ids
            return nil
        }
        random = ids
        guard !decision.events.isEmpty else { return decision }
        let events = try writer.append(decision.drafts)
        for event in events { try state.apply(event) }
        return decision
    }
}

/// A failure of the generator, printed as `error: …`.
struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
