import Foundation
import StintCore
import Testing

@testable import StintLog

/// The example logs under Events/invalid/envelope/<kind>/: the reader stops before each one's last line, with a
/// problem of that kind on it. The fold trusts the envelope, so this is where a gap, an `at` that goes back or
/// a broken batch is refused. `invalidLine/` holds lines whose log format 2 members (`device`, `hlc`) are
/// refused by the line decoder itself. `envelopeDropped/`, `deviceMismatch/` and `hlcWentBackwards/` (and
/// `malformedBatch/batch-with-two-hlcs`) break log format 2's rules across lines (docs/log-format.md §2.3).
@Suite struct EnvelopeExamplesTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Events/invalid/envelope")

    static var examples: [String] {
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    @Test func thereAreExamplesForEveryEnvelopeRule() {
        #expect(Set(Self.examples.map { String($0.split(separator: "/")[0]) }) == Self.kinds)
    }

    static let kinds: Set<String> = [
        "seqDiscontinuity", "timeWentBackwards", "malformedBatch", "invalidLine", "envelopeDropped", "deviceMismatch",
        "hlcWentBackwards",
    ]

    @Test(arguments: examples)
    func theReaderStopsBeforeTheLastLine(path: String) throws {
        let kind = String(path.split(separator: "/")[0])
        let file = Self.directory.appendingPathComponent(path).path
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let events = try LogReader(path: file, options: LogReader.Options(checksChain: false)).events()
        var read: [Int64] = []
        while let event = try events.next() { read.append(event.seq) }
        #expect(read.count == lines.count - 1 - (kind == "malformedBatch" ? 1 : 0), "\(read)")
        let warning = try #require(events.warning)
        #expect("\(warning.kind)" == kind)
        #expect(warning.location.line == lines.count)
        if kind == "invalidLine" {
            // Log format 2's pair is at fault (docs/log-format.md §2): without it the line is a valid event.
            let last = try JSON.parse(Array(lines[lines.count - 1].utf8))
            let fields = try #require(last.objectFields)
            #expect(fields.contains { $0.key == "device" || $0.key == "hlc" })
            let withoutPair = JSON.object(fields.filter { $0.key != "device" && $0.key != "hlc" })
            #expect(throws: Never.self) { try RecordedEvent(json: withoutPair) }
        }
    }

    /// Verification reports the same problem, on the last line with its `seq` (besides the broken chain: the
    /// examples' `prev` are zeros).
    @Test(arguments: examples)
    func verificationReportsTheLastLine(path: String) throws {
        let kind = String(path.split(separator: "/")[0])
        let file = Self.directory.appendingPathComponent(path).path
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let report = try LogReader(path: file).verify()
        let problems = report.problems.filter { "\($0.kind)" == kind }
        #expect(problems.count == 1, "\(report.problems)")
        let problem = try #require(problems.first)
        #expect(problem.location.line == lines.count)
        if kind != "invalidLine" { #expect(problem.location.seq == Int64(lines.count)) }
    }
}
