import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Checkpoints are caches: deleting, corrupting or swapping them changes no output byte, and a read at a
/// point starts from one instead of folding the whole history.
@Suite struct CheckpointIndependenceTests {
    static let interval: Int64 = 40

    /// A UTC log of about 330 events over eleven days, written through the engine.
    static func makeLog(at path: String, clock: FixedClock) throws -> [Instant] {
        let ids = IncrementingIDs()
        let options = EngineOptions(
            clock: clock.reading, newID: ids.generator, checkpointInterval: interval, checkpointSpacing: interval)
        let log = try TimeLog.create(at: path, timeZone: "UTC", firstWeekday: 2, options: options)
        defer { log.close() }
        var marks: [Instant] = []
        let tags = ["writing", "email", "review"]
        for day in 0..<11 {
            clock.set(Instant(canonical: "2026-06-01T08:00:00.000Z")!.adding(milliseconds: Int64(day) * 86_400_000))
            for slot in 0..<10 {
                _ = try log.execute(.start(tag: .name(tags[(day + slot) % 3]), switching: true))
                clock.advance(milliseconds: 35 * 60_000)
                if slot % 4 == 3 { _ = try log.execute(.undo) }
                if slot == 5 {
                    let start = clock.now.adding(milliseconds: -300 * 60_000)
                    _ = try log.execute(
                        .track(
                            start: ParsedTime(start), end: ParsedTime(start.adding(milliseconds: 20 * 60_000)),
                            tag: .name("call")))
                }
            }
            _ = try log.execute(.stop(all: true))
            marks.append(clock.now)
        }
        return marks
    }

    /// The CLI's outputs at several points (in process, reading the log directory).
    static func outputs(log: String) -> [String] {
        let runner = CLIRunner(log: log, now: "2026-06-12T12:00:00.000Z")
        let points: [[String]] = [
            ["--seq", "1"], ["--seq", "39"], ["--seq", "40"], ["--seq", "41"], ["--seq", "161"], ["--seq", "290"],
            ["--at", "2026-06-04T10:00"], ["--at", "2026-06-11T09:30"], [],
        ]
        var outputs: [String] = []
        for point in points {
            let verbs = [
                ["snapshot"], ["summary", "--period", "month", "--json"], ["status"], ["live-activity"], ["log"],
                ["log", "--since", "2026-06-01", "--json"], ["timeline"],
            ]
            for verb in verbs {
                let result = runner.run(verb + point)
                outputs.append("\(verb + point) → \(result.status)\n\(result.stdout)\(result.stderr)")
            }
        }
        for verb in [["replay", "--json"], ["diff", "--from", "seq:39", "--to", "seq:200"]] {
            let result = runner.run(verb)
            outputs.append("\(verb) → \(result.status)\n\(result.stdout)\(result.stderr)")
        }
        return outputs
    }

