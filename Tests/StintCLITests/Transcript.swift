import Foundation
import StintCore
import Synchronization
import TestSupport
import Testing

@testable import StintCLI

/// Golden CLI transcripts: files under `__Snapshots__/Transcripts/` that hold both the commands to run and
/// what they printed.
///
/// A transcript is read line by line. `# …` lines are comments, `@ now INSTANT` sets the clock for the
/// commands after it, `@ env NAME=VALUE` sets an environment variable (`@ env NAME=` removes it), and
/// `$ stint …` runs a command line (split as a shell would) in process, on a fresh log in a temporary
/// directory given as `STINT_LOG`. The lines after a command, up to its `[exit N]`, are its output: the
/// standard output as is, the standard error with `2> ` in front (a new transcript may list commands and
/// directives without output; recording fills it in). The temporary directory prints as `$TMP`.
///
/// Ids come from a counter whose value is in the first group (`00000001-0000-4000-8000-000000000001`), so
/// short ids differ and records can be named by a prefix. With `STINT_RECORD_GOLDEN=1` the files are
/// rewritten from the commands in them and the test fails, so a re-record is always seen.
struct Transcript {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__").appendingPathComponent("Transcripts")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".transcript") }.sorted()
    }

    /// Runs the commands of `text` and returns the transcript they produce now.
    static func replay(_ text: String) -> String {
        let temporary = TemporaryDirectory(prefix: "stint-transcript")
        let host = TranscriptHost(directory: temporary.path)
        var out: [String] = []
        var inOutput = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if inOutput {
                if line.hasPrefix("[exit ") { inOutput = false }
                if !line.hasPrefix("$ stint"), !line.hasPrefix("@ ") { continue }
                inOutput = false
            }
            if line.hasPrefix("#") || line.hasPrefix("@ ") || line.isEmpty {
                if line.hasPrefix("@ ") { host.apply(directive: String(line.dropFirst(2))) }
                if !(line.isEmpty && out.last?.isEmpty == true) { out.append(line) }
                continue
            }
            guard line.hasPrefix("$ stint") else { continue }
            inOutput = true
            out.append(line)
            let words = Array(ShellWords.split(String(line.dropFirst(2))).dropFirst())
            let result = host.run(words)
            out += result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                host.scrub(String($0))
            }
            if !result.stdout.isEmpty, !result.stdout.hasSuffix("\n") { out.append("[no newline at the end]") }
            out += result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                "2> " + host.scrub(String($0))
            }
            out.append("[exit \(result.status)]")
            out.append("")
        }
        while out.last?.isEmpty == true { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    /// Checks the transcript `name` against a fresh run of its commands, or re-records it.
    static func check(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        let expected = try String(contentsOf: url, encoding: .utf8)
        let actual = replay(expected)
        if WidgetGolden.isRecording {
            if actual != expected { try Data(actual.utf8).write(to: url) }
            Issue.record("re-recorded \(name); unset STINT_RECORD_GOLDEN and run again", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let difference = WidgetGolden.firstDifference(actual, expected)
        Issue.record(
            Comment(rawValue: "\(name) differs from a fresh run (STINT_RECORD_GOLDEN=1 re-records it):\n\(difference)"),
            sourceLocation: sourceLocation)
    }
}

/// The host transcripts run on: a settable clock, numbered ids, an environment.
final class TranscriptHost: Sendable {
    private struct State {
        var now = Instant(canonical: "2026-11-29T13:00:00.000Z")!
        var environment: [String: String]
        var nextID: UInt64 = 0
    }

    let directory: String
    private let state: Mutex<State>

    init(directory: String) {
        self.directory = directory
        state = Mutex(State(environment: ["STINT_LOG": directory + "/log", "HOME": directory]))
    }

    func apply(directive: String) {
        let parts = directive.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return }
        switch parts[0] {
        case "now":
            guard let instant = Instant(canonical: parts[1]) else {
                Issue.record("@ now takes a canonical instant such as 2026-11-29T13:00:00.000Z, not \(parts[1])")
                return
            }
            state.withLock { $0.now = instant }
        case "env":
            let pair = parts[1].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let value = pair.count == 2 ? pair[1].replacingOccurrences(of: "$TMP", with: directory) : ""
            state.withLock { $0.environment[pair[0]] = value.isEmpty ? nil : value }
        default:
            Issue.record("unknown directive @ \(directive)")
        }
    }

    func run(_ arguments: [String]) -> CLIResult {
        let (now, environment) = state.withLock { ($0.now, $0.environment) }
        let out = CapturedOutput()
        let err = CapturedOutput()
        let host = Host(
            environment: environment, clock: { now },
            newID: { [self] in
                let n = state.withLock { state -> UInt64 in
                    state.nextID += 1
                    return state.nextID
                }
                return EntityID(high: n << 32 | 0x4000, low: 0x8000_0000_0000_0000 | n)
            }, standardOutput: out, standardError: err, systemTimeZone: "UTC")
        let status = StintCLI.run(arguments: arguments, host: host)
        return CLIResult(status: status, stdout: out.text, stderr: err.text)
    }

    func scrub(_ line: String) -> String {
        line.replacingOccurrences(of: directory, with: "$TMP")
    }
}
