import Foundation
import StintCore
import StintLog
import TestSupport

/// Generates a valid log of a person's working days from a seed, through the real decision function:
/// timers started, switched and stopped, records tracked, edited (also last week's), split, deleted,
/// undone and redone, tags renamed, archived and deleted. Commands the domain refuses are skipped.
///
/// The events get their envelope (`seq`, `at`, `tx`, `prev`) as the writer would assign it, without the
/// writer's `fdatasync` per batch, so a log of 100 000 events takes seconds to make.
struct SyntheticLog {
    let calendar: LogCalendar
    private(set) var state: LogState
    private(set) var events: [RecordedEvent] = []
    private(set) var now: Instant
    private var random: SplitMix64
    private let ids = IncrementingIDs()
    private var previousHash: String
    /// The ids of the records created so far, oldest first (some may be deleted since).
    private var createdRecords: [EntityID] = []

    static let tagNames = ["writing", "email", "review", "meeting", "research", "admin", "call", "design", "ops"]

    init(seed: UInt64, timeZone: String = "America/New_York", firstWeekday: Int = 1, start: String) {
        calendar = LogCalendar(timeZone: timeZone, firstWeekday: firstWeekday)!
        random = SplitMix64(seed: seed)
        now = Instant(canonical: start)!
        let genesis = RecordedEvent(
            seq: 1, at: now, type: "log.created", version: 1, prev: RecordedEvent.genesisPrev,
            data: DomainEvent.logCreated(LogSettings(logId: EntityID(high: 1, low: seed), calendar: calendar)).draft
                .data)
        state = try! LogState(genesis: genesis)
        events = [genesis]
        previousHash = LogHead(of: genesis).hash
    }

    /// Appends `events` as one batch as a writer would, without a decision (for imports, whose planning
    /// lives outside `decide`); they must fit the state.
    mutating func append(_ domainEvents: [DomainEvent]) {
        let first = (events.last?.seq ?? 0) + 1
        for (offset, domain) in domainEvents.enumerated() {
            let draft = domain.draft
            let event = RecordedEvent(
                seq: first + Int64(offset), at: now, type: draft.type, version: draft.version,
                tx: domainEvents.count > 1 ? first : nil, prev: String(previousHash.prefix(32)), data: draft.data)
            try! state.apply(event)
            previousHash = LogHead(of: event).hash
            events.append(event)
        }
    }

