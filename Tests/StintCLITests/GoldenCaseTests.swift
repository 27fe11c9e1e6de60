import Foundation
import Testing

@testable import StintCLI

/// The golden cases of Events/golden, run by the same runner as `stint check Events/golden`, and rebuilt
/// from their commands so that events.jsonl and commands.txt cannot drift apart.
@Suite struct GoldenCaseTests {
    static let directory = StintProcess.repository.appendingPathComponent("Events/golden")

    /// Every case directory under Events/golden, by name.
    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { CheckCase.isCase(directory.appendingPathComponent($0).path) }
    }()

    /// The cases read from an events.jsonl (a space case is built from its commands when checked).
    static let logCases: [String] = cases.filter {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("\($0)/events.jsonl").path)
    }

    @Test func theGoldenCasesCoverTheTimeTrackingIssue() {
        let required = [
            "dst-new-york-spring", "dst-new-york-fall", "dst-berlin-spring", "week-starting-sunday",
            "week-starting-monday", "month-boundary-in-week", "midnight-rollover", "nine-timers", "tag-lifecycle",
            "edit-last-week", "undo",
        ]
        #expect(
            Set(required).isSubset(of: Set(GoldenCaseTests.cases)),
            "missing: \(Set(required).subtracting(GoldenCaseTests.cases))")
    }

    @Test func everyConflictRuleOfTheSyncIssueHasASpaceCase() {
        let required = [
            "sync-1-double-stop", "sync-2-switch-keeps-unseen", "sync-3-same-field", "sync-4-different-fields",
            "sync-5-delete-wins", "sync-6-same-tag-name", "sync-7-rename-both", "sync-8-name-collision",
            "sync-9-clock-ahead", "sync-10-fork-off", "sync-11-per-device-undo",
        ]
        #expect(
            Set(required).isSubset(of: Set(GoldenCaseTests.cases)),
            "missing: \(Set(required).subtracting(GoldenCaseTests.cases))")
        #expect(
            Set(required).isDisjoint(with: GoldenCaseTests.logCases), "a sync case is a space case: no events.jsonl")
    }

    @Test(arguments: cases)
    func everyQueryPrintsItsExpectedOutput(_ name: String) {
        let report = CheckRunner().run(caseAt: GoldenCaseTests.directory.appendingPathComponent(name).path)
        for failure in report.failures {
            let name = "\(failure.caseName)/\(failure.query ?? "(case)")"
            Issue.record("\(name):\n\(failure.lines.joined(separator: "\n"))")
        }
        #expect(report.failed == 0)
        #expect(report.passed >= 8, "a golden case should ask several questions")
    }

    @Test(arguments: logCases)
    func eventsAreRebuiltByteForByteFromCommands(_ name: String) throws {
        let binary = try StintProcess.requireBinary()
        let caseDirectory = GoldenCaseTests.directory.appendingPathComponent(name)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stint-golden-\(name)-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = StintProcess.repository.appendingPathComponent("Tools/golden/build-case.sh")
        let result = try StintProcess.run(
            URL(fileURLWithPath: "/bin/bash"), [script.path, "--output", output.path, caseDirectory.path],
            environment: ["STINT": binary.path, "PATH": "/usr/bin:/bin", "TZ": "Pacific/Auckland", "LC_ALL": "C"])
        #expect(result.status == 0, "build-case.sh failed: \(result.errorText)")
        let rebuilt = try Data(contentsOf: output)
        let recorded = try Data(contentsOf: caseDirectory.appendingPathComponent("events.jsonl"))
        #expect(
            rebuilt == recorded,
            "\(name)/events.jsonl differs from what commands.txt builds; run Tools/golden/build-case.sh")
    }
}
