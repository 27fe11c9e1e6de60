import Foundation
import StintCore
import TestSupport
import Testing

/// A bare HH:MM in `edit` and `split` names a time on the record's own day, not today.
@Suite struct EditTimeDayTests {
    /// A runner of a new log in `zone`, made at `made`.
    private static func newLog(in directory: TemporaryDirectory, zone: String, made: String) -> CLIRunner {
        let cli = CLIRunner(log: directory.appending("log"), now: made)
        #expect(cli.run(["init", "--tz", zone]).status == 0)
        return cli
    }

    /// `stint track` with `arguments`: the new record's id.
    private static func track(_ cli: CLIRunner, _ arguments: String...) -> String {
        cli.run(["track"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func editMovesTheEndOfLastWeeksRecordOnItsOwnDay() throws {
        let directory = TemporaryDirectory()
        var cli = Self.newLog(in: directory, zone: "Europe/Berlin", made: "2026-11-23T08:00:00.000Z")
        cli.now = Instant(canonical: "2026-11-29T12:00:00.000Z")!
        let id = Self.track(cli, "2026-11-23T09:00", "2026-11-23T10:00", "review")
        #expect(cli.run(["edit", id, "--end", "10:30", "--start", "8:45"]).status == 0)
        let records = try JSON.parse(cli.run(["log", "--all", "--json"]).stdout).arrayValue ?? []
        #expect(records.first?["start"] == .string("2026-11-23T07:45:00.000Z"))
        #expect(records.first?["end"] == .string("2026-11-23T09:30:00.000Z"))
        // A date still moves it to another day.
        #expect(cli.run(["edit", id, "--end", "2026-11-24T08:00"]).status == 0)
        let moved = try JSON.parse(cli.run(["log", "--all", "--json"]).stdout).arrayValue ?? []
        #expect(moved.first?["end"] == .string("2026-11-24T07:00:00.000Z"))
    }

    @Test func splitCutsARecordAcrossMidnightOnTheDayTheTimeIsInside() throws {
        let directory = TemporaryDirectory()
        var cli = Self.newLog(in: directory, zone: "UTC", made: "2026-11-20T08:00:00.000Z")
        cli.now = Instant(canonical: "2026-11-29T12:00:00.000Z")!
        let id = Self.track(cli, "2026-11-21T22:00", "2026-11-22T02:00", "night")
        #expect(cli.run(["split", id, "--at", "01:00"]).status == 0)
        let records = try JSON.parse(cli.run(["log", "--all", "--json"]).stdout).arrayValue ?? []
        #expect(
            records.map { $0["end"] } == [.string("2026-11-22T01:00:00.000Z"), .string("2026-11-22T02:00:00.000Z")])
    }

    /// The same for a record that is neither running nor the last to end, which the read models' slice does
    /// not hold until the command names it: its bare times were read as today's (a one-hour record of
    /// 16 November edited with `--end 11:00` on the 20th lasted 98 hours).
    @Test func editAndSplitAnOlderRecordOnItsOwnDay() throws {
        let directory = TemporaryDirectory()
        var cli = Self.newLog(in: directory, zone: "UTC", made: "2026-11-15T08:00:00.000Z")
        cli.now = Instant(canonical: "2026-11-20T12:00:00.000Z")!
        let older = Self.track(cli, "2026-11-16T09:00", "2026-11-16T10:00", "review")
        let other = Self.track(cli, "2026-11-17T22:00", "2026-11-18T02:00", "night")
        #expect(cli.run(["track", "2026-11-19T09:00", "2026-11-19T10:00", "review"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appending("log/read-models.sqlite")))
        #expect(cli.run(["edit", older, "--end", "11:00", "--start", "8:30"]).status == 0)
        #expect(cli.run(["split", other, "--at", "01:00"]).status == 0)
        let records = try JSON.parse(cli.run(["log", "--all", "--json"]).stdout).arrayValue ?? []
        let edited = records.first { $0["id"] == .string(older) }
        #expect(edited?["start"] == .string("2026-11-16T08:30:00.000Z"))
        #expect(edited?["end"] == .string("2026-11-16T11:00:00.000Z"))
        let cut = records.filter { $0["tagName"] == .string("night") }.map { $0["end"] }
        #expect(cut == [.string("2026-11-18T01:00:00.000Z"), .string("2026-11-18T02:00:00.000Z")])
    }
}
