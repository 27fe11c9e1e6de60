import Foundation
import TestSupport
import Testing

@testable import StintCLI

/// `stint --version` names the commit a build was made from, when the build recorded it.
@Suite struct VersionTests {
    @Test func theLineNamesTheCommitWhenThereIsOne() {
        #expect(StintVersion.line(commit: "1a2b3c4d5e6f") == "stint \(StintVersion.version) (commit 1a2b3c4d5e6f)\n")
        #expect(StintVersion.line(commit: nil) == "stint \(StintVersion.version)\n")
        #expect(StintVersion.line(commit: "") == "stint \(StintVersion.version)\n")
    }

    @Test func versionPrintsTheBuildsCommit() {
        let result = CLIRunner().run(["--version"])
        #expect(result.stdout == StintVersion.line(commit: StintVersion.buildCommit))
    }

    /// The make step writes the checkout's HEAD into a Swift file that declares the commit.
    @Test func theMakeStepWritesTheCheckoutsCommit() throws {
        let repository = StintProcess.repository
        let git = try StintProcess.run(
            URL(fileURLWithPath: "/usr/bin/git"), ["rev-parse", "--short=12", "HEAD"],
            environment: ["PATH": "/usr/bin:/bin"], directory: repository)
        try #require(git.status == 0, "not a git checkout: \(git.errorText)")
        let head = git.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = TemporaryDirectory()
        let output = directory.appending("StintVersion+Commit.swift")
        let script = try StintProcess.run(
            repository.appendingPathComponent("Tools/write-build-commit.sh"), [output],
            environment: ["PATH": "/usr/bin:/bin"], directory: repository)
        #expect(script.status == 0, "\(script.errorText)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("extension StintVersion {"))
        #expect(text.contains("static var buildCommit: String? { \"\(head)"))
    }
}
