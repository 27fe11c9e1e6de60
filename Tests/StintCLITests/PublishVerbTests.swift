import Foundation
import StintCore
import TestSupport
import Testing

/// `stint publish`: the unchanged-snapshot rule, atomic writes, and never replacing what is not a snapshot.
@Suite struct PublishVerbTests {
    /// A UTC log with writing running since 09:00, read at `now`.
    static func log(in directory: TemporaryDirectory, now: String = "2026-05-04T10:00:00.000Z") -> CLIRunner {
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-04T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T09:00:00.000Z")!
        #expect(runner.run(["start", "writing"]).status == 0)
        runner.now = Instant(canonical: now)!
        return runner
    }

    @Test func writesOnceThenLeavesAnEqualSnapshotAlone() throws {
        let directory = TemporaryDirectory()
        var runner = PublishVerbTests.log(in: directory)
        let file = directory.appending("widget-data.json")
        let first = runner.run(["publish", "--to", file])
        #expect(first.status == 0)
        #expect(first.stdout == "written\n")
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        let snapshot = try WidgetData(decoding: Array(written))
        #expect(snapshot.lastUpdated == Instant(canonical: "2026-05-04T10:00:00.000Z")!)
        #expect(snapshot.runningTimers.map(\.tagName) == ["writing"])
        // Minutes later nothing the widget shows changed: only lastUpdated would, so the file stays.
        runner.now = Instant(canonical: "2026-05-04T10:20:00.000Z")!
        let second = runner.run(["publish", "--to", file, "--json"])
        #expect(second.status == 0)
        #expect(try JSON.parse(second.stdout) == .object(["result": .string("unchanged"), "path": .string(file)]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == written)
        // A stop changes the snapshot.
        #expect(runner.run(["stop"]).status == 0)
        #expect(runner.run(["publish", "--to", file]).stdout == "written\n")
        #expect(try WidgetData(decoding: Array(Data(contentsOf: URL(fileURLWithPath: file)))).runningTimers.isEmpty)
        // No temporary file is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["log", "widget-data.json"])
    }

    @Test func aStaleSnapshotIsRewrittenEvenWhenNothingElseChanged() throws {
        let directory = TemporaryDirectory()
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-03T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T10:00:00.000Z")!
        #expect(runner.run(["track", "09:00", "10:00", "writing"]).status == 0)
        let file = directory.appending("widget-data.json")
        runner.now = Instant(canonical: "2026-05-05T11:00:00.000Z")!
        #expect(runner.run(["publish", "--to", file]).stdout == "written\n")
        // Exactly 24 hours later the snapshot is not stale yet: equal, so left alone.
        runner.now = Instant(canonical: "2026-05-06T11:00:00.000Z")!
        #expect(runner.run(["publish", "--to", file]).stdout == "unchanged\n")
        // Past 24 hours the widget says "Refresh: stint publish"; publish must then write.
        runner.now = Instant(canonical: "2026-05-06T11:00:01.000Z")!
        #expect(runner.run(["publish", "--to", file]).stdout == "written\n")
        let refreshed = try WidgetData(decoding: Array(Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(refreshed.lastUpdated == runner.now)
        runner.now = Instant(canonical: "2026-05-06T12:00:00.000Z")!
        #expect(runner.run(["publish", "--to", file]).stdout == "unchanged\n")
    }

    @Test func aLegacySnapshotEquivalentToTheNewOneIsNotRewritten() throws {
        let directory = TemporaryDirectory()
        let runner = PublishVerbTests.log(in: directory)
        let file = directory.appending("widget-data.json")
        #expect(runner.run(["publish", "--to", file]).status == 0)
        // Rewrite it as an app version up to 1.0.3 did: todayTotalDuration, other key order.
        let current = try JSON.parse(Data(contentsOf: URL(fileURLWithPath: file)))
        func legacy(keepingLastUpdated: Bool) throws -> [UInt8] {
            guard case .object(let fields) = current else { throw CancellationError() }
            return Array(
                JSON.object(
                    fields.reversed().compactMap { field in
                        switch field.key {
                        case "lastUpdated": return keepingLastUpdated ? field : nil
                        case "todayCompletedDuration": return JSONField("todayTotalDuration", field.value)
                        default: return field
                        }
                    }
                ).encoded())
        }
        let legacyBytes = try legacy(keepingLastUpdated: true)
        try Data(legacyBytes).write(to: URL(fileURLWithPath: file))
        #expect(runner.run(["publish", "--to", file]).stdout == "unchanged\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == legacyBytes)
        // Without lastUpdated a snapshot reads as written at the epoch: stale, so it is rewritten.
        try Data(try legacy(keepingLastUpdated: false)).write(to: URL(fileURLWithPath: file))
        #expect(runner.run(["publish", "--to", file]).stdout == "written\n")
        let rewritten = try WidgetData(decoding: Array(Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(rewritten.lastUpdated == runner.now)
    }

    @Test func somethingThatIsNotASnapshotIsReplacedOnlyWithForce() throws {
        let directory = TemporaryDirectory()
        let runner = PublishVerbTests.log(in: directory)
        let file = directory.appending("notes.json")
        let notes = Data(#"{"todo": ["buy milk"]}"#.utf8)
        try notes.write(to: URL(fileURLWithPath: file))
        let refused = runner.run(["publish", "--to", file])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == notes)
        let text = directory.appending("plain.txt")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(runner.run(["publish", "--to", text]).status == 1)
        let forced = runner.run(["publish", "--to", file, "--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout == "written\n")
        #expect((try? WidgetData(decoding: Array(Data(contentsOf: URL(fileURLWithPath: file))))) != nil)
    }

    @Test func anEmptyFileIsWrittenAndADirectoryIsRefused() throws {
        let directory = TemporaryDirectory()
        let runner = PublishVerbTests.log(in: directory)
        let empty = directory.appending("empty.json")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(runner.run(["publish", "--to", empty]).stdout == "written\n")
        let refused = runner.run(["publish", "--to", directory.path, "--force"])
        #expect(refused.status == 1)
        let missingDirectory = runner.run(["publish", "--to", directory.appending("no/such/dir/w.json")])
        #expect(missingDirectory.status == 1)
    }

    @Test func publishesTheSnapshotOfAnEarlierPoint() throws {
        let directory = TemporaryDirectory()
        let runner = PublishVerbTests.log(in: directory)
        let file = directory.appending("w.json")
        #expect(runner.run(["publish", "--to", file, "--at", "2026-05-04T08:30"]).stdout == "written\n")
        let snapshot = try WidgetData(decoding: Array(Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(snapshot.runningTimers.isEmpty)
        #expect(snapshot.lastUpdated == Instant(canonical: "2026-05-04T08:30:00.000Z")!)
        #expect(runner.run(["publish", "--to", file, "--seq", "1"]).stdout == "unchanged\n")
    }

    @Test func usageErrors() {
        let runner = CLIRunner()
        #expect(runner.run(["publish"]).status == 64)
        #expect(runner.run(["publish", "--to", "x.json", "--at", "9:00", "--seq", "2"]).status == 64)
        #expect(runner.run(["publish", "--to", "x.json", "--seq", "zero"]).status == 64)
    }
}
