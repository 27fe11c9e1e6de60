import Foundation
import StintCore
import TestSupport
import Testing

/// `history` says which command made each batch, so the audit of a record leads back to where it came from.
@Suite struct HistoryBatchTests {
    /// The `batch N: …` lines of `history` with `arguments`.
    static func headers(_ cli: CLIRunner, _ arguments: [String] = []) -> [String] {
        let result = cli.run(["history"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("batch ") }
    }

    @Test func everyBatchNamesItsCommand() throws {
        let directory = TemporaryDirectory()
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-11-24T17:00:00.000Z")
        func run(_ arguments: [String]) -> String {
            let result = cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = run(["init", "--tz", "Europe/Berlin", "--first-weekday", "2"])
        let original = run(["track", "09:00", "12:00", "writing", "--comment", "draft"])
        let part = run(["split", original, "--at", "10:30"])
        _ = run(["edit", part, "--start", "08:45"])
        _ = run(["undo"])
        _ = run(["join", part, original])
        _ = run(["tag", "add", "email"])
        cli.now = Instant(canonical: "2026-11-24T17:30:00.000Z")!
        let timer = run(["start", "email", "--at", "18:10"])
        _ = run(["stop"])
        _ = run(["delete", timer])
        _ = run(["tag", "rename", "email", "mail"])
        let (o, p, t) = (String(original.prefix(8)), String(part.prefix(8)), String(timer.prefix(8)))
        #expect(
            Self.headers(cli) == [
                "batch 1: init",
                "batch 2: track 09:00 12:00 writing --comment draft",
                "batch 4: split of \(o) at 10:30",
                "batch 6: edit \(p) --start 08:45",
                "batch 7: undo of \"edit \(p) --start 08:45\" (seq 6)",
                "batch 9: join \(p) \(o)",
                "batch 11: tag add email",
                "batch 12: start email --at 18:10",
                "batch 13: stop \(t)",
                "batch 14: delete \(t)",
                "batch 15: tag rename email mail",
            ])
        // The record a split made leads back to the record it was cut from.
        #expect(Self.headers(cli, ["--record", part]).first == "batch 4: split of \(o) at 10:30")
    }
}
