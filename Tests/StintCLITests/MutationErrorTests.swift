import Foundation
import StintCore
import TestSupport
import Testing

/// Every refusal and usage error of the mutation verbs, through the CLI: its exit status, an `error:`
/// line on stderr, and a log left byte-identical.
@Suite struct MutationErrorTests {
    /// A log in Europe/Berlin with a running `writing` timer started at 09:00 local and a completed
    /// `email` record from 07:00 to 07:30 local, at 2026-11-29 10:00 local.
    static func makeLog() -> (TemporaryDirectory, CLIRunner) {
        let directory = TemporaryDirectory()
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-11-29T09:00:00.000Z")
        // This installation's device id file, for the space verbs.
        cli.environment["XDG_STATE_HOME"] = directory.appending("state")
        #expect(cli.run(["init", "--tz", "Europe/Berlin", "--first-weekday", "2"]).status == 0)
        #expect(cli.run(["track", "07:00", "07:30", "email"]).status == 0)
        cli.now = Instant(canonical: "2026-11-29T08:00:00.000Z")!
        #expect(cli.run(["start", "writing"]).status == 0)
        cli.now = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        return (directory, cli)
    }

    /// Every file of the log and its bytes.
    static func snapshot(_ path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            files[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
        return files
    }

    static let cases: [([String], Int32)] = [
        // Refusals (exit 1).
        (["stop", "--at", "07:00"], Int32(1)),  // an end before the start
        (["start", "reading", "--at", "12:00"], 1),  // in the future
        (["track", "08:00", "07:00", "x"], 1),  // end before start
        (["track", "2026-11-01T08:00", "2026-11-09T08:00", "x"], 1),  // longer than 7 days without --force
        (["track", "2026-03-29T02:30", "2026-03-29T04:00"], 1),  // a local time in Berlin's DST gap
        (["edit", "ffff", "--comment", "x"], 1),  // unknown record
        (["delete", "0000"], 1),  // ambiguous prefix (both records start with 0000 in these tests)
        (["tag", "add", "Email"], 1),  // a name taken, ignoring case
        (["tag", "rename", "nope", "x"], 1),  // unknown tag
        (["redo"], 1),  // nothing to redo
        // Two records with different tags.
        (["join", "00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000005"], 1),
        // Usage errors (exit 64).
        (["start", "--at", "tomorrow-ish"], 64),  // not a time
        (["start", String(repeating: "x", count: 65)], 64),  // a tag name over 64 characters
        (["start", "bad\u{07}name"], 64),  // a control character in a name
        (["start", "x", "--comment", String(repeating: "c", count: 501)], 64),  // a comment over 500 characters
        (["tag", "add", "blue", "--color", "blue"], 64),  // not #RRGGBB
        (["edit", "ab", "--comment", "x"], 64),  // a prefix under 4 digits
        (["edit", "0000"], 64),  // nothing to change
        (["start", "--tag-id", "nope"], 64),  // not a UUID
        (["start", "a", "--tag-id", "00000000-0000-4000-8000-000000000002"], 64),  // a name and an id
        (["stop", "0000", "--all"], 64),  // ids and --all
        (["track", "09:00"], 64),  // missing END
        (["start", "--comment"], 64),  // missing value
    ]

    @Test(arguments: cases)
    func aRefusedCommandAppendsNothing(arguments: [String], status: Int32) {
        let (directory, cli) = Self.makeLog()
        let before = Self.snapshot(directory.appending("log"))
        let result = cli.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        if ProcessInfo.processInfo.environment["STINT_SHOW_ERRORS"] != nil { print(arguments, result.stderr) }
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stdout.isEmpty)
        #expect(Self.snapshot(directory.appending("log")) == before)
    }

    @Test func severalRunningTimersAreListedAndNothingIsStopped() {
        let (directory, cli) = Self.makeLog()
        #expect(cli.run(["start", "reading"]).status == 0)
        let before = Self.snapshot(directory.appending("log"))
        let result = cli.run(["stop"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("writing") && result.stderr.contains("reading"))
        #expect(Self.snapshot(directory.appending("log")) == before)
    }

    @Test func aStaleIdIsANoOpWithANotice() {
        let (directory, cli) = Self.makeLog()
        let before = Self.snapshot(directory.appending("log"))
        // Ids: 1 the log, 2 the tag email, 3 its completed record, 4 the tag writing, 5 its timer.
        let result = cli.run(["stop", "00000000-0000-4000-8000-000000000003"])
        #expect(result.status == 0)
        #expect(!result.stderr.isEmpty)
        #expect(Self.snapshot(directory.appending("log")) == before)
    }

    @Test func aLongRecordIsAllowedWithForce() {
        let (directory, cli) = Self.makeLog()
        withExtendedLifetime(directory) {
            #expect(cli.run(["track", "2026-11-01T08:00", "2026-11-09T08:00", "x", "--force"]).status == 0)
        }
    }

    @Test func anAmbiguousLocalTimeTakesTheFirstOccurrenceAndSaysSo() {
        let (directory, cli) = Self.makeLog()
        let result = withExtendedLifetime(directory) {
            cli.run(["track", "2026-10-25T02:30", "2026-10-25T03:30", "night"])
        }
        #expect(result.status == 0)
        #expect(result.stderr.contains("2026-10-25"))
    }

    @Test func aMissingLogSaysHowToCreateOne() {
        let directory = TemporaryDirectory()
        let cli = CLIRunner(log: directory.appending("none"))
        let result = cli.run(["start"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("stint init"))
        #expect(!FileManager.default.fileExists(atPath: directory.appending("none")))
    }
}
