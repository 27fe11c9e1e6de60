import Foundation
import Testing

@testable import StintCore

/// The merged fold is an extension of the strict one, not a second semantics (decision 0007 §7.2): on every
/// single-device history it gives the strict fold's state and no conflict. And it is a function of the
/// merged order alone: the same device logs, delivered in any order, fold to the same state.
@Suite struct MergedFoldDifferentialTests {
    /// What the two folds must agree on: everything but the position and the rank of tag names (which only
    /// the merged fold keeps).
    static func expectSame(_ merged: MergedFold, _ strict: LogState, _ note: String) {
        let state = merged.state(for: nil)
        #expect(state.settings == strict.settings, "\(note)")
        #expect(state.tags == strict.tags, "\(note): tags")
        #expect(state.records == strict.records, "\(note): records")
        #expect(state.deletedRecordIds == strict.deletedRecordIds, "\(note): deleted")
        #expect(state.runningRecordIds == strict.runningRecordIds, "\(note): running")
        #expect(state.recentTagIds == strict.recentTagIds, "\(note): recent tags")
        #expect(state.importProvenance == strict.importProvenance, "\(note): provenance")
        #expect(state.undoStack == strict.undoStack, "\(note): undo stack")
        #expect(state.redoStack == strict.redoStack, "\(note): redo stack")
        #expect(merged.conflicts.isEmpty, "\(note): \(merged.conflicts.map(\.line))")
    }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Events/golden")

    static var goldenCases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: golden.path)) ?? [])
            .filter { FileManager.default.fileExists(atPath: golden.appendingPathComponent("\($0)/events.jsonl").path) }
            .sorted()
    }

    @Test func thereAreGoldenLogs() { #expect(Self.goldenCases.count >= 10) }

    @Test(arguments: goldenCases)
    func goldenLogsFoldAsByTheStrictFold(name: String) throws {
        let text = try String(contentsOf: Self.golden.appendingPathComponent("\(name)/events.jsonl"), encoding: .utf8)
        let events = try text.split(separator: "\n").map { try RecordedEvent(line: Array($0.utf8)[...]) }
        Self.expectSame(try MergedFold.fold(events), try LogState.fold(events), name)
    }

    @Test(arguments: [UInt64(0x5EED_0001), 0x5EED_0002, 0x5EED_0003])
    func randomLogsFoldAsByTheStrictFold(seed: UInt64) throws {
        print("MergedFoldDifferentialTests seed \(seed)")
        var run = RandomRun(seed: seed)
        try run.go(commands: 400)
        Self.expectSame(try MergedFold.fold(run.log.events), run.log.state, "RandomRun seed \(seed)")
        // With imports and a space's bookkeeping too, compared after every batch.
        var log = RandomCompactLog(seed: seed)
        var merged = try MergedFold(genesis: log.run.log.events[0])
        var folded = 1
        for round in 0..<400 {
            log.step()
            for event in log.run.log.events[folded...] { try merged.apply(event) }
            folded = log.run.log.events.count
            if round % 50 == 49 || round == 399 {
                Self.expectSame(merged, log.run.log.state, "RandomCompactLog seed \(seed) round \(round)")
            }
        }
    }

    /// Random commands on three devices that sync now and then: every device's view and the merged history
    /// fold without damage, and the same logs merged in every order of delivery fold to the same state and
    /// conflicts.
    @Test(arguments: [UInt64(0xD3_0001), 0xD3_0002, 0xD3_0003, 0xD3_0004])
    func theMergedFoldIsAFunctionOfTheEventsAlone(seed: UInt64) throws {
        print("MergedFoldDifferentialTests seed \(seed)")
        let devices = [SpaceHistory.a, SpaceHistory.b, SpaceHistory.c]
        let space = try Self.randomSpace(seed: seed, devices: devices)
        let reference = try space.fold()
        #expect(!reference.conflicts.isEmpty, "seed \(seed): no conflict at all")
        let logs = devices.map { space.logs[$0]! }
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let merged = try MergeOrder.merge(order.map { logs[$0] }, key: SpaceHistory.key)
            let fold = try MergedFold.fold(merged)
            #expect(fold.state == reference.state, "seed \(seed), order \(order)")
            #expect(fold.conflicts == reference.conflicts, "seed \(seed), order \(order)")
        }
    }

    /// Random commands on `devices` that sync now and then, from `seed`.
    static func randomSpace(seed: UInt64, devices: [DeviceID], steps: Int = 120) throws -> SpaceHistory {
        var random = SplitMix64(seed: seed)
        var space = SpaceHistory(devices: devices)
        var decided = 0
        for _ in 0..<steps {
            space.advance(minutes: Int64(random.next() % 40))
            let device = devices[Int(random.next() % UInt64(devices.count))]
            if random.next() % 4 == 0 {
                space.sync(device)
                continue
            }
            let state = try space.state(of: device)
            if (try? space.run(Self.randomCommand(state, space, using: &random), on: device)) != nil { decided += 1 }
        }
        #expect(decided > steps / 3, "seed \(seed): only \(decided) commands were decided")
        return space
    }

    static func randomCommand(_ state: LogState, _ space: SpaceHistory, using random: inout SplitMix64) -> Command {
        let names = ["mail", "writing", "Writing", "reading", "email"]
        let name = names[Int(random.next() % UInt64(names.count))]
        let records = state.records.keys.sorted { $0.uuidString < $1.uuidString }
        let record = records.isEmpty ? nil : records[Int(random.next() % UInt64(records.count))]
        let reference = record.map { try! RecordRef($0.uuidString) }
        switch random.next() % 12 {
        case 0, 1: return .start(tag: .name(name), switching: random.next() % 2 == 0)
        case 2: return .stop(all: true)
        case 3:
            guard let reference else { return .undo }
            return .edit(record: reference, comment: "c\(random.next() % 3)")
        case 4:
            guard let reference else { return .undo }
            return .edit(record: reference, tag: .name(name))
        case 5:
            guard let reference, let start = state.records[record!]?.start else { return .redo }
            return .edit(record: reference, start: ParsedTime(start.adding(milliseconds: -60_000)))
        case 6:
            guard let reference else { return .redo }
            return .delete(record: reference)
        case 7: return .undo
        case 8: return .redo
        case 9: return .addTag(name: name)
        case 10:
            let other = names[Int(random.next() % UInt64(names.count))]
            return .renameTag(name: name, newName: other + "\(random.next() % 2)")
        default:
            return .deleteTag(name: name)
        }
    }
}
