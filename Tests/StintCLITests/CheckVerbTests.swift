import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// `stint check`: the case layout, its parsing, and the runner's verdicts, diffs, `--update` and exit status.
@Suite struct CheckVerbTests {
    /// A case with a small log made by the CLI (UTC; writing 09:00–10:30, then email running from 11:00).
    static func makeCase(in directory: TemporaryDirectory, queries: String) throws -> String {
        let log = directory.appending("log")
        var runner = CLIRunner(log: log, now: "2026-05-04T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T11:00:00.000Z")!
        #expect(runner.run(["track", "09:00", "10:30", "writing"]).status == 0)
        #expect(runner.run(["start", "email"]).status == 0)
        let later = runner
        let caseDirectory = directory.appending("case")
        try FileManager.default.createDirectory(atPath: caseDirectory, withIntermediateDirectories: true)
        let history = later.run(["history", "--json"])
        try Data(history.stdout.utf8).write(to: URL(fileURLWithPath: caseDirectory + "/events.jsonl"))
        try Data(queries.utf8).write(to: URL(fileURLWithPath: caseDirectory + "/queries.txt"))
        try Data(#"{"now": "2026-05-04T12:00:00Z"}"#.utf8).write(to: URL(fileURLWithPath: caseDirectory + "/case.json"))
        return caseDirectory
    }

    @Test func queryWordsSplitLikeAShell() throws {
        #expect(
            try QueryWords.split(#"summary --at "2026-03-08 09:00"  --json"#) == [
                "summary", "--at", "2026-03-08 09:00", "--json",
            ])
        #expect(try QueryWords.split(#"a 'b c' "d \"e\" \\ \n" f\ g"#) == ["a", "b c", #"d "e" \ \n"#, "f g"])
        #expect(try QueryWords.split(#"x "" ''"#) == ["x", "", ""])
        #expect(try QueryWords.split("  ") == [])
        #expect(throws: QueryWords.Failure.self) { try QueryWords.split(#"a "b"#) }
        #expect(throws: QueryWords.Failure.self) { try QueryWords.split("a 'b") }
        #expect(throws: QueryWords.Failure.self) { try QueryWords.split(#"a \"#) }
    }

    @Test func queriesParseNamesStatusesAndComments() throws {
        let queries = try CheckCase.parseQueries(
            """
            # a comment

            week: summary --period week
            refused (exit 1): snapshot --at "2026-03-08 02:30"
            """, file: "queries.txt")
        #expect(queries.map(\.name) == ["week", "refused"])
        #expect(queries.map(\.status) == [0, 1])
        #expect(queries[1].arguments == ["snapshot", "--at", "2026-03-08 02:30"])
        #expect(queries.map(\.line) == [3, 4])
    }

