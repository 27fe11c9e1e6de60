import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

/// Issue 27's check, as a user meets it: a flipped byte in the middle of a log of one segment and of one of
/// many segments; the next write is refused and changes nothing; `stint repair` keeps the events before the
/// damage, sets the rest aside byte for byte and records it; `verify` passes and lists the repair; the next
/// write is read by a cold read (a copy of the log's segments alone).
@Suite struct RepairCLITests {
    /// A log of `pairs` start/stop commands, written with a seal threshold of `sealThreshold` bytes.
    static func makeLog(pairs: Int, sealThreshold: Int64) -> (TemporaryDirectory, CLIRunner) {
        let directory = TemporaryDirectory(prefix: "stint-repair")
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-12-01T18:00:00.000Z")
        cli.configureEngine = { $0.sealThreshold = sealThreshold }
        #expect(cli.run(["init", "--tz", "UTC"]).status == 0)
        for pair in 0..<pairs {
            let minute = pair % 60
            let hour = 8 + pair / 60
            let start = String(format: "2026-12-01T%02d:%02d:00", hour, minute)
            let stop = String(format: "2026-12-01T%02d:%02d:30", hour, minute)
            #expect(cli.run(["start", "task\(pair % 7)", "--at", start]).status == 0)
            #expect(cli.run(["stop", "--at", stop]).status == 0)
        }
        return (directory, cli)
    }

