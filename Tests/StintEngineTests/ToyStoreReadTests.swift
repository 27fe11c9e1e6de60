import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine

/// The read side of the seam (docs/decisions/0009-one-seam.md step 5): every read verb's view of a store the
/// engine does not know (``ToyStoreTests/ToyStore``, in memory, with a fold of its own) is the view of a log
/// directory that holds the same history, read through ``LogSource/init(store:name:)`` without a line of the
/// views or of `TimeLog` knowing the store.
@Suite struct ToyStoreReadTests {
    /// The same commands at the same instants on the toy store and on a log directory, across midnight, with a
    /// tag renamed, an undo and a timer left running; the instants after each command.
    static func histories(in directory: TemporaryDirectory) throws -> (
        toy: ToyStoreTests.ToyStore, log: String, clock: FixedClock, instants: [Instant]
    ) {
        let clock = FixedClock(Instant(canonical: "2026-12-01T08:00:00.000Z")!)
        let toy = ToyStoreTests.ToyStore()
        let path = directory.appending("log")
        let onToy = try TimeLog.create(
            in: toy, timeZone: "Europe/Berlin", firstWeekday: 2,
            options: EngineOptions(clock: clock.reading, newID: IncrementingIDs().generator))
        let onLog = try TimeLog.create(
            at: path, timeZone: "Europe/Berlin", firstWeekday: 2,
            options: EngineOptions(clock: clock.reading, newID: IncrementingIDs().generator))
        defer {
            onToy.close()
            onLog.close()
        }
        let commands: [(minutes: Int64, command: Command)] = [
            (5, .start(tag: .name("code"))), (50, .start(tag: .name("mail"))), (20, .stop(all: true)),
            (15, .renameTag(name: "code", newName: "coding")), (600, .start(tag: .name("coding"), comment: "late")),
            (180, .stop()), (30, .undo), (45, .stop()), (700, .start(tag: .name("mail"))),
        ]
        var instants: [Instant] = []
        for (minutes, command) in commands {
            clock.advance(milliseconds: minutes * 60_000)
            try onToy.execute(command)
            try onLog.execute(command)
            instants.append(clock.reading())
        }
        clock.advance(milliseconds: 10 * 60_000)
        return (toy, path, clock, instants)
    }

    @Test func everyReadVerbReadsAStoreTheEngineDoesNotKnow() throws {
        let directory = TemporaryDirectory()
        let (toy, path, clock, instants) = try Self.histories(in: directory)
        let options = EngineOptions(clock: clock.reading, newID: IncrementingIDs().generator)
        let source = LogSource(store: toy, name: "the toy store")
        let log = try LogSource.open(path: path, options: options)

        // The events, the settings and a point's text.
        func all(_ source: LogSource, from seq: Int64 = 1) throws -> [RecordedEvent] {
            let cursor = try source.events(from: seq)
            var events: [RecordedEvent] = []
            while let event = try cursor.next() { events.append(event) }
            return events
        }
        let events = try all(log)
        try #require(events.count > 12)
        #expect(try all(source) == events)
        #expect(try all(source, from: 7) == Array(events.dropFirst(6)))
        #expect(try source.settings() == log.settings())
        #expect(
            try source.resolve(.at("yesterday 23:59"), options: options).point
                == log.resolve(.at("yesterday 23:59"), options: options).point)

