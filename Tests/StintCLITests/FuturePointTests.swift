import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// A point in the future is refused by every verb that reads the log at a point (`--at`), as write verbs refuse
/// a future time: exit 1, an error that says the point is in the future, nothing on standard output and the log
/// left byte-identical.
@Suite struct FuturePointTests {
    /// The arguments that make each point-reading verb run (the verb's own required ones), by verb name.
    static let invocations: [String: [String]] = [
        "status": ["status"], "tags": ["tags"], "log": ["log"], "report": ["report"], "chart": ["chart"],
        "summary": ["summary"], "snapshot": ["snapshot"], "timeline": ["timeline"],
        "live-activity": ["live-activity"], "widget": ["widget", "--family", "systemSmall"],
        "publish": ["publish", "--to", "/dev/null/widget-data.json"], "conflicts": ["conflicts"],
    ]

    /// Every verb with `--seq` reads at a point; the table above must name each one.
    static var pointVerbs: [String] {
        var names: [String] = []
        for verb in StintCLI.allVerbs where verb.spec.options.contains(where: { $0.name == "seq" }) {
            names.append(verb.spec.name)
        }
        return names
    }

    @Test func everyPointReadingVerbIsCovered() {
        #expect(Set(Self.pointVerbs) == Set(Self.invocations.keys))
    }

    @Test(arguments: ["next year": "2027-11-29 10:00", "tomorrow": "2026-11-30T09:00:00Z", "in 2 minutes": "10:02"])
    func aFuturePointIsRefusedByEveryReadVerb(_ label: String, _ at: String) throws {
        let (directory, cli) = MutationErrorTests.makeLog()
        let path = directory.appending("log")
        for verb in Self.pointVerbs {
            let arguments = try #require(Self.invocations[verb]) + ["--at", at]
            let before = MutationErrorTests.snapshot(path)
            let result = cli.run(arguments)
            #expect(result.status == 1, "\(arguments) (\(label)): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: --at \(at) ("), "\(arguments)")
            #expect(result.stderr.contains("in the future; it is now 2026-11-29 10:00"), "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(MutationErrorTests.snapshot(path) == before, "\(arguments)")
        }
    }

    @Test func diffRefusesAFuturePoint() {
        let (directory, cli) = MutationErrorTests.makeLog()
        _ = directory
        let result = cli.run(["diff", "--from", "1", "--to", "2027-01-01 00:00"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("in the future"))
    }

    @Test func aPointWithinAMinuteOrInThePastIsRead() {
        let (directory, cli) = MutationErrorTests.makeLog()
        _ = directory
        for at in ["10:00:59", "10:00:30", "10:00", "now"] {
            let result = cli.run(["status", "--at", at])
            #expect(result.status == 0, "\(at): \(result.stderr)")
        }
    }
}
