import Foundation
import StintCore
import StintEngine
import StintLog
import TestSupport
import Testing

/// `stint view` (docs/decisions/0011-html-replay-viewer.md, step 1): one self-contained page whose widgets are
/// `stint widget --at`'s and whose fingerprints are those of `stint snapshot --at`, at every point it shows.
@Suite struct ViewVerbTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Events/sample/log").path

    /// A copy of the sample log, read on 2026-11-26 (after its last batch, 2026-11-24).
    static func runner(in directory: TemporaryDirectory) throws -> CLIRunner {
        let log = directory.appending("log")
        try FileManager.default.copyItem(atPath: sample, toPath: log)
        return CLIRunner(log: log, now: "2026-11-26T12:00:00.000Z")
    }

    /// The page's data block, parsed.
    static func data(of html: String) throws -> JSON {
        let open = "<script type=\"application/json\" id=\"stint-data\">"
        let start = try #require(html.range(of: open)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try JSON.parse(String(html[start..<end]))
    }

    static func points(_ data: JSON) throws -> [JSON] {
        guard case .array(let points)? = data["points"] else { throw StintError(.damaged, "no points") }
        return points
    }

    @Test func everyPointShowsWhatWidgetAndSnapshotPrintAtItsInstant() throws {
        let directory = TemporaryDirectory()
        let runner = try Self.runner(in: directory)
        let file = directory.appending("page.html")
        let result = runner.run(["view", "--out", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(file): 38 points of 38 batches\n")
        let html = try String(contentsOfFile: file, encoding: .utf8)

        // Nothing is fetched: no element loads anything, the only URL is the SVG namespace, and the widgets'
        // url() are references inside their SVG (a clip path).
        for loader in ["<link", " src=", "@import", "<iframe", "<img", "fetch(", "XMLHttpRequest", "https:"] {
            #expect(!html.contains(loader), "the page holds \(loader)")
        }
        #expect(html.components(separatedBy: "url(").count == html.components(separatedBy: "url(#").count)
        #expect(
            html.components(separatedBy: "http:").count
                == html.components(separatedBy: "http://www.w3.org/2000/svg").count)
        #expect(html.contains("default-src 'none'"), "the content security policy forbids every request")

        let data = try Self.data(of: html)
        let points = try Self.points(data)
        let slots = data["slots"]
        guard case .array(let svgs)? = data["svgs"], case .array(let labels)? = slots else {
            Issue.record("no svgs or slots")
            return
        }
        // The sample's 38 batches are 38 instants; the points are in order and end at the last batch.
        #expect(points.count == 38)
        #expect(points.last?["at"]?.stringValue == "2026-11-24T09:56:00.000Z")
        #expect(points.map { $0["at"]?.stringValue ?? "" } == points.map { $0["at"]?.stringValue ?? "" }.sorted())

        // At five points, every widget is `stint widget --at`'s SVG and the fingerprint is `snapshot --at`'s.
        for index in [0, 9, 19, 28, points.count - 1] {
            let point = points[index]
            let at = try #require(point["at"]?.stringValue)
            for (mode, flag) in [("widgets", [String]()), ("computed", ["--as-computed"])] {
                guard case .array(let widgets)? = point[mode] else {
                    Issue.record("no \(mode) at \(at)")
                    continue
                }
                #expect(widgets.count == labels.count)
                for (slot, widget) in zip(labels, widgets) {
                    let label = try #require(slot.stringValue)
                    let parts = label.split(separator: " ")
                    var arguments = ["widget", "--family", String(parts[0]), "--format", "svg", "--at", at] + flag
                    if parts.count == 2 { arguments += ["--period", String(parts[1].dropFirst().dropLast())] }
                    let drawn = runner.run(arguments)
                    guard let svg = widget.intValue else {
                        #expect(drawn.status != 0, "\(label) \(mode) at \(at): the page shows nothing, widget draws it")
                        continue
                    }
                    #expect(drawn.status == 0, "\(drawn.stderr)")
                    #expect(drawn.stdout == svgs[Int(svg)].stringValue, "\(label) \(mode) at \(at)")
                }
            }
            let snapshot = runner.run(["snapshot", "--at", at])
            #expect(snapshot.status == 0)
            #expect(point["fingerprint"]?.stringValue == Fingerprint.sha256(Array(snapshot.stdout.utf8)), "\(at)")
        }
        // The last point's batch is the replay's last row.
        let replay = runner.run(["replay"]).stdout.split(separator: "\n").map(String.init)
        guard case .array(let rows)? = points.last?["rows"] else {
            Issue.record("no rows")
            return
        }
        #expect(rows.compactMap(\.stringValue).allSatisfy(replay.contains))

        // The same log and arguments give the same bytes.
        let again = directory.appending("again.html")
        #expect(runner.run(["view", "--out", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// Each point says what its batches changed (decision 0011 step 3b): the records that differ between
    /// `stint log --all --at` at the point before and at the point (added, removed, changed: exactly those,
    /// running or not as they are), the running timers when they differ, and each event's place in the hash
    /// chain: `genesis` for the first line, else the first digits of its `prev`, which is the hash of the
    /// line before it.
    @Test func eachPointSaysWhatItsBatchesChangedAndWhereItsEventsAreInTheChain() throws {
        let directory = TemporaryDirectory()
        let runner = try Self.runner(in: directory)
        let page = runner.run(["view", "--out", "-"])
        #expect(page.status == 0, "\(page.stderr)")
        let points = try Self.points(try Self.data(of: page.stdout))
        #expect(points.count == 38, "every point is kept: the point before is the state before")
        func live(at instant: String?) throws -> [String: JSON] {
            guard let instant else { return [:] }
            let result = runner.run(["--json", "log", "--all", "--at", instant])
            #expect(result.status == 0, "\(result.stderr)")
            guard case .array(let records) = try JSON.parse(result.stdout) else { return [:] }
            return Dictionary(
                uniqueKeysWithValues: records.map { (String(($0["id"]?.stringValue ?? "").prefix(8)), $0) })
        }
        /// A record's values: not its seconds, which grow while it runs.
        func values(_ record: JSON?) -> [String] {
            ["start", "end", "tagId", "comment", "running"].map { field in record?[field].map { "\($0)" } ?? "-" }
        }
        var before: [String: JSON] = [:]
        var recordChanges = 0
        for point in points {
            let at = point["at"]?.stringValue
            let after = try live(at: at)
            guard case .array(let changes)? = point["changes"] else {
                Issue.record("no changes at \(at ?? "?")")
                continue
            }
            var shown: [String: (before: String, after: String)] = [:]
            for change in changes {
                guard let what = change["what"]?.stringValue, what.hasPrefix("record ") else { continue }
                shown[String(what.dropFirst(7))] = (
                    change["before"]?.stringValue ?? "", change["after"]?.stringValue ?? ""
                )
            }
            let differing = Set(before.keys).union(after.keys).filter { values(before[$0]) != values(after[$0]) }
            #expect(Set(shown.keys) == differing, "at \(at ?? "?"): the records that changed")
            for (id, texts) in shown {
                for (text, record) in [(texts.before, before[id]), (texts.after, after[id])] {
                    if let record {
                        #expect(
                            text.contains("running") == (record["running"]?.boolValue == true), "\(id) at \(at ?? "?")")
                        if let tag = record["tagName"]?.stringValue { #expect(text.contains(tag), "\(id): \(text)") }
                    } else {
                        #expect(text == "none" || text == "deleted", "\(id) at \(at ?? "?"): \(text)")
                    }
                }
            }
            recordChanges += shown.count
            let running = { (records: [String: JSON]) in
                Set(records.filter { $0.value["running"]?.boolValue == true }.keys)
            }
            #expect(
                changes.contains { $0["what"]?.stringValue == "running timers" } == (running(before) != running(after)),
                "at \(at ?? "?"): the running timers")
            before = after
        }
        #expect(recordChanges > 30, "only \(recordChanges) record changes")

        // The chain: every event shown names the hash of the line before it.
        let cursor = try LogReader(path: directory.appending("log")).events()
        var lines: [Int64: RecordedEvent] = [:]
        while let event = try cursor.next() { lines[event.seq] = event }
        var checked = 0
        for point in points {
            guard case .array(let events)? = point["events"] else { continue }
            for event in events {
                guard let seq = event["seq"]?.intValue, let recorded = lines[seq],
                    let chain = event["chain"]?.stringValue
                else {
                    Issue.record("an event without its chain: \(event)")
                    continue
                }
                if seq == 1 {
                    #expect(chain == "genesis")
                } else {
                    let previous = try #require(lines[seq - 1])
                    #expect(recorded.prev == String(LogHead(of: previous).hash.prefix(32)))
                    #expect(chain == "✓ " + recorded.prev.prefix(8), "seq \(seq)")
                }
                checked += 1
            }
        }
        #expect(checked == lines.count)
    }

    @Test func aLongHistoryKeepsEvenlySpreadPointsAndTheLast() throws {
        let directory = TemporaryDirectory()
        let runner = try Self.runner(in: directory)
        for limit in [1, 5, 7, 37] {
            let page = runner.run(["view", "--points", "\(limit)", "--out", "-"])
            #expect(page.status == 0, "\(page.stderr)")
            let points = try Self.points(try Self.data(of: page.stdout))
            #expect(points.count <= limit && points.count >= min(limit, 38) / 2, "--points \(limit)")
            #expect(points.last?["at"]?.stringValue == "2026-11-24T09:56:00.000Z")
            #expect(points.compactMap { $0["batches"]?.intValue }.reduce(0, +) == 38, "--points \(limit)")
        }
        // A range: the points from --since on, up to --at.
        let week = runner.run(["view", "--since", "2026-11-18", "--at", "2026-11-20T12:00", "--out", "-"])
        #expect(week.status == 0, "\(week.stderr)")
        let points = try Self.points(try Self.data(of: week.stdout))
        #expect(!points.isEmpty)
        #expect(points.allSatisfy { ($0["at"]?.stringValue ?? "") >= "2026-11-17T23:00:00.000Z" })
        #expect(points.allSatisfy { ($0["at"]?.stringValue ?? "") <= "2026-11-20T11:00:00.000Z" })
    }

    @Test func wrongInputGetsAClearErrorAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        let runner = try Self.runner(in: directory)
        let file = directory.appending("page.html")
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["view"], 64, "--out"),
            (["view", "--out", file, "--points", "0"], 64, "--points takes a whole number from 1 to 800"),
            (["view", "--out", file, "--points", "many"], 64, "--points takes a whole number"),
            (["view", "--out", file, "--at", "2026-11-20", "--until", "2026-11-21"], 64, "--at and --until"),
            (
                ["view", "--out", file, "--since", "2026-11-21", "--until", "2026-11-20"], 64,
                "--since must not be after"
            ),
            (["view", "--out", file, "--since", "2026-11-25"], 1, "no batch was recorded in the range"),
            (["view", "--out", file, "--at", "2030-01-01"], 1, "future"),
            (["view", "--out", directory.appending("missing/page.html")], 1, "cannot write"),
            (["view", "--out", "/dev/full"], 1, "/dev/full is not a regular file"),
            (["view", "--out", directory.path], 1, "is not a regular file"),
        ]
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.appending("log")).sorted()
        for (arguments, status, message) in cases {
            let result = runner.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: file))
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
        #expect(device == .typeCharacterSpecial, "the page replaced /dev/full")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending("log")).sorted() == before)
    }
}