    /// An import batch: a few new records from "Timewarrior", one earlier import changed, one removed.
    mutating func importSome() {
        var batch: [DomainEvent] = []
        let imported = state.importProvenance.keys.sorted().compactMap { state.records[$0] }
        if let changed = imported.first {
            var record = changed
            record.end = record.end.map { $0.adding(milliseconds: 5 * 60_000) }
            batch.append(.recordReimported(record, source: state.importProvenance[record.id]!.source))
        }
        if imported.count > 1 { batch.append(.recordUnimported(recordId: imported[1].id)) }
        let tag = state.tags.values.filter { !$0.isDeleted }.min { $0.id < $1.id }
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let source = ImportSource(system: .timewarrior, identity: "\(events.count)-\(index)")
            let start = now.adding(milliseconds: -Int64.random(in: 60...4_000, using: &random) * 60_000)
            let record = Record(
                id: source.recordId, start: start, end: start.adding(milliseconds: 45 * 60_000),
                tagId: index == 0 ? nil : tag?.id, comment: "imported")
            batch.append(.recordImported(record, source: source))
        }
        append(batch)
    }

    /// Decides `command` at the current instant and appends its events; false when it was refused.
    @discardableResult
    mutating func execute(_ command: Command) -> Bool {
        let decision: Decision
        let ids = self.ids
        do {
            decision = try decide(command, state: state, context: DecisionContext(now: now, newID: { ids.next() }))
        } catch {
            return false
        }
        guard !decision.events.isEmpty else { return false }
        append(decision.events)
        for domain in decision.events {
            switch domain {
            case .timerStarted(let id, _, _, _), .recordTracked(let id, _, _, _, _): createdRecords.append(id)
            default: break
            }
        }
        return true
    }

    mutating func advance(minutes: Int64) {
        now = now.adding(milliseconds: minutes * 60_000)
    }

    private mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
    }

    private mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    /// Adds random commands until the log holds at least `count` events.
    ///
    /// - Parameter referencingRecords: false leaves out the commands that name a record (edit, delete,
    ///   split, cancel, stop by id), whose lookup scans every record in a debug build: for logs of
    ///   100 000 events.
    mutating func grow(toEvents count: Int, referencingRecords: Bool = true) {
        while events.count < count { step(referencingRecords: referencingRecords) }
    }

    /// One random command, then some time passes.
    mutating func step(referencingRecords: Bool = true) {
        var roll = Int.random(in: 0..<100, using: &random)
        if !referencingRecords, (66..<77).contains(roll) || (89..<95).contains(roll) { roll = 55 }
        let running = state.runningRecords
        let live = createdRecords.suffix(60).compactMap { state.records[$0] }
        let tagName = pick(SyntheticLog.tagNames)!
        switch roll {
        case 0..<28:
            execute(.start(tag: chance(85) ? .name(tagName) : .untagged, switching: chance(50)))
        case 28..<55:
            if running.count > 1, referencingRecords {
                execute(.stop(records: [RecordRef(pick(running)!.id)]))
            } else {
                execute(.stop(all: true))
            }
        case 55..<66:
            let minutes = Int64.random(in: 20...300, using: &random)
            let start = now.adding(
                milliseconds: -minutes * 60_000 - Int64.random(in: 0...3_000, using: &random) * 60_000)
            execute(
                .track(
                    start: ParsedTime(start), end: ParsedTime(start.adding(milliseconds: minutes * 60_000)),
                    tag: .name(tagName)))
        case 66..<73:
            if let record = pick(live) {
                let shift = Int64.random(in: -30...30, using: &random) * 60_000
                execute(
                    .edit(
                        record: RecordRef(record.id), start: ParsedTime(record.start.adding(milliseconds: shift)),
                        tag: chance(50) ? .name(tagName) : nil))
            }
        case 73..<77:
            if let record = pick(live) { execute(.delete(record: RecordRef(record.id))) }
        case 77..<83:
            execute(.undo)
        case 83..<85:
            execute(.redo)
        case 85..<87:
            if let tag = pick(state.tags.values.filter { !$0.isDeleted }.sorted { $0.id < $1.id }) {
                execute(.renameTag(name: tag.name, newName: tagName + "-\(Int.random(in: 1...9, using: &random))"))
            }
        case 87..<88:
            if let tag = pick(state.tags.values.filter { !$0.isDeleted }.sorted { $0.id < $1.id }) {
                execute(tag.isArchived ? .unarchiveTag(name: tag.name) : .archiveTag(name: tag.name))
            }
        case 88..<89:
            if let tag = pick(state.tags.values.filter { !$0.isDeleted }.sorted { $0.id < $1.id }) {
                execute(.deleteTag(name: tag.name))
            }
        case 89..<92:
            if let record = pick(running) { execute(.cancel(record: RecordRef(record.id))) }
        case 92..<95:
            if let record = pick(live.filter { !$0.isRunning }.suffix(20)), let end = record.end,
                end.milliseconds(since: record.start) > 120_000
            {
                execute(.split(record: RecordRef(record.id), at: ParsedTime(record.start.adding(milliseconds: 60_000))))
            }
        case 95..<97:
            importSome()
        default:
            execute(.continue(switching: chance(50)))
        }
        // Mostly minutes apart, sometimes an evening or a weekend.
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<80: advance(minutes: Int64.random(in: 1...90, using: &random))
        case 80..<97: advance(minutes: Int64.random(in: 180...900, using: &random))
        default: advance(minutes: Int64.random(in: 1_440...4_000, using: &random))
        }
    }

    /// The log as JSON Lines, as `stint history --json` prints it.
    var jsonLines: [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            event.appendLine(to: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Writes the log as a `.jsonl` file that `--log` reads.
    func write(to path: String) throws {
        try Data(jsonLines).write(to: URL(fileURLWithPath: path))
    }
}
