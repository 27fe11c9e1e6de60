// Random user commands for one device, built from the state the device decides on (after it ingested its
// view of the sync folder). With conflicts off a device acts only on the records and tags it created, so
// that no two devices act on one thing concurrently; with more, they act on anything they see.
import StintCore

/// A seeded generator shared by the simulation's parts, as a reference so that closures can draw from it.
final class RandomSource {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
    func int64(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &generator) }
    func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
    func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0..<items.count)] }
}

/// A command and the fields an edit sets.
struct GeneratedCommand {
    var command: Command
    var editedFields: Set<Field>?
    /// Undo and redo: under conflicts off they run with every device caught up.
    var needsBarrier: Bool {
        command == .undo || command == .redo
    }
}

struct CommandGenerator {
    let device: Int
    let conflicts: ConflictLevel
    let oracle: Oracle
    let random: RandomSource
    /// How many tag names this device made (names are `d<device>-<n>`, so that two devices never take one).
    var tagNames: Int

    /// The kind of command to run next (drawn before the state is known, so that a barrier can be set up).
    enum Kind: CaseIterable {
        case start, switchTo, stop, track, edit, delete, undo, redo, addTag, renameTag
    }

    func nextKind() -> Kind {
        let weights: [(Kind, Int)] = [
            (.start, 16), (.switchTo, 8), (.stop, 14), (.track, 14), (.edit, 22), (.delete, 8), (.undo, 6),
            (.redo, 3), (.addTag, 5), (.renameTag, 4),
        ]
        var draw = random.int(0..<weights.reduce(0) { $0 + $1.1 })
        for (kind, weight) in weights {
            if draw < weight { return kind }
            draw -= weight
        }
        return .start
    }

    /// Whether this device may edit a record (with conflicts at `edits`, any record it sees).
    private func mayEdit(_ id: EntityID) -> Bool {
        conflicts != .off || oracle.recordOwner[id] == device
    }

    /// Whether it may stop or delete a record: only its own unless conflicts are on.
    private func mayStopOrDelete(_ id: EntityID) -> Bool {
        conflicts == .on || oracle.recordOwner[id] == device
    }

    private func ownTags(_ state: LogState) -> [Tag] {
        state.tags.values.filter { !$0.isDeleted && !$0.isArchived && oracle.tagOwner[$0.id] == device }
            .sorted { $0.id < $1.id }
    }

    private func tagChoice(_ state: LogState) -> TagChoice {
        guard random.chance(70), let tag = random.pick(ownTags(state)) else { return .untagged }
        return .id(tag.id)
    }

    private func comment() -> String? {
        random.chance(30)
            ? nil
            : random.pick(["mail", "review", "draft", "call", "plan", "fix", "write"])! + " \(random.int(0..<100))"
    }

    private mutating func newTagName() -> String {
        tagNames += 1
        return "d\(device)-\(tagNames)"
    }

    private func sortedRecords(_ state: LogState, _ include: (Record) -> Bool) -> [Record] {
        state.records.values.filter(include).sorted { $0.id < $1.id }
    }

    /// The command of `kind` on `state` at `now`; nil when there is nothing to do it on.
    mutating func command(_ kind: Kind, state: LogState, now: Instant) -> GeneratedCommand? {
        switch kind {
        case .start:
            return GeneratedCommand(command: .start(tag: tagChoice(state), comment: comment(), force: true))
        case .switchTo:
            // A switch stops every timer the device sees running: only its own, unless conflicts are on.
            let running = state.runningRecords
            guard conflicts == .on || running.allSatisfy({ oracle.recordOwner[$0.id] == device }) else { return nil }
            return GeneratedCommand(
                command: .start(tag: tagChoice(state), comment: comment(), switching: true, force: true))
        case .stop:
            guard let record = random.pick(state.runningRecords.filter({ mayStopOrDelete($0.id) })) else { return nil }
            return GeneratedCommand(command: .stop(records: [RecordRef(record.id)], force: true))
        case .track:
            let end = now.adding(milliseconds: -random.int64(0...36_000_000))
            let start = end.adding(milliseconds: -random.int64(60_000...10_800_000))
            return GeneratedCommand(
                command: .track(
                    start: ParsedTime(start), end: ParsedTime(end), tag: tagChoice(state), comment: comment(),
                    force: true))
        case .edit:
            guard let record = random.pick(sortedRecords(state, { mayEdit($0.id) })) else { return nil }
            var fields: Set<Field> = []
            while fields.isEmpty {
                for field in Field.allCases where random.chance(35) { fields.insert(field) }
            }
            if record.isRunning { fields.remove(.end) }
            guard !fields.isEmpty else { return nil }
            var start: ParsedTime?
            var end: ParsedTime?
            if fields.contains(.start) {
                start = ParsedTime(record.start.adding(milliseconds: -random.int64(1_000...1_800_000)))
            }
            if fields.contains(.end), let recordEnd = record.end {
                end = ParsedTime(recordEnd.adding(milliseconds: random.int64(1_000...1_800_000)))
            }
            var tag: TagChoice?
            if fields.contains(.tag) { tag = tagChoice(state) }
            var text: String?
            if fields.contains(.comment) { text = comment() ?? "" }
            return GeneratedCommand(
                command: .edit(
                    record: RecordRef(record.id), start: start, end: end, tag: tag, comment: text, force: true),
                editedFields: fields)
        case .delete:
            // With conflicts at `edits` other devices edit this device's records: a deletion would conflict.
            guard conflicts != .edits else { return nil }
            guard let record = random.pick(sortedRecords(state, { mayStopOrDelete($0.id) })) else { return nil }
            return GeneratedCommand(command: .delete(record: RecordRef(record.id)))
        case .undo:
            return GeneratedCommand(command: .undo)
        case .redo:
            return GeneratedCommand(command: .redo)
        case .addTag:
            return GeneratedCommand(command: .addTag(name: newTagName()))
        case .renameTag:
            guard let tag = random.pick(ownTags(state)) else { return nil }
            return GeneratedCommand(command: .renameTag(name: tag.name, newName: newTagName()))
        }
    }
}
