import Foundation
import StintCore
import TestSupport
import Testing

/// A bare HH:MM in `edit` and `split` names a time on the record's own day, not today.
@Suite struct EditTimeDayTests {
    @Test func editMovesTheEndOfLastWeeksRecordOnItsOwnDay() throws {
        let directory = TemporaryDirectory()
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-11-23T08:00:00.000Z")
        #expect(cli.run(["init", "--tz", "Europe/Berlin"]).status == 0)
        cli.now = Instant(canonical: "2026-11-29T12:00:00.000Z")!
        let id = cli.run(["track", "2026-11-23T09:00", "2026-11-23T10:00", "review"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
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
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-11-20T08:00:00.000Z")
        #expect(cli.run(["init", "--tz", "UTC"]).status == 0)
        cli.now = Instant(canonical: "2026-11-29T12:00:00.000Z")!
        let id = cli.run(["track", "2026-11-21T22:00", "2026-11-22T02:00", "night"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cli.run(["split", id, "--at", "01:00"]).status == 0)
        let records = try JSON.parse(cli.run(["log", "--all", "--json"]).stdout).arrayValue ?? []
        #expect(
            records.map { $0["end"] } == [.string("2026-11-22T01:00:00.000Z"), .string("2026-11-22T02:00:00.000Z")])
    }
}
