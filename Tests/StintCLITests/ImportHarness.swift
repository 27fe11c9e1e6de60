import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

/// A fresh New York log in a temporary directory, the CLI run against it in process, and readers of
/// what it holds: for the import and export tests.
struct ImportHarness {
    let directory = TemporaryDirectory(prefix: "stint-import")
    var runner: CLIRunner

    init(now: String = "2026-11-29T15:00:00.000Z", zone: String = "America/New_York") throws {
        runner = CLIRunner(log: directory.appending("log"), now: now)
        let created = runner.run(["init", "--tz", zone])
        try #require(created.status == 0, "stint init: \(created.stderr)")
    }

    var logPath: String { directory.appending("log") }

    /// The path of a file under `Events/import/`.
    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Events/import").appendingPathComponent(path).path
    }

    @discardableResult
    func run(_ arguments: [String], stdin: [UInt8] = []) -> CLIResult {
        var runner = runner
        runner.stdin = stdin
        return runner.run(arguments)
    }

    /// Runs a command that must succeed and returns its standard output.
    @discardableResult
    func succeed(_ arguments: [String], stdin: [UInt8] = [], sourceLocation: SourceLocation = #_sourceLocation)
        -> String
    {
        let result = run(arguments, stdin: stdin)
        #expect(
            result.status == 0, "stint \(arguments.joined(separator: " ")): \(result.stderr)",
            sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Writes `text` to a file in the temporary directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = directory.appending(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The events of the log, in order.
    func events() throws -> [RecordedEvent] {
        let cursor = try LogReader(path: logPath).events(from: 1)
        var events: [RecordedEvent] = []
        while let event = try cursor.next() { events.append(event) }
        return events
    }

    /// The state after the last event.
    func state() throws -> LogState {
        try LogState.fold(try events())
    }

    /// The bytes of the log's segments, which hold its events (checkpoints are caches and may come and go).
    func segmentBytes() throws -> [String: Data] {
        var bytes: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: logPath) where name.hasSuffix(".jsonl.zst") {
            bytes[name] = FileManager.default.contents(atPath: directory.appending("log/" + name))
        }
        return bytes
    }

    /// A record's comparable values, with its tag by name.
    struct Values: Hashable, CustomStringConvertible {
        var start: Instant
        var end: Instant?
        var tag: String?
        var comment: String?

        var description: String { "\(start)–\(end.map(\.iso8601) ?? "running") \(tag ?? "-") \(comment ?? "")" }
    }

    /// The records that are not deleted, as values, by start.
    func values() throws -> [Values] {
        let state = try state()
        return state.projectionSource.records.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map { record in
            Values(
                start: record.start, end: record.end, tag: record.tagId.flatMap { state.tags[$0]?.name },
                comment: record.comment)
        }
    }
}

/// Totals of an imported log computed the way the tools count: per day (split at midnight, from
/// `stint report`) and per name of the source (the tag, and the names of the comment's `Project:` and
/// `Tags:` lines).
enum ImportTotals {
    /// Milliseconds per local day in `[first, afterLast)`, records split at midnight as both tools count
    /// them, from `stint report --by day --split-at-midnight --json`; days without time are left out.
    static func days(_ log: ImportHarness, from first: CivilDate, to afterLast: CivilDate) throws -> [CivilDate: Int64]
    {
        let report = try JSON.parse(
            log.succeed([
                "report", "--since", first.iso8601, "--until", afterLast.iso8601, "--by", "day",
                "--split-at-midnight", "--json",
            ]))
        var days: [CivilDate: Int64] = [:]
        for period in try #require(report["periods"]?.arrayValue) {
            let day = try #require(period["period"]?.stringValue.flatMap { ToolReports.date(Substring($0)) })
            let seconds = try #require(period["tagSum"]?.doubleValue)
            if seconds > 0 { days[day] = Int64((seconds * 1000).rounded()) }
        }
        return days
    }

    /// The names a completed record carries from its source: its tag (or the name of a `Project:` line),
    /// and the names of its `Tags:` line.
    static func names(_ record: Record, _ state: LogState) -> (main: String?, others: [String]) {
        let (annotation, others) = RecordExport.splitTagsLine(record.comment)
        if let tag = record.tagId.flatMap({ state.tags[$0] }) { return (tag.name, others) }
        guard let line = annotation?.split(separator: "\n").last(where: { $0.hasPrefix("Project: ") }) else {
            return (nil, others)
        }
        let name = line.dropFirst("Project: ".count)
        return (name.hasPrefix("\"") ? (try? JSON.parse(String(name)))?.stringValue : String(name), others)
    }
}
