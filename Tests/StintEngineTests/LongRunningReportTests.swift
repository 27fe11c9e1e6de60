import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Reports from the day-and-tag totals while timers have run for months, and read again years later: the days a
/// running timer covers wholly are added as runs (`WholeDayRuns`), not day by day, and every report is still
/// the report of the records.
@Suite struct LongRunningReportTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func reportsOverTimersRunningForMonthsAreThoseOfTheRecords(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let clock = FixedClock("2026-01-05T08:00:00.000Z")
        let ids = IncrementingIDs()
        let options = EngineOptions(clock: clock.reading, newID: ids.generator)
        let path = directory.appending("log")
        try TimeLog.create(at: path, timeZone: "Europe/Berlin", firstWeekday: 2, options: options).close()
        var random = SplitMix64(seed: seed)
        func run(_ command: Command) throws {
            let log = try TimeLog.open(at: path, options: options)
            defer { log.close() }
            _ = try log.execute(command)
        }
        func ago(_ milliseconds: Int64) -> ParsedTime { ParsedTime(clock.now.adding(milliseconds: -milliseconds)) }
        // A tagged timer from a midnight, an untagged one from mid-morning and one on a tag deleted later (its
        // time and its records' are untagged, stored under several tags); more now and then.
        try run(.start(tag: .name("writing"), at: ParsedTime(Instant(canonical: "2026-01-04T23:00:00.000Z")!)))
        try run(.start(at: ago(3_600_000)))
        try run(.start(tag: .name("errands"), at: ago(1_800_000)))
        for _ in 0..<60 {
            clock.advance(milliseconds: Int64(random.next() % 5 * 86_400_000) + 3_600_000)
            let start = Int64(random.next() % 40 + 2) * 3_600_000
            let length = Int64(random.next() % 30 + 1) * 3_600_000
            let tag: TagChoice = [.untagged, .name("writing"), .name("email"), .name("errands")][Int(random.next() % 4)]
            try run(.track(start: ago(start), end: ago(max(start - length, 60_000)), tag: tag))
            if random.next() % 25 == 0 { try run(.start(tag: .name("errands"), at: ago(start))) }
        }
        try run(.deleteTag(name: "errands"))
        // The whole fold's records (a log opened on its read models holds a slice of them).
        var wholeOptions = options
        wholeOptions.usesReadModels = false
        wholeOptions.writesCheckpoints = false
        let whole = try TimeLog.open(at: path, options: wholeOptions)
        let source = whole.state.projectionSource
        whole.close()
        #expect(source.records.filter(\.isRunning).count >= 3)
        let reader = try LogReader(path: path)
        let fromModels = ReportTotalsCheck.expect(
            LogSource(reader: reader), options: options, matches: source, seed: seed, count: 30, "seed \(seed)")
        #expect(fromModels == [true])
        // Three years later, the timers still running: every day since January is covered.
        clock.advance(milliseconds: 3 * 365 * 86_400_000)
        let later = ReportTotalsCheck.expect(
            LogSource(reader: try LogReader(path: path)), options: options, matches: source, seed: seed + 100,
            count: 30, "seed \(seed), three years later")
        #expect(later == [true])
    }

    @Test func wholeDaysOfASpanAreThoseBetweenItsFirstAndLastMidnights() {
        let calendar = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!
        func day(_ text: String) -> Int64 {
            let parts = text.split(separator: "-").map { Int($0)! }
            return CivilDate(year: parts[0], month: parts[1], day: parts[2]).daysSinceEpoch
        }
        func millis(_ text: String) -> Int64 { Instant(canonical: text)!.milliseconds }
        func wholeDays(_ start: String, _ end: String) -> ClosedRange<Int64>? {
            WholeDayRuns.wholeDays(of: (millis(start), millis(end)), calendar: calendar)
        }
        // From midnight (23:00Z in winter) to the midnight three days later: three whole days.
        #expect(
            wholeDays("2026-01-04T23:00:00.000Z", "2026-01-07T23:00:00.000Z") == day("2026-01-05")...day("2026-01-07"))
        // A millisecond later at both ends: the first and last days are cut.
        #expect(
            wholeDays("2026-01-04T23:00:00.001Z", "2026-01-07T22:59:59.999Z") == day("2026-01-06")...day("2026-01-06"))
        // Across the spring change (Sun 29 March has 23 hours): the day is whole from 23:00Z to 22:00Z.
        #expect(
            wholeDays("2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z") == day("2026-03-29")...day("2026-03-29"))
        #expect(wholeDays("2026-03-28T23:00:00.000Z", "2026-03-29T21:59:59.999Z") == nil)
        // The days around them: those of the start and of the last instant.
        #expect(
            WholeDayRuns.edgeDays(
                of: (millis("2026-01-04T23:00:00.001Z"), millis("2026-01-07T22:59:59.999Z")), calendar: calendar)
                == [day("2026-01-05"), day("2026-01-07")])
        // Runs merge when they overlap or touch, and are cut to the days asked about.
        let runs = WholeDayRuns(
            [
                (millis("2026-01-04T23:00:00.000Z"), millis("2026-01-06T23:00:00.000Z")),
                (millis("2026-01-06T23:00:00.000Z"), millis("2026-01-08T23:00:00.000Z")),
                (millis("2026-01-20T10:00:00.000Z"), millis("2026-03-01T10:00:00.000Z")),
            ], within: day("2026-01-01")...day("2026-02-10"), calendar: calendar)
        #expect(runs.runs == [day("2026-01-05")...day("2026-01-08"), day("2026-01-21")...day("2026-02-10")])
        #expect(runs.contains(day("2026-01-08")) && !runs.contains(day("2026-01-09")))
        #expect(!runs.contains(day("2026-01-20")) && runs.contains(day("2026-02-10")))
        #expect(runs.milliseconds(calendar: calendar) == (4 + 21) * 86_400_000)
    }
}
