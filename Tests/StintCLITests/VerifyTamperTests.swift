import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintLog

/// `stint verify` catches a log rewritten behind Stint's back: an event edited, deleted, inserted or moved,
/// with every frame recompressed correctly (by the stock `zstd` tool where it is installed), so that only
/// the hash chain and the seqs can tell. It exits 65 and names the seq; `--expect-head` catches an edit of
/// the last event, which nothing after it links to.
@Suite struct VerifyTamperTests {
    static let zstd = "/usr/bin/zstd"
    static let segment = "00000000000000000001.jsonl.zst"

    /// A UTC log of 9 events in one segment; returns it and its batches' lines as stored.
    static func makeLog(in directory: TemporaryDirectory) throws -> (log: String, batches: [[String]]) {
        let log = directory.appending("log")
        var runner = CLIRunner(log: log, now: "2026-03-07T14:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        for (time, command) in [
            ("15:00", ["start", "a"]), ("16:00", ["stop"]), ("17:00", ["start", "b"]), ("18:00", ["stop"]),
            ("19:00", ["track", "10:00", "11:00", "c"]),
        ] {
            runner.now = Instant(canonical: "2026-03-07T\(time):00.000Z")!
            #expect(runner.run(command).status == 0)
        }
        let lines = runner.run(["history", "--json"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".zst") } == [segment])
        var batches: [[String]] = []
        for line in lines {
            let event = try RecordedEvent(line: Array(line.utf8))
            if event.batchStart != event.seq { batches[batches.count - 1].append(line) } else { batches.append([line]) }
        }
        return (log, batches)
    }

    /// One data frame holding `lines`: from the stock `zstd` tool when installed, else from Stint's compressor.
    static func frame(_ lines: [String], scratch: TemporaryDirectory) throws -> [UInt8] {
        let content = Array((lines.joined(separator: "\n") + "\n").utf8)
        if FileManager.default.isExecutableFile(atPath: zstd) {
            // From a file, so that the frame declares its content size as Stint requires.
            let input = scratch.appending("batch.jsonl")
            try Data(content).write(to: URL(fileURLWithPath: input))
            let output = try StintProcess.run(URL(fileURLWithPath: zstd), ["-q", "-c", "-3", input], environment: [:])
            #expect(output.status == 0)
            return Array(output.stdout)
        }
        var frame: [UInt8] = []
        try content.withUnsafeBytes { bytes in try ZstdCompressor(level: 3).compress(bytes, appendingTo: &frame) }
        return frame
    }

    /// Rewrites the segment with `batches`, one well-formed frame each.
    static func rewrite(_ log: String, with batches: [[String]]) throws {
        let scratch = TemporaryDirectory()
        var bytes: [UInt8] = []
        for batch in batches { bytes += try frame(batch, scratch: scratch) }
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/" + segment))
    }

    /// `verify --json`: its exit status and problems.
    static func verify(_ log: String, _ extra: [String] = []) throws -> (
        status: Int32, problems: [String], head: String?
    ) {
        let result = CLIRunner(log: log).run(["verify", "--json"] + extra)
        let json = try JSON.parse(result.stdout)
        return (result.status, json["problems"]?.arrayValue?.compactMap(\.stringValue) ?? [], json["head"]?.stringValue)
    }

    /// The same line with `old` replaced by `new` (once).
    static func edit(_ line: String, _ old: String, _ new: String) -> String {
        guard let range = line.range(of: old) else {
            Issue.record("'\(old)' is not in \(line)")
            return line
        }
        return line.replacingCharacters(in: range, with: new)
    }

    @Test func anIntactRewriteOfEveryFrameStillVerifies() throws {
        let directory = TemporaryDirectory()
        let (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        try VerifyTamperTests.rewrite(log, with: batches)
        let result = try VerifyTamperTests.verify(log)
        #expect(result.status == 0)
        #expect(result.problems.isEmpty)
    }

    @Test func anEditedEventIsNamedByTheLinkAfterIt() throws {
        let directory = TemporaryDirectory()
        var (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        // Batch 4 (one event, seq 4): the stop moves from 16:00 to 16:30.
        batches[2][0] = VerifyTamperTests.edit(batches[2][0], "T16:00:00.000Z\"}", "T16:30:00.000Z\"}")
        try VerifyTamperTests.rewrite(log, with: batches)
        let result = try VerifyTamperTests.verify(log)
        #expect(result.status == 65)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("seq 5: prev") == true)
        #expect(result.problems.first?.contains("is not the hash of seq 4") == true)
        let text = CLIRunner(log: log).run(["verify"])
        #expect(text.status == 65)
        #expect(text.stdout.hasPrefix("damaged: 1 problem in \(log)\n"))
        #expect(text.stderr.contains("error: the log is damaged"))
    }

    @Test func aDeletedEventIsNamedAsMissing() throws {
        let directory = TemporaryDirectory()
        var (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        batches.remove(at: 2)  // seq 4
        try VerifyTamperTests.rewrite(log, with: batches)
        let result = try VerifyTamperTests.verify(log)
        #expect(result.status == 65)
        #expect(result.problems.first?.contains("seq 4 is missing") == true)
    }

    @Test func anInsertedEventIsNamedAsRepeated() throws {
        let directory = TemporaryDirectory()
        var (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        batches.insert(batches[2], at: 3)  // seq 4 twice
        try VerifyTamperTests.rewrite(log, with: batches)
        let result = try VerifyTamperTests.verify(log)
        #expect(result.status == 65)
        #expect(result.problems.first?.contains("seq 4: expected seq 5 but found seq 4 again") == true)
    }

    @Test func reorderedEventsAreNamed() throws {
        let directory = TemporaryDirectory()
        var (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        batches.swapAt(2, 3)  // seq 4 after seq 5–6
        try VerifyTamperTests.rewrite(log, with: batches)
        let result = try VerifyTamperTests.verify(log)
        #expect(result.status == 65)
        #expect(result.problems.first?.contains("seq 4 is missing") == true)
        #expect(result.problems.contains { $0.contains("found seq 4 again") })
    }

    @Test func anEditOfTheLastEventNeedsTheRecordedHead() throws {
        let directory = TemporaryDirectory()
        var (log, batches) = try VerifyTamperTests.makeLog(in: directory)
        let recorded = try #require(try VerifyTamperTests.verify(log).head)
        #expect(recorded.hasPrefix("9:"))
        // The last event, the tracked record, ends at 11:30 instead of 11:00.
        let last = batches.count - 1
        batches[last][batches[last].count - 1] = VerifyTamperTests.edit(
            batches[last][batches[last].count - 1], "T11:00:00.000Z", "T11:30:00.000Z")
        try VerifyTamperTests.rewrite(log, with: batches)
        // Nothing links to the last event, so the log alone looks intact...
        let alone = try VerifyTamperTests.verify(log)
        #expect(alone.status == 0)
        #expect(alone.head != recorded)
        // ...and the head recorded elsewhere gives it away, as SEQ:HASH or as the hash alone.
        for expected in [recorded, String(recorded.dropFirst(2))] {
            let checked = try VerifyTamperTests.verify(log, ["--expect-head", expected])
            #expect(checked.status == 65)
            #expect(checked.problems.count == 1)
            #expect(checked.problems.first?.contains("9") == true)
        }
        let text = CLIRunner(log: log).run(["verify", "--expect-head", recorded])
        #expect(text.stdout.contains("seq 9: the hash of event 9"))
        #expect(CLIRunner(log: log).run(["verify", "--expect-head", "9:xyz"]).status == 64)
    }
}