    static func options(writesCheckpoints: Bool) -> EngineOptions {
        EngineOptions(
            clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 0, low: 0) }, checkpointInterval: interval,
            checkpointSpacing: interval, projectionCheckpointSpacing: interval, writesCheckpoints: writesCheckpoints)
    }

    /// A read of the whole log with a small spacing, which leaves a checkpoint at the first batch boundary
    /// past every multiple of `interval`.
    static func leaveCheckpoints(_ path: String) throws {
        let reader = try LogReader(path: path)
        _ = try StateLoader(reader: reader, options: options(writesCheckpoints: true)).load(upTo: .latest)
    }

    /// How far apart checkpoints can be: the spacing plus a batch (commands here append at most 4 events).
    static let largestGap = interval + 4

    @Test func deletingCorruptingOrSwappingCheckpointsChangesNoOutputByte() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        let clock = FixedClock("2026-06-01T07:00:00.000Z")
        _ = try CheckpointIndependenceTests.makeLog(at: path, clock: clock)
        let lastSeq = try LogReader(path: path).lastSeq()
        #expect(lastSeq > 7 * CheckpointIndependenceTests.interval)
        let plain = CheckpointIndependenceTests.outputs(log: path)
        #expect(CheckpointStore(logDirectory: path).seqs().isEmpty, "reads with the default interval leave none")

        try CheckpointIndependenceTests.leaveCheckpoints(path)
        let store = CheckpointStore(logDirectory: path)
        let projections = CheckpointStore(logDirectory: path, subdirectory: "projection")
        #expect(store.seqs().count >= Int(lastSeq / CheckpointIndependenceTests.interval) - 1)
        #expect(projections.seqs().count >= Int(lastSeq / CheckpointIndependenceTests.interval) - 1)
        #expect(CheckpointIndependenceTests.outputs(log: path) == plain)

        // Torn and garbage files under checkpoint names are ignored.
        let files = store.seqs().map { (store, $0) } + projections.seqs().map { (projections, $0) }
        for (index, (store, seq)) in files.enumerated() {
            let digits = String(seq)
            let file = store.directory + "/" + String(repeating: "0", count: 20 - digits.count) + digits + ".ckpt"
            var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            if index.isMultiple(of: 2) {
                bytes = bytes.prefix(bytes.count / 2)
            } else {
                bytes[bytes.count / 2] ^= 0xFF
            }
            try bytes.write(to: URL(fileURLWithPath: file))
        }
        #expect(CheckpointIndependenceTests.outputs(log: path) == plain)

        // A checkpoint of another log (same seqs, other history) is stale here: its head does not match.
        let other = directory.appending("other")
        _ = try CheckpointIndependenceTests.makeLog(at: other, clock: FixedClock("2026-06-01T07:13:00.000Z"))
        try CheckpointIndependenceTests.leaveCheckpoints(other)
        try? FileManager.default.removeItem(atPath: store.directory)
        try FileManager.default.copyItem(
            atPath: CheckpointStore(logDirectory: other).directory, toPath: store.directory)
        #expect(!store.seqs().isEmpty)
        #expect(CheckpointIndependenceTests.outputs(log: path) == plain)

        // And with none at all.
        try? FileManager.default.removeItem(atPath: store.directory)
        #expect(CheckpointIndependenceTests.outputs(log: path) == plain)
    }

    @Test func aReadAtAPointFoldsAtMostAnIntervalPastItsCheckpoint() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        _ = try CheckpointIndependenceTests.makeLog(at: path, clock: FixedClock("2026-06-01T07:00:00.000Z"))
        let reader = try LogReader(path: path)
        let lastSeq = try reader.lastSeq()
        try CheckpointIndependenceTests.leaveCheckpoints(path)
        let noCache = CheckpointIndependenceTests.options(writesCheckpoints: false)
        let saved = CheckpointStore(logDirectory: path).seqs()
        try #require(saved.count >= 3)
        for seq in [saved[0] + 1, saved[2] + 17, lastSeq - 1, lastSeq] {
            let folded = try StateLoader(reader: reader, options: noCache).load(upTo: .seq(seq))
            let checkpoint = try #require(
                folded.checkpointSeq,
                "no checkpoint used for seq \(seq); \(CheckpointStore(logDirectory: path).seqs()) \(path)")
            #expect(checkpoint <= seq)
            #expect(folded.foldedCount == seq - checkpoint)
            #expect(
                folded.foldedCount <= CheckpointIndependenceTests.largestGap,
                "seq \(seq) folded \(folded.foldedCount) events")
            // The state is the one a fold from the first event gives.
            let full = try LogState.fold(Array(try reader.events(from: 1).collect(upTo: seq)))
            #expect(folded.state == full)
        }
        // A point in time too.
        let at = Instant(canonical: "2026-06-09T12:00:00.000Z")!
        let folded = try StateLoader(reader: reader, options: noCache).load(upTo: .at(at))
        #expect(folded.checkpointSeq != nil)
        #expect(folded.foldedCount <= CheckpointIndependenceTests.largestGap)
        // Without checkpoints the same read folds everything before it.
        try FileManager.default.removeItem(atPath: CheckpointStore(logDirectory: path).directory)
        let cold = try StateLoader(reader: reader, options: noCache).load(upTo: .at(at))
        #expect(cold.checkpointSeq == nil)
        #expect(cold.foldedCount == cold.state?.lastSeq)
        #expect(cold.state == folded.state)
    }
}

extension LogEventCursor {
    /// The events up to and including `seq`.
    func collect(upTo seq: Int64) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        while let event = try next(), event.seq <= seq { events.append(event) }
        return events
    }
}
