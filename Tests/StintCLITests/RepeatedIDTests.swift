import Foundation
import StintCore
import StintEngine
import StintLog
import TestSupport
import Testing

/// Regression: a new id that was already in use (two `stint` processes with the same `STINT_ID_SEED`, or a
/// broken generator) made the engine append events that contradict the log — it folded them only after
/// writing them — so that every later read and write of the log failed as damaged (exit 65). Now the
/// command is refused (exit 1) and nothing is written.
@Suite struct RepeatedIDTests {
    @Test func twoProcessesWithTheSameIDSeedDoNotDamageTheLog() throws {
        let scratch = MemoryBackedDirectory()
        let log = scratch.path + "/log"
        let runner = CLIRunner(log: log)
        let seeded = ["STINT_ID_SEED": "42"]
        #expect(runner.run(["init", "--tz", "UTC"], environment: seeded).status == 0)
        #expect(runner.run(["start", "writing"], environment: seeded).status == 0)
        let before = MalformedInputTests.files(under: log)
        let repeated = runner.run(["start", "reading"], environment: seeded)
        #expect(repeated.status == 1, "\(repeated.stderr)")
        #expect(repeated.stderr.hasPrefix("error: "))
        #expect(MalformedInputTests.files(under: log) == before)
        #expect(runner.run(["verify"]).status == 0)
        #expect(runner.run(["start", "reading"]).status == 0)
    }

    @Test func anEngineWhoseIDsRepeatRefusesWithoutWriting() throws {
        let scratch = MemoryBackedDirectory()
        let log = scratch.path + "/log"
        let options = EngineOptions(
            clock: { Instant(canonical: "2026-11-29T13:00:00.000Z")! },
            newID: { EntityID("00000000-0000-4000-8000-000000000001")! })
        let timeLog = try TimeLog.create(at: log, timeZone: "UTC", firstWeekday: 2, options: options)
        defer { timeLog.close() }
        _ = try timeLog.execute(.start(tag: .name("a")))
        let head = timeLog.head
        let error = #expect(throws: StintError.self) { try timeLog.execute(.start(tag: .name("b"))) }
        #expect(error?.category == .refused)
        #expect(error?.domain != nil)
        #expect(timeLog.head == head)
        #expect(try LogReader(path: log).verify().isIntact)
    }
}
