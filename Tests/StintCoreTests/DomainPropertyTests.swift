import Foundation
import Testing

@testable import StintCore

/// Random command streams through decide and the fold, checking the properties every log must have.
@Suite struct DomainPropertyTests {
    static let commandCount = 2000

    /// A fixed seed (always run, so CI is repeatable), a fresh one (so runs explore), or STINT_TEST_SEED.
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0x5717_0001, UInt64.random(in: 0...UInt64.max)]
    }

    @Test(arguments: seeds)
    func randomCommandStreamsKeepTheLogConsistent(seed: UInt64) throws {
        print("DomainPropertyTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var run = RandomRun(seed: seed)
        try run.go(commands: Self.commandCount)
        print("seed \(seed): \(run.applied) applied, \(run.refused) refused, \(run.undone) undos, \(run.redone) redos")
        #expect(run.applied > Self.commandCount / 3, "too few commands went through: \(run.applied)")
        #expect(run.refused > 0)
        #expect(run.undone > 10)
        #expect(run.redone > 2)

        // Folding everything from scratch gives the incremental state.
        let final = run.log.state
        #expect(try LogState.fold(run.log.events) == final, "seed \(seed)")

        // Folding a prefix that ends at a batch boundary, then the rest, gives the same state.
        var random = SplitMix64(seed: seed ^ 0xB0B)
        for _ in 0..<25 {
            let boundary = run.boundaries.randomElement(using: &random)!
            var state = try LogState.fold(run.log.events[..<boundary])
            #expect(state == run.statesAtBoundaries[boundary], "seed \(seed), prefix \(boundary)")
            for event in run.log.events[boundary...] { try state.apply(event) }
            #expect(state == final, "seed \(seed), prefix \(boundary)")
        }
    }
}

