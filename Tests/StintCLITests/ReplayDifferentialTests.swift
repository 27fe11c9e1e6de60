import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintCLI
@testable import StintEngine

/// The fast replay (segments read by several worker threads, the compact fold) prints every byte the
/// reference replay (one thread, `LogState`'s fold) prints, for every golden log, the sample log and seeded
/// random logs, each written as a directory of many small segments and read with no caches: the cold
/// reads, `verify`, the audit verbs, and a first mutation, which rebuilds the read models, with the reads
/// after it.
@Suite struct ReplayDifferentialTests {
    /// A way to replay: a name and what it sets in the engine's options.
    struct Replay: Sendable, CustomStringConvertible {
        var description: String
        var configure: @Sendable (inout EngineOptions) -> Void
    }

    static let reference = Replay(description: "reference") { options in
        options.readWorkers = 1
        options.foldsCompactly = false
    }
    static let fast = [
        Replay(description: "2 workers, compact fold") { options in
            options.readWorkers = 2
            options.foldsCompactly = true
        },
        Replay(description: "8 workers, compact fold") { options in
            options.readWorkers = 8
            options.foldsCompactly = true
        },
    ]

    /// What is run on a fresh copy of each log, in this order (the mutation rebuilds the read models).
    static let commands: [[String]] = [
        ["verify", "--json"], ["snapshot"], ["timeline"], ["live-activity"], ["status"],
        ["summary", "--period", "month", "--json"], ["report", "--all", "--by", "tag"], ["log", "--all", "--json"],
        ["export", "json"], ["tags"], ["history"], ["replay", "--json"],
        ["start", "differential"], ["status"], ["report", "--all"], ["log", "--all"], ["snapshot"],
    ]

    /// Writes `events` into a log directory through a real writer, with segments and frames small enough
    /// that even a golden log of a dozen events spans several of each (about ten segments a log).
    static func writeDirectory(_ events: [RecordedEvent], to path: String) throws {
        let clock = FixedClock(events[0].at.iso8601)
        var configuration = LogConfiguration(clock: clock.reading, sealThreshold: Int64(max(200, events.count * 12)))
        configuration.sealedFrameTarget = 256
        let draft = { (event: RecordedEvent) in EventDraft(type: event.type, version: event.version, data: event.data) }
        let writer = try LogWriter.create(at: path, settingsEvent: draft(events[0]), configuration: configuration)
        defer { writer.close() }
        for batch in Dictionary(grouping: events.dropFirst(), by: \.batchStart).values.sorted(by: {
            $0[0].seq < $1[0].seq
        }) {
            clock.set(batch[0].at)
            _ = try writer.append(batch.map(draft))
        }
    }

    /// The events of a log file or directory, read with the reference reader.
    static func events(of path: String) throws -> [RecordedEvent] {
        let cursor = try LogReader(path: path).batches()
        var events: [RecordedEvent] = []
        while let batch = try cursor.next() { events += batch.events }
        #expect(cursor.warning == nil, "\(path): \(cursor.warning?.message ?? "")")
        return events
    }

    /// Every output of ``commands`` on a fresh copy of the log directory at `path`.
    static func outputs(of path: String, replay: Replay, now: Instant) throws -> [String] {
        let directory = TemporaryDirectory(prefix: "stint-differential")
        let copy = directory.appending("log")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        var runner = CLIRunner(log: copy)
        runner.now = now
        runner.configureEngine = replay.configure
        // New ids after those of the synthetic logs (which count from 1 too), so that the mutation is one.
        for _ in 0..<10_000 { _ = runner.ids.next() }
        return commands.map { command in
            let result = runner.run(command)
            // The copy's path differs from run to run; messages name it.
            let output = "\(result.stdout)\(result.stderr)".replacingOccurrences(of: copy, with: "LOG")
            return "\(command.joined(separator: " ")) → \(result.status)\n\(output)"
        }
    }

    /// The logs compared: each golden case, the sample log, and seeded random logs of a few thousand events.
    static func logs() throws -> [(name: String, events: [RecordedEvent])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let golden = root + "/Events/golden"
        var logs: [(String, [RecordedEvent])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: golden).sorted()
        where FileManager.default.fileExists(atPath: "\(golden)/\(name)/events.jsonl") {
            logs.append(("golden \(name)", try events(of: "\(golden)/\(name)/events.jsonl")))
        }
        logs.append(("sample", try events(of: root + "/Events/sample/log")))
        for (seed, timeZone) in [(13, "Europe/Berlin"), (2_026_113, "America/New_York"), (77, "Asia/Kolkata")] {
            var log = SyntheticLog(seed: UInt64(seed), timeZone: timeZone, start: "2026-02-02T08:00:00.000Z")
            log.grow(toEvents: 2_500)
            logs.append(("random seed \(seed)", log.events))
        }
        return logs
    }