    @Test(arguments: [(60, Int64(1 << 20)), (150, Int64(2048))])
    func aFlipIsRefusedThenRepairedAndTheNextWriteIsReadCold(pairs: Int, sealThreshold: Int64) throws {
        let (directory, cli) = Self.makeLog(pairs: pairs, sealThreshold: sealThreshold)
        let log = directory.appending("log")
        let segments = try LogFiles.segmentNames(of: log)
        #expect(sealThreshold < 1 << 20 ? segments.count >= 5 : segments.count == 1)
        // The middle of the middle segment.
        let target = segments[segments.count / 2]
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + target)))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + target))
        let damaged = try LogFiles.files(of: log)

        let refused = cli.run(["start", "refused"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("stint repair"), "the refusal names the way out: \(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(try LogFiles.files(of: log) == damaged, "a refused write changed the log")

        let repaired = cli.run(["repair"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stdout.contains("Repaired \(log)"), "\(repaired.stdout)")
        #expect(repaired.stdout.contains("Kept seqs 1–"), "\(repaired.stdout)")
        // Every file that left the log is kept byte for byte under its `.damaged` name.
        for (name, original) in damaged where name.hasSuffix(".jsonl.zst") {
            let now = try? Data(contentsOf: URL(fileURLWithPath: log + "/" + name))
            if now != original {
                let aside = try Data(contentsOf: URL(fileURLWithPath: log + "/" + name + ".damaged"))
                #expect(aside == original, "\(name) was changed without its bytes kept")
            }
        }
        let verified = cli.run(["verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("repaired at seq "), "\(verified.stdout)")

        let started = cli.run(["start", "after-repair", "--comment", "acknowledged"])
        #expect(started.status == 0, "\(started.stderr)")
        let cold = try LogFiles.segmentsOnlyCopy(of: log, in: directory)
        var coldCLI = cli
        coldCLI.environment["STINT_LOG"] = cold
        let status = coldCLI.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("after-repair"), "a cold read misses the acknowledged start: \(status.stdout)")
        #expect(coldCLI.run(["verify"]).status == 0)
        let history = coldCLI.run(["history"])
        #expect(history.stdout.contains("log.repaired"), "\(history.stdout)")
        // Nothing left to repair.
        let again = cli.run(["repair"])
        #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to repair"), "\(again.stdout)")
    }

    /// With a known head (the `checked` file's segment ends, the read models' head), the events after the damaged
    /// frame are kept after the gap: only that frame's seqs are lost, the log's head is the one it had before the
    /// damage (the kept events' bytes are the same), and commands, a cold read and `verify` go on from there.
    @Test(arguments: [(60, Int64(1 << 20)), (150, Int64(2048))])
    func theEventsAfterTheDamagedFrameAreKeptAfterTheGap(pairs: Int, sealThreshold: Int64) throws {
        let (directory, cli) = Self.makeLog(pairs: pairs, sealThreshold: sealThreshold)
        let log = directory.appending("log")
        let head = try #require(
            cli.run(["verify"]).stdout.split(separator: "\n").first { $0.hasPrefix("head ") }.map(String.init))
        let segments = try LogFiles.segmentNames(of: log)
        let target = segments[segments.count / 2]
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + target)))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + target))
        #expect(cli.run(["start", "refused"]).status == 65)

        let repaired = cli.run(["repair", "--json"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        let json = try JSON.parse(repaired.stdout)
        let from = try #require(json["firstLostSeq"]?.intValue)
        let to = try #require(json["lastLostSeq"]?.intValue)
        #expect(json["resumesAt"]?.intValue == to + 1, "\(repaired.stdout)")
        #expect(to - from < 20, "only the damaged frame's events are lost: \(from)–\(to)")
        #expect(json["lastSeq"]?.intValue.map { "head \($0):" }.map(head.hasPrefix) == true, "\(repaired.stdout)")
        let verified = cli.run(["verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("the log resumes at seq \(to + 1)"), "\(verified.stdout)")
        #expect(verified.stdout.contains(head), "the head changed: \(verified.stdout)")

        #expect(cli.run(["status"]).status == 0)
        let started = cli.run(["start", "after-repair"])
        #expect(started.status == 0, "\(started.stderr)")
        let cold = try LogFiles.segmentsOnlyCopy(of: log, in: directory)
        var coldCLI = cli
        coldCLI.environment["STINT_LOG"] = cold
        #expect(coldCLI.run(["status"]).stdout.contains("after-repair"))
        #expect(coldCLI.run(["verify"]).status == 0)
        let text = cli.run(["repair"])
        #expect(text.stdout.hasPrefix("Nothing to repair"), "\(text.stdout)")
    }

    /// Without the `checked` file and the read models, a checkpoint's head still vouches for the events after
    /// the damaged frame; without any known head, everything after the damage goes aside as before.
    @Test func aCheckpointsHeadVouchesWhenNothingElseDoes() throws {
        for keepsCheckpoint in [true, false] {
            let (directory, cli) = Self.makeLog(pairs: 150, sealThreshold: 2048)
            let log = directory.appending("log")
            let headLine = try #require(
                cli.run(["verify"]).stdout.split(separator: "\n").first { $0.hasPrefix("head ") })
            let head = try #require(LogHead(String(headLine.dropFirst("head ".count))))
            for name in ["checked", "read-models.sqlite", "read-models.sqlite-wal", "read-models.sqlite-shm"] {
                try? FileManager.default.removeItem(atPath: log + "/" + name)
            }
            if keepsCheckpoint {
                // A checkpoint's payload is not read for its head: any bytes do.
                CheckpointStore(logDirectory: log).save(
                    Array("payload".utf8), head: head, at: Instant(milliseconds: 0), version: 1)
            }
            let segments = try LogFiles.segmentNames(of: log)
            let target = segments[segments.count / 3]
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + target)))
            bytes[bytes.count / 3] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + target))

            let repaired = cli.run(["repair", "--json"])
            #expect(repaired.status == 0, "\(repaired.stderr)")
            let json = try JSON.parse(repaired.stdout)
            #expect((json["resumesAt"] != nil) == keepsCheckpoint, "\(repaired.stdout)")
            if keepsCheckpoint { #expect(json["lastSeq"]?.intValue == head.seq, "\(repaired.stdout)") }
            #expect(cli.run(["verify"]).status == 0)
            #expect(cli.run(["start", "after-repair"]).status == 0)
        }
    }

    /// A log damaged before this version (or whose `checked` file was lost): the repair still says that events
    /// were lost, and records it.
    @Test func withoutTheCheckedFileTheLossIsStillRecorded() throws {
        let (directory, cli) = Self.makeLog(pairs: 60, sealThreshold: 1 << 20)
        let log = directory.appending("log")
        let segment = try #require(try LogFiles.segmentNames(of: log).first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + segment)))
        bytes[bytes.count * 3 / 4] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + segment))
        try FileManager.default.removeItem(atPath: log + "/checked")
        let result = cli.run(["repair", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSON.parse(result.stdout)
        let from = try #require(json["firstLostSeq"]?.intValue)
        let to = try #require(json["lastLostSeq"]?.intValue)
        #expect(to >= from)
        #expect(json["recordedAt"]?.intValue == from)
        #expect(cli.run(["verify"]).stdout.contains("repaired at seq \(from)"))
    }

    /// A repair cut off after its cut and before its record (as a crash leaves it: the library's salvage ran,
    /// the `log.repaired` append did not): writers refuse the log and name `stint repair`, which appends the
    /// record; cut off after the record and before it finished, the next `repair` does not record it twice.
    @Test func aRepairInterruptedBeforeItsRecordIsFinishedByTheNext() throws {
        let (directory, cli) = Self.makeLog(pairs: 60, sealThreshold: 1 << 20)
        let log = directory.appending("log")
        let segment = try #require(try LogFiles.segmentNames(of: log).first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + segment)))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + segment))
        let cut = try LogWriter.openRepairing(
            at: log, configuration: LogConfiguration(clock: { Instant(milliseconds: 0) }))
        cut.writer.close()
        let lost = try #require(cut.repair)
        let marker = try Data(contentsOf: URL(fileURLWithPath: log + "/repairing"))
        let interrupted = try LogFiles.files(of: log)

        let refused = cli.run(["start", "refused"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("interrupted") && refused.stderr.contains("stint repair"), "\(refused.stderr)")
        #expect(try LogFiles.files(of: log) == interrupted, "a refused write changed the log")
        #expect(cli.run(["status"]).status == 0, "reads go on")

        let finished = cli.run(["repair", "--json"])
        #expect(finished.status == 0, "\(finished.stderr)")
        let json = try JSON.parse(finished.stdout)
        #expect(json["firstLostSeq"]?.intValue == lost.firstLostSeq)
        #expect(json["lastLostSeq"]?.intValue == lost.lastLostSeq)
        #expect(json["recordedAt"]?.intValue == lost.firstLostSeq, "the record is the next event")
        #expect(!FileManager.default.fileExists(atPath: log + "/repairing"))
        #expect(cli.run(["verify"]).stdout.contains("repaired at seq \(lost.firstLostSeq)"))

        // Cut off after the record, before the `repairing` file went: finished without a second record.
        try marker.write(to: URL(fileURLWithPath: log + "/repairing"))
        #expect(cli.run(["start", "refused"]).status == 65)
        let again = cli.run(["repair", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try JSON.parse(again.stdout)["recordedAt"]?.intValue == lost.firstLostSeq)
        let history = cli.run(["history"]).stdout
        #expect(history.components(separatedBy: "log.repaired").count == 2, "one record: \(history)")
        #expect(cli.run(["start", "after-repair"]).status == 0)
        #expect(cli.run(["verify"]).status == 0)
    }

    @Test func anIntactLogIsLeftAsItIs() throws {
        let (directory, cli) = Self.makeLog(pairs: 3, sealThreshold: 1 << 20)
        let log = directory.appending("log")
        let before = try LogFiles.files(of: log)
        let result = cli.run(["repair"])
        #expect(result.status == 0)
        #expect(result.stdout == "Nothing to repair: \(log) is intact (10 events).\n")
        #expect(try LogFiles.files(of: log) == before)
    }

    @Test func aDamagedFirstEventIsRefusedAndChangesNothing() throws {
        let (directory, cli) = Self.makeLog(pairs: 3, sealThreshold: 1 << 20)
        let log = directory.appending("log")
        let first = try #require(try LogFiles.segmentNames(of: log).first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log + "/" + first)))
        bytes[40] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + first))
        let before = try LogFiles.files(of: log)
        let result = cli.run(["repair"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Nothing can be kept"), "\(result.stderr)")
        #expect(try LogFiles.files(of: log) == before)
    }

    @Test func anArgumentIsAUsageError() throws {
        let (_, cli) = Self.makeLog(pairs: 1, sealThreshold: 1 << 20)
        let result = cli.run(["repair", "now"])
        #expect(result.status == 64, "\(result.stderr)")
    }
}
