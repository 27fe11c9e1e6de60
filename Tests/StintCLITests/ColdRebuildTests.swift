import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The first command on a log without read models rebuilds them with the compact fold; the same command on
/// a copy of the log rebuilds them from the whole `LogState` (the path of the compact fold's failures). Both
/// print the same, write the same rows, and the read verbs print the same afterwards.
@Suite struct ColdRebuildTests {
    @Test(arguments: [3, 17] as [UInt64])
    func aRebuildByTheCompactFoldWritesWhatTheWholeFoldWrites(seed: UInt64) throws {
        print("ColdRebuildTests seed \(seed)")
        var log = SyntheticLog(
            seed: seed, timeZone: "Europe/Berlin", firstWeekday: 2, start: "2026-02-02T08:00:00.000Z")
        log.grow(toEvents: 2_500)
        let directory = TemporaryDirectory()
        let compact = directory.appending("compact")
        let whole = directory.appending("whole")
        try ProjectionViewTests.writeDirectory(log, to: compact)
        try FileManager.default.copyItem(atPath: compact, toPath: whole)
        let now = log.now.adding(milliseconds: 600_000).iso8601
        let compactCLI = CLIRunner(log: compact, now: now)
        var wholeCLI = CLIRunner(log: whole, now: now)
        wholeCLI.configureEngine = { $0.foldsCompactly = false }
        // New ids after the synthetic log's (which counts from 1 too).
        for _ in 0..<log.events.count { _ = (compactCLI.ids.next(), wholeCLI.ids.next()) }

        for command in [["start", "bench", "--switch"], ["stop", "--all"]] {
            let viaCompact = compactCLI.run(command)
            let viaWhole = wholeCLI.run(command)
            #expect(viaCompact.status == 0, "\(viaCompact.stderr)")
            #expect(viaCompact.stdout == viaWhole.stdout && viaCompact.stderr == viaWhole.stderr, "\(command)")
            #expect(try ReadModel.dump(inLogDirectory: compact) == ReadModel.dump(inLogDirectory: whole), "\(command)")
            ReadModel.remove(inLogDirectory: compact)
            ReadModel.remove(inLogDirectory: whole)
        }
        _ = compactCLI.run(["start", "bench"])
        _ = wholeCLI.run(["start", "bench"])
        let tables = try ReadModel.dump(inLogDirectory: compact)
        #expect(tables == (try ReadModel.dump(inLogDirectory: whole)))
        #expect(tables["records"]!.count > 500 && tables["imports"]!.count > 5 && tables["undo_entries"]!.count > 50)
        for verb in [
            ["report", "--all"], ["report", "last-month", "--by", "tag"], ["log", "--all"], ["log", "--all", "--json"],
            ["status"], ["status", "--json"], ["export", "json"], ["export", "csv"], ["tags"],
        ] {
            let fromCompact = compactCLI.run(verb)
            let fromWhole = wholeCLI.run(verb)
            #expect(fromCompact.status == 0, "\(verb): \(fromCompact.stderr)")
            #expect(fromCompact.stdout == fromWhole.stdout, "\(verb)")
            #expect(fromCompact.stderr == fromWhole.stderr, "\(verb)")
        }
    }
}