/// One random run: the log, what happened, and the state at each batch boundary.
struct RandomRun {
    var random: SplitMix64
    var log: TestLog
    let ids: RandomIDs
    var applied = 0
    var refused = 0
    var undone = 0
    var redone = 0
    /// Event counts at which a batch ends (prefix lengths), and the state there.
    var boundaries: [Int] = [1]
    var statesAtBoundaries: [Int: LogState] = [:]
    /// The projection before each batch, by the batch's first seq.
    var before: [Int64: Snapshot] = [:]
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
        let ids = RandomIDs(seed: seed ^ 0x1D5)
        self.ids = ids
        log = TestLog(zone: "Europe/Berlin", now: "2026-03-20T08:00:00.000Z", newID: ids.next)
        statesAtBoundaries[1] = log.state
    }

    mutating func go(commands: Int) throws {
        for _ in 0..<commands {
            log.advance(minutes: Int64.random(in: 0...180, using: &random))
            let command = randomCommand()
            let stateBefore = log.state
            let snapshot = log.snapshot
            let decision: Decision
            do {
                decision = try decide(command, state: log.state, context: log.context)
            } catch {
                #expect(error.category != .damaged, "seed \(seed): \(command) → \(error)")
                refused += 1
                continue
            }
            let start = log.state.lastSeq + 1
            do {
                try log.append(decision.events)
            } catch {
                Issue.record("seed \(seed): the fold refused what decide produced for \(command): \(error)")
                throw error
            }
            guard !decision.events.isEmpty else {
                #expect(log.state == stateBefore)
                continue
            }
            applied += 1
            before[start] = snapshot
            boundaries.append(log.events.count)
            statesAtBoundaries[log.events.count] = log.state
            switch decision.events.first {
            case .commandUndone(let tx)?:
                undone += 1
                DomainUndoTests.expectRestored(log.snapshot, before[tx]!, "seed \(seed): undo of \(tx)")
            case .commandRedone(let tx)?:
                redone += 1
                DomainUndoTests.expectRestored(log.snapshot, before[tx]!, "seed \(seed): redo of \(tx)")
            default:
                #expect(log.state.redoStack.isEmpty)
            }
            checkInvariants()
        }
    }

    func checkInvariants() {
        let state = log.state
        let live = state.tags.values.filter { !$0.isDeleted }
        #expect(Set(live.map { $0.name.lowercased() }).count == live.count, "seed \(seed): tag names collide")
        let running = state.records.values.filter(\.isRunning).sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        #expect(state.runningRecordIds == running.map(\.id), "seed \(seed): running list")
        for record in state.records.values {
            #expect(record.end.map { $0 >= record.start } ?? true, "seed \(seed): \(record)")
            #expect(record.tagId.map { state.tags[$0] != nil } ?? true, "seed \(seed): \(record)")
            #expect(record.start <= log.now, "seed \(seed): \(record) starts after now")
        }
        #expect(state.deletedRecordIds.isDisjoint(with: state.records.keys))
        #expect(state.undoStack.count <= LogState.undoLimit && state.redoStack.count <= LogState.undoLimit)
        #expect(Set(state.recentTagIds).count == state.recentTagIds.count)
        #expect(state.recentTagIds.allSatisfy { state.tags[$0] != nil })
        #expect(state.lastSeq == Int64(log.events.count))
    }

    // MARK: - Random commands

    static let names = ["Work", "work", " Home ", "Focus", "FOCUS", "Admin", "Reading", "Ünïcode ✓"]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func tagChoice() -> TagChoice {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...2: return .untagged
        case 3: return .id(log.state.tags.keys.randomElement(using: &random) ?? ids.next())
        case 4: return .name("")
        default: return .name(Self.names.randomElement(using: &random)!)
        }
    }

    /// A time some minutes ago, rarely in the future or more than a week ago.
    mutating func time(minutesAgo range: ClosedRange<Int64> = 0...600) -> ParsedTime {
        if chance(3) {
            return ParsedTime(log.now.adding(milliseconds: Int64.random(in: 1...7_200_000, using: &random)))
        }
        if chance(3) { return log.time("8d ago") }
        return log.time("\(Int64.random(in: range, using: &random))m ago")
    }

    mutating func reference() -> RecordRef {
        let pool = Array(log.state.records.keys) + Array(log.state.deletedRecordIds)
        guard let id = pool.randomElement(using: &random), !chance(5) else { return try! RecordRef("ffff") }
        let digits = id.uuidString.replacingOccurrences(of: "-", with: "")
        return try! RecordRef(String(digits.prefix(Int.random(in: 4...32, using: &random))))
    }

    mutating func comment() -> String? {
        chance(60) ? nil : ["", "notes", "line\nbreak", "  padded  "].randomElement(using: &random)!
    }

    mutating func randomCommand() -> Command {
        let force = chance(10)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<18:
            return .start(
                tag: tagChoice(), comment: comment(), at: chance(50) ? nil : time(minutesAgo: 0...120),
                switching: chance(25), force: force)
        case 18..<32:
            let refs = chance(60) ? [] : (0..<Int.random(in: 1...2, using: &random)).map { _ in reference() }
            return .stop(
                records: refs, all: refs.isEmpty && chance(30), at: chance(60) ? nil : time(minutesAgo: 0...60),
                force: force)
        case 32..<42:
            let end = time(minutesAgo: 0...300)
            return .track(
                start: ParsedTime(
                    end.instant.adding(milliseconds: -Int64.random(in: -600_000...7_200_000, using: &random))),
                end: end, tag: tagChoice(), comment: comment(), force: force)
        case 42..<50:
            return .edit(
                record: reference(), start: chance(40) ? time(minutesAgo: 30...900) : nil,
                end: chance(40) ? time(minutesAgo: 0...300) : nil, tag: chance(40) ? tagChoice() : nil,
                comment: comment(), force: force)
        case 50..<55: return .delete(record: reference())
        case 55..<67: return .undo
        case 67..<73: return .redo
        case 73..<77:
            return .addTag(name: Self.names.randomElement(using: &random)!, color: chance(30) ? "#12ab9F" : nil)
        case 77..<80:
            return .renameTag(
                name: Self.names.randomElement(using: &random)!, newName: Self.names.randomElement(using: &random)!)
        case 80..<82: return .archiveTag(name: Self.names.randomElement(using: &random)!)
        case 82..<84: return .unarchiveTag(name: Self.names.randomElement(using: &random)!)
        case 84..<86: return .deleteTag(name: Self.names.randomElement(using: &random)!)
        case 86..<90: return .continue(record: chance(50) ? nil : reference(), switching: chance(30), force: force)
        case 90..<94: return .cancel(record: chance(50) ? nil : reference())
        case 94..<97: return .split(record: reference(), at: time(minutesAgo: 0...600))
        default: return .join(first: reference(), second: reference(), force: force)
        }
    }
}

/// Random version-4 ids from a seeded generator (distinct prefixes, like real ones).
final class RandomIDs: @unchecked Sendable {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    func next() -> EntityID { EntityID(randomBits: random.next(), random.next()) }
}
