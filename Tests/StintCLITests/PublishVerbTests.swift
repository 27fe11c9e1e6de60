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

    @Test func aLegacySnapshotEquivalentToTheNewOneIsNotRewritten() throws {
        let directory = TemporaryDirectory()
        let runner = PublishVerbTests.log(in: directory)
        let file = directory.appending("widget-data.json")
        #expect(runner.run(["publish", "--to", file]).status == 0)
        // Rewrite it as an app version up to 1.0.3 did: todayTotalDuration, no lastUpdated, other key order.
        var json = try JSON.parse(Data(contentsOf: URL(fileURLWithPath: file)))
        guard case .object(let fields) = json else { throw CancellationError() }
        json = .object(
            fields.reversed().compactMap { field in
                switch field.key {
                case "lastUpdated": return nil
                case "todayCompletedDuration": return JSONField("todayTotalDuration", field.value)
                default: return field
                }
            })
        let legacy = Array(json.encoded())
        try Data(legacy).write(to: URL(fileURLWithPath: file))
        #expect(runner.run(["publish", "--to", file]).stdout == "unchanged\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == legacy)
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