    @Test(arguments: [
        ("no colon here", CheckCase.Problem.Code.malformedQuery),
        ("a/b: summary", .malformedQuery),
        ("empty:", .malformedQuery),
        ("open: summary --at \"x", .malformedQuery),
        ("log: summary --log other", .malformedQuery),
        ("bad (exit 300): summary", .malformedQuery),
        ("same: summary\nsame: status", .duplicateName),
        ("# only comments", .malformedQuery),
    ])
    func malformedQueriesAreRefusedWithTheirCode(_ text: String, _ code: CheckCase.Problem.Code) {
        do {
            _ = try CheckCase.parseQueries(text, file: "queries.txt")
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func aPassingCaseEndsWithTheCountsAndExitsZero() throws {
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(in: directory, queries: "status: status\nweek: summary --json\n")
        let runner = CLIRunner()
        let recorded = runner.run(["check", "--update", path])
        #expect(recorded.status == 0)
        #expect(recorded.stdout.contains("wrote \(path)/expected/status.out"))
        #expect(recorded.stdout.hasSuffix("2 passed, 0 failed\n"))
        // The recorded output is the CLI's, at the case's "now" (12:00): email has run 1h.
        let status = try String(contentsOfFile: path + "/expected/status.out", encoding: .utf8)
        #expect(status.contains("11:00–running  1:00  email"))
        let checked = runner.run(["check", path])
        #expect(checked.status == 0)
        #expect(checked.stdout == "2 passed, 0 failed\n")
        // A second --update changes nothing, and says so.
        #expect(runner.run(["check", "--update", path]).stdout.contains("No expected file changed."))
    }

    @Test func aChangedOutputFailsWithItsDifferencesAndTheRerunCommand() throws {
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(in: directory, queries: "week: summary --json\ntext: status\n")
        let runner = CLIRunner()
        #expect(runner.run(["check", "--update", path]).status == 0)
        // Pretend the expected outputs said something else.
        let json = path + "/expected/week.out"
        let expected = try String(contentsOfFile: json, encoding: .utf8).replacingOccurrences(
            of: "\"total\": 9000", with: "\"total\": 9600")
        try Data(expected.utf8).write(to: URL(fileURLWithPath: json))
        let text = path + "/expected/text.out"
        try Data("No timer is running.\nToday: 0:00 (0 records)\n".utf8).write(to: URL(fileURLWithPath: text))
        let result = runner.run(["check", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL case/week\n  stdout $.total: expected 9600, got 9000\n"))
        #expect(result.stdout.contains("FAIL case/text\n  stdout line 1: expected \"No timer is running.\", got \""))
        #expect(
            result.stdout.contains(
                "rerun: STINT_NOW=2026-05-04T12:00:00.000Z stint --log \(path)/events.jsonl summary --json"))
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"))
    }

    @Test func lineDifferencesAreQuotedSoSpacesShow() {
        let differences = OutputDiff.differences(expected: "a\n  writing  4h\n", actual: "a\n writing  4h\t\n")
        #expect(OutputDiff.render(differences) == [#"line 2: expected "  writing  4h", got " writing  4h\t""#])
    }

    @Test func everyBadLineOfQueriesIsReported() throws {
        let text = "week: summary\nno colon\nbad name!: status\nweek: status\nok: tags\n"
        do {
            _ = try CheckCase.parseQueries(text, file: "queries.txt")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .malformedQuery)
            #expect(error.lines.map { $0.prefix(14) } == ["queries.txt:2:", "queries.txt:3:", "queries.txt:4:"])
        }
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(in: directory, queries: text)
        let result = CLIRunner().run(["check", path])
        #expect(result.status == 1)
        for line in [2, 3, 4] { #expect(result.stdout.contains("queries.txt:\(line):")) }
    }

    @Test(arguments: [
        "start writing", "stop", "edit 0000 --comment x", "--json tag add x", "undo", "import timewarrior x.json",
    ])
    func aWriteVerbInQueriesIsExplained(_ arguments: String) {
        do {
            _ = try CheckCase.parseQueries("q: \(arguments)\n", file: "queries.txt")
            Issue.record("'\(arguments)' was accepted")
        } catch {
            #expect(error.code == .writeVerb)
            #expect(error.message.contains("changes a log"))
        }
    }

    @Test func expectWithATextFileSaysItComparesJSON() throws {
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(in: directory, queries: "s: status\n")
        let text = directory.appending("snapshot.txt")
        let cli = CLIRunner()
        try Data(cli.run(["--log", path + "/events.jsonl", "status"]).stdout.utf8).write(to: URL(fileURLWithPath: text))
        let result = cli.run(["--log", path + "/events.jsonl", "snapshot", "--expect", text])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not JSON: --expect compares the JSON output"))
    }

    @Test func exitStatusesMissingAndOrphanedExpectedFilesFail() throws {
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(
            in: directory, queries: "refused (exit 1): snapshot --seq 99\nwrong: snapshot --seq 99\nfine: tags\n")
        let runner = CLIRunner()
        let first = runner.run(["check", path])
        #expect(first.status == 1)
        #expect(first.stdout.contains("no expected stdout file"))
        #expect(first.stdout.contains("FAIL case/wrong\n  exit status: expected 0, got 1\n  stderr: error: "))
        // --update records stdout and stderr but cannot fix a wrong status.
        let updated = runner.run(["check", "--update", path])
        #expect(updated.status == 1)
        #expect(FileManager.default.fileExists(atPath: path + "/expected/refused.err"))
        #expect(updated.stdout.hasSuffix("2 passed, 1 failed\n"))
        // An expected file that no query names fails the check, and --update removes it.
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path + "/expected/gone.out"))
        try Data("refused (exit 1): snapshot --seq 99\nfine: tags\n".utf8).write(
            to: URL(fileURLWithPath: path + "/queries.txt"))
        let orphaned = runner.run(["check", path])
        #expect(orphaned.stdout.contains("FAIL case/gone"))
        #expect(orphaned.stdout.contains("FAIL case/wrong"))
        let cleaned = runner.run(["check", "--update", path])
        #expect(cleaned.status == 0)
        #expect(cleaned.stdout.contains("removed \(path)/expected/gone.out"))
        #expect(runner.run(["check", path]).stdout == "2 passed, 0 failed\n")
    }

    @Test func aDirectoryOfCasesRunsEachCaseAndBrokenCasesCountAsFailures() throws {
        let directory = TemporaryDirectory()
        let path = try CheckVerbTests.makeCase(in: directory, queries: "tags: tags\n")
        let runner = CLIRunner()
        #expect(runner.run(["check", "--update", path]).status == 0)
        try FileManager.default.createDirectory(
            atPath: directory.appending("broken"), withIntermediateDirectories: true)
        try Data("tags: tags\n".utf8).write(to: URL(fileURLWithPath: directory.appending("broken/queries.txt")))
        let result = runner.run(["check", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL broken\n  \(directory.appending("broken")) has no events.jsonl"))
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
        let json = runner.run(["check", directory.path, "--json"])
        let report = try JSON.parse(json.stdout)
        #expect(report["passed"]?.intValue == 1)
        #expect(report["failures"]?.arrayValue?.first?["case"]?.stringValue == "broken")
    }

    @Test func usageAndMissingDirectories() {
        let runner = CLIRunner()
        #expect(runner.run(["check"]).status == 64)
        #expect(runner.run(["check", "/nonexistent/stint-cases"]).status == 1)
        let empty = TemporaryDirectory()
        let result = runner.run(["check", empty.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no cases in"))
    }
}
