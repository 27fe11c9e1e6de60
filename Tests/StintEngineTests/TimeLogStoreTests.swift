import Foundation
import StintCore
import StintEngine
import TestSupport
import Testing

/// ``TimeLog`` on any store: commands decided against a state another writer has moved on from are decided
/// again after folding what that writer appended.
@Suite struct TimeLogStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aCommandDecidedOnAStaleStateIsDecidedAgainAfterTheOtherWritersEvents(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let first = try TimeLog.open(store: try fixture.create(), options: fixture.options)
        defer { first.close() }
        let second = try TimeLog.open(store: try fixture.reopen(), options: fixture.options)
        defer { second.close() }

        fixture.clock.advance(milliseconds: 60_000)
        let started = try first.execute(.start(tag: .name("writing")))
        #expect(second.state.runningRecordIds.isEmpty, "the second writer has not seen the start")

        // Decided on its stale state, `stop` would find no timer; after the conflict it stops the first's.
        fixture.clock.advance(milliseconds: 60_000)
        let stopped = try second.execute(.stop())
        #expect(stopped.events.map(\.type) == ["timer.stopped"])
        guard case .started(let record, _) = started.decision.outcome else {
            Issue.record("start did not start a record")
            return
        }
        #expect(stopped.events[0].data["recordId"]?.stringValue == record.id.description)
        #expect(second.state.runningRecordIds.isEmpty)
        #expect(second.head == (try fixture.reopen().head()))

        // Both writers' events are in the store once each, in one gapless sequence.
        let reader = try fixture.reopen()
        defer { reader.close() }
        let events = try reader.allBatches().flatMap(\.events)
        #expect(events.map(\.seq) == Array(1...Int64(events.count)))
        #expect(events.map(\.type).filter { $0 == "timer.stopped" }.count == 1)
        if kind == .merged {
            // A space folds by the merged rules; each device decides on its own stacks (rule 11).
            #expect(try MergedFold.fold(events).state(for: StoreFixture.device) == second.state)
        } else {
            #expect(try LogState.fold(events) == second.state)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anAppendThatMeetsAConflictIsDecidedAgainOnTheNewState(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let racing = RacingStore(try fixture.create())
        let log = try TimeLog.open(store: racing, options: fixture.options)
        defer { log.close() }
        fixture.clock.advance(milliseconds: 60_000)
        try log.execute(.start(tag: .name("writing")))

        // Between the decision of `stop` (one timer: stop it) and its append, another writer starts a second
        // timer. Decided again on the new state, `stop` without an id is refused: two timers now run.
        let other = try TimeLog.open(store: try fixture.reopen(), options: fixture.options)
        defer { other.close() }
        racing.raceBeforeNextAppend = { try other.execute(.start(tag: .name("email"))) }
        fixture.clock.advance(milliseconds: 60_000)
        #expect(throws: StintError.self) { try log.execute(.stop()) }
        #expect(log.state.runningRecordIds.count == 2, "the other writer's timer was folded")
        #expect(log.head == (try racing.head()))

        // And `stop --all` stops both, including the one it learnt of through the conflict.
        racing.raceBeforeNextAppend = { try other.execute(.start(tag: .name("reading"))) }
        let stopped = try log.execute(.stop(all: true))
        #expect(stopped.events.map(\.type) == ["timer.stopped", "timer.stopped", "timer.stopped"])
        let events = try fixture.reopen().allBatches().flatMap(\.events)
        #expect(events.map(\.seq) == Array(1...Int64(events.count)))
        #expect(try LogState.fold(events) == log.state)
    }

    @Test func aLogInMemoryRunsCommandsAsALogDirectoryDoes() throws {
        var outputs: [StoreKind: ([RecordedEvent], LogState)] = [:]
        for kind in StoreKind.allCases {
            let fixture = StoreFixture(kind)
            let log: TimeLog
            switch kind {
            case .inMemory:
                log = try TimeLog.create(
                    in: InMemoryEventStore(), timeZone: "UTC", firstWeekday: 2, options: fixture.options)
            case .logDirectory:
                log = try TimeLog.create(at: fixture.path, timeZone: "UTC", firstWeekday: 2, options: fixture.options)
            case .merged:
                try TimeLog.create(at: fixture.path, timeZone: "UTC", firstWeekday: 2, options: fixture.options).close()
                _ = try Space.initSpace(
                    log: fixture.path, folder: fixture.directory.appending("sync"), options: fixture.options)
                log = try TimeLog.open(at: fixture.path, options: fixture.options)
            }
            defer { log.close() }
            var events: [RecordedEvent] = []
            for command in [Command.start(tag: .name("writing")), .start(tag: .name("email")), .stop(all: true), .undo]
            {
                fixture.clock.advance(milliseconds: 90_000)
                events += try log.execute(command).events
            }
            outputs[kind] = (events, log.state)
        }
        let memory = try #require(outputs[.inMemory])
        let directory = try #require(outputs[.logDirectory])
        #expect(memory.0 == directory.0)
        #expect(memory.1 == directory.1)
        // A one-device space stamps its events (device, hlc) and chains them over the stamps; the rest is the same.
        let merged = try #require(outputs[.merged])
        #expect(merged.0.allSatisfy { $0.device == StoreFixture.device && $0.hlc != nil })
        #expect(merged.0.map { [$0.seq, $0.at.milliseconds] } == directory.0.map { [$0.seq, $0.at.milliseconds] })
        // Its tags take ids derived from the space and the name (rule 6) instead of new ids, so its records take
        // other new ids too: the same events and state once each id is renamed to the directory's.
        var renamed: [String: String] = [:]
        for (spaced, plain) in zip(merged.0, directory.0) {
            for key in ["tagId", "recordId"] {
                guard let from = spaced.data[key]?.stringValue, let to = plain.data[key]?.stringValue else { continue }
                #expect(renamed[from] == nil || renamed[from] == to, "\(key) \(from) renamed twice")
                renamed[from] = to
            }
        }
        #expect(Set(renamed.values).count == renamed.count)
        let writing = EntityID.spaceTag(space: merged.1.settings.logId, name: "writing", k: 0)
        #expect(merged.0.first { $0.type == "tag.created" }?.data["tagId"]?.stringValue == writing.description)
        func renaming(_ value: JSON) -> JSON {
            guard case .object(let fields) = value else { return value }
            return .object(
                fields.map { field in
                    guard let id = field.value.stringValue, let to = renamed[id] else { return field }
                    return JSONField(field.key, .string(to))
                })
        }
        #expect(merged.0.map { renaming($0.data) } == directory.0.map(\.data))
        let plainRecords = directory.1.records.values.map {
            "\($0.id) \($0.start) \(String(describing: $0.end)) \(String(describing: $0.tagId))"
        }
        let spacedRecords = merged.1.records.values.map {
            "\(renamed[$0.id.description] ?? "?") \($0.start) \(String(describing: $0.end)) \(renamed[$0.tagId?.description ?? ""].map { "Optional(\($0))" } ?? "nil")"
        }
        #expect(spacedRecords.sorted() == plainRecords.sorted())
        #expect(merged.1.undoStack.count == directory.1.undoStack.count)
        #expect(merged.1.redoStack.count == directory.1.redoStack.count)
    }

    @Test func creatingALogInAStoreThatHoldsOneIsRefused() throws {
        let fixture = StoreFixture(.inMemory)
        let store = try fixture.create()
        #expect(throws: StintError.self) {
            try TimeLog.create(in: store, timeZone: "UTC", firstWeekday: 2, options: fixture.options)
        }
    }
}

/// Opening a directory that is not a log for writing leaves it as it was: the read models are opened only
/// once the writer has found a log there (found by the whole-CLI fuzzer: `stint redo --log ./` created
/// `read-models.sqlite` in the working directory before refusing it).
@Suite struct TimeLogOpeningTests {
    @Test func openingADirectoryThatIsNotALogCreatesNothingInIt() throws {
        let fixture = StoreFixture(.logDirectory)
        let path = fixture.directory.appending("not-a-log")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: StintError.self) { try TimeLog.open(at: path, options: fixture.options) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }
}