        // The views at the head, at every command's instant and at every seq.
        let points: [ResolvedPoint] =
            [.latest] + instants.map { .at($0) }
            + (try (1...Int64(events.count)).map { (n) throws(StintError) in try .seq(n) })
        for point in points {
            let state = try LogView.load(source, at: point, options: options)
            #expect(state.state == (try LogView.load(log, at: point, options: options)).state, "\(point)")
            let projections = try ProjectionView.load(source, at: point, options: options)
            let expected = try ProjectionView.load(log, at: point, options: options)
            #expect(
                WidgetData(source: projections.source, now: projections.now)
                    == WidgetData(source: expected.source, now: expected.now), "\(point)")
            let records = try RecordsView.load(source, at: point, options: options)
            #expect(records.source.records == (try RecordsView.load(log, at: point, options: options)).source.records)
        }
        let window = TimeInterval64(start: instants[3], end: instants[6])
        #expect(
            try RecordsView.load(source, at: .latest, options: options, window: window).source.records
                == RecordsView.load(log, at: .latest, options: options, window: window).source.records)

        // The records one at a time, and the replay of every batch, from the start and from a point.
        func streamed(_ source: LogSource) throws -> [Record] {
            let stream = try RecordStream.open(source, options: options)
            defer { stream.close() }
            var records: [Record] = []
            try stream.forEach(startingFrom: nil, before: nil) { records.append($0) }
            return records
        }
        #expect(try streamed(source) == streamed(log))
        for since in [nil, instants[4]] {
            let replay = try PublishReplay(source: source, since: since, options: options)
            let expected = try PublishReplay(source: log, since: since, options: options)
            var steps = 0
            while let step = try replay.next() {
                let other = try #require(try expected.next())
                #expect(step.batch.events == other.batch.events)
                #expect(step.snapshot == other.snapshot && step.writesSnapshot == other.writesSnapshot)
                #expect(step.liveActivity == other.liveActivity)
                steps += 1
            }
            #expect(try expected.next() == nil)
            #expect(steps > 0)
        }
        // A walk after every seq, a batch's middle included: the batch the point ends in, then the others.
        for n in 1...Int64(events.count) {
            let walk = try source.fold.walk(after: try .seq(n), options: options)
            let expected = try log.fold.walk(after: try .seq(n), options: options)
            #expect(walk.state == expected.state, "after seq \(n)")
            while let batch = try expected.next() {
                #expect(try walk.next()?.events == batch.events, "after seq \(n)")
                #expect(walk.state == expected.state, "after seq \(n)")
            }
            #expect(try walk.next() == nil)
        }
        #expect(try all(source, from: Int64(events.count) + 1).isEmpty)
        #expect(toy.folds.count == 1, "a read asked the store for a command's fold, beside the one create(in:) made")
    }

    @Test func aStoreSaysWhatItCannotServe() throws {
        let directory = TemporaryDirectory()
        let (toy, _, clock, _) = try Self.histories(in: directory)
        let options = EngineOptions(clock: clock.reading, newID: IncrementingIDs().generator)
        let source = LogSource(store: toy, name: "the toy store")
        #expect(!source.isReplica)
        let verify = #expect(throws: StintError.self) { try source.verify { _, _ in nil } }
        #expect(verify?.category == .refused)
        #expect(verify?.message.hasPrefix("the toy store is not a log") == true)
        let device = ResolvedPoint(.deviceSeq(DeviceID(high: 1, low: 2), 3))
        #expect(throws: StintError.self) { try source.fold.walk(after: device, options: options) }
        let usage = #expect(throws: StintError.self) { try LogView.load(source, at: device, options: options) }
        #expect(usage?.category == .usage)
        let early = try #require(Instant(canonical: "2026-11-01T00:00:00.000Z"))
        let refusal = #expect(throws: StintError.self) { try LogView.load(source, at: .at(early), options: options) }
        #expect(refusal?.category == .refused)
        #expect(refusal?.message.contains("the toy store begins at") == true)
        let past = #expect(throws: StintError.self) { try LogView.load(source, at: try .seq(10_000), options: options) }
        #expect(past?.category == .refused)
        #expect(past?.message.hasPrefix("the log has") == true)
        let empty = LogSource(store: InMemoryEventStore(), name: "an empty store")
        let settings = #expect(throws: StintError.self) { try empty.settings() }
        #expect(settings?.category == .damaged)
        #expect(settings?.message == "an empty store has no events; create a log with 'stint init'")
        let nothing = #expect(throws: StintError.self) { try LogView.load(empty, at: .latest, options: options) }
        #expect(nothing?.category == .damaged)
        // A log's wording is its own.
        let emptyLog = #expect(throws: StintError.self) { try LogSource(bytes: [], name: "empty.jsonl").settings() }
        #expect(emptyLog?.message == "the log empty.jsonl has no events; create a log with 'stint init'")
    }
}