    @Test func theFastReplayPrintsWhatTheReferenceReplayPrints() throws {
        for (name, events) in try ReplayDifferentialTests.logs() {
            let directory = TemporaryDirectory(prefix: "stint-differential-source")
            let path = directory.appending("log")
            try ReplayDifferentialTests.writeDirectory(events, to: path)
            let segments = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".zst") }
            #expect(segments.count > 1, "\(name) is one segment: nothing to read in parallel")
            // A day after the last event, so that every record is in the past of the reads.
            let now = events[events.count - 1].at.adding(milliseconds: 86_400_000)
            // The cold reads below do take the compact fold (it is not falling back to the reference).
            var options = EngineOptions(clock: { now }, newID: { EntityID(high: 0, low: 0) })
            options.writesCheckpoints = false
            let loader = StateLoader(reader: try LogReader(path: path), options: options)
            #expect(try loader.loadCompactly(upTo: .latest)?.fold?.lastSeq == events[events.count - 1].seq, "\(name)")
            try ReplayDifferentialTests.compare(name, at: path, now: now, intact: true)
        }
    }

    /// Runs ``commands`` on copies of the log at `path` with the reference replay and with each fast one,
    /// and records every output that differs; `verify` must find the log intact or not as `intact` says.
    static func compare(_ name: String, at path: String, now: Instant, intact: Bool) throws {
        let expected = try outputs(of: path, replay: reference, now: now)
        #expect(expected.first?.contains("\"intact\": \(intact)") == true, "\(name): \(expected.first ?? "")")
        for replay in fast {
            let found = try outputs(of: path, replay: replay, now: now)
            for (command, (want, got)) in zip(commands, zip(expected, found)) where want != got {
                Issue.record("\(name), \(replay), \(command.joined(separator: " ")):\n\(want)\n≠\n\(got)")
            }
        }
    }

    /// Damaged logs print the same errors, warnings and outputs both ways: a byte flipped in a middle
    /// segment, a torn last segment, a middle segment removed, and an event that contradicts the ones
    /// before it (the compact fold refuses it and hands the read to the reference, whose error is printed).
    @Test func damagedLogsReadTheSameBothWays() throws {
        var log = SyntheticLog(seed: 4_242, timeZone: "Europe/Berlin", start: "2026-03-02T08:00:00.000Z")
        log.grow(toEvents: 1_500)
        let now = log.events[log.events.count - 1].at.adding(milliseconds: 86_400_000)
        let source = TemporaryDirectory(prefix: "stint-differential-damaged")
        let intact = source.appending("intact")
        try ReplayDifferentialTests.writeDirectory(log.events, to: intact)
        let segments = try FileManager.default.contentsOfDirectory(atPath: intact).filter { $0.hasSuffix(".zst") }
            .sorted()
        #expect(segments.count >= 6)
        func damaged(_ name: String, _ change: (String) throws -> Void) throws -> (String, String) {
            let path = source.appending(name)
            try FileManager.default.copyItem(atPath: intact, toPath: path)
            try change(path)
            return (name, path)
        }
        let middle = segments[segments.count / 2]
        var cases = [
            try damaged("flipped byte") { path in
                let file = "\(path)/\(middle)"
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                bytes[bytes.count / 2] ^= 0x10
                try Data(bytes).write(to: URL(fileURLWithPath: file))
            },
            try damaged("torn tail") { path in
                let file = "\(path)/\(segments[segments.count - 1])"
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: file))
            },
            try damaged("removed segment") { path in try FileManager.default.removeItem(atPath: "\(path)/\(middle)") },
        ]
        // A stop of a record that never existed, written by a real writer: a log the fold refuses at its end.
        let contradiction = source.appending("contradiction")
        var events = log.events
        let last = events[events.count - 1]
        events.append(
            RecordedEvent(
                seq: last.seq + 1, at: last.at, type: "timer.stopped", version: 1, prev: RecordedEvent.genesisPrev,
                data: DomainEvent.timerStopped(recordId: EntityID(high: 7, low: 7), end: last.at).draft.data))
        try ReplayDifferentialTests.writeDirectory(events, to: contradiction)
        cases.append(("contradiction", contradiction))
        // The compact fold refuses it: the reads below fall back to the reference fold.
        var options = EngineOptions(clock: { now }, newID: { EntityID(high: 0, low: 0) })
        options.writesCheckpoints = false
        let loader = StateLoader(reader: try LogReader(path: contradiction), options: options)
        #expect(try loader.loadCompactly(upTo: .latest) == nil)
        for (name, path) in cases { try ReplayDifferentialTests.compare(name, at: path, now: now, intact: false) }
    }

    /// The checkpoints and projection states a cold read leaves from the compact fold are those of the
    /// reference state it stands for, byte for byte, all along every log.
    @Test func compactCheckpointsAndProjectionsAreTheReferenceStates() throws {
        for (name, events) in try ReplayDifferentialTests.logs() {
            guard var fold = CompactFold(genesis: events[0], capacity: events.count / 2) else {
                Issue.record("\(name): the compact fold does not start")
                continue
            }
            // One order carried from checkpoint to checkpoint, as a cold read does.
            var order = CompactFold.RecordOrder()
            for (index, event) in events.enumerated().dropFirst() {
                guard fold.apply(event) else {
                    Issue.record("\(name): the compact fold does not apply seq \(event.seq)")
                    break
                }
                guard index % 97 == 0 || index == events.count - 1 else { continue }
                let reference = fold.logState
                let same =
                    fold.compactCheckpoint(order: &order) == reference.compactCheckpoint
                    && fold.compactCheckpoint == reference.compactCheckpoint
                #expect(same, "\(name): the checkpoints at seq \(event.seq) differ")
                #expect(ProjectionState(fold) == ProjectionState(reference), "\(name) at seq \(event.seq)")
            }
        }
    }
}
