import StintCore
import Testing

@testable import StintCLI

/// CSV quoting, shell word splitting, ANSI styling and the chart's fills.
@Suite struct RenderingHelpersTests {
    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("cr\r", "\"cr\r\""), ("", ""),
    ])
    func csvQuotesOnlyWhatRFC4180Requires(value: String, field: String) {
        #expect(CSV.field(value) == field)
    }

    @Test func csvRowsEndInCRLF() {
        var table = CSV(header: ["a", "b"])
        table.append(["1", "x,y"])
        #expect(table.text == "a,b\r\n1,\"x,y\"\r\n")
    }

    @Test(arguments: [
        ("stint report --by ", ["stint", "report", "--by", ""]),
        ("stint start \"deep wo", ["stint", "start", "deep wo"]),
        ("stint start 'a b' c\\ d", ["stint", "start", "a b", "c d"]),
        ("stint track \"yesterday 14:00\" x", ["stint", "track", "yesterday 14:00", "x"]),
        ("", [""]),
    ])
    func shellWordsSplitLikeAShell(line: String, words: [String]) {
        #expect(ShellWords.split(line) == words)
    }

    @Test func aRunningTimerFromAnEarlierDayShowsItsStartDate() {
        // New York: 2026-11-20 09:00 EST is 14:00Z; "now" is nine days later, and then the same day.
        let format = TextFormat(calendar: LogCalendar(timeZone: "America/New_York", firstWeekday: 1)!)
        let record = Record(
            id: EntityID(high: 0x1234_5678_0000_4000, low: 0x8000_0000_0000_0001),
            start: Instant(canonical: "2026-11-20T14:00:00.000Z")!)
        let later = Instant(canonical: "2026-11-29T14:30:00.000Z")!
        #expect(
            format.recordLine(record, tags: [:], now: later) == "12345678  2026-11-20 09:00–running  216:30  (untagged)"
        )
        let styled = format.recordLine(record, tags: [:], now: later, style: TerminalStyle(isEnabled: true))
        #expect(TerminalStyle.stripped(styled) == "12345678  2026-11-20 09:00–running  216:30  (untagged)")
        // 23:59 EST the same day is 04:59Z the next UTC day: still today in the log's zone.
        let sameDay = Instant(canonical: "2026-11-21T04:59:00.000Z")!
        #expect(format.recordLine(record, tags: [:], now: sameDay) == "12345678  09:00–running  14:59  (untagged)")
        var stopped = record
        stopped.end = Instant(canonical: "2026-11-20T15:00:00.000Z")!
        #expect(format.recordLine(stopped, tags: [:], now: later) == "12345678  09:00–10:00  1:00  (untagged)")
        #expect(format.moment(record.start, onDayOf: later) == "2026-11-20 09:00")
    }

    @Test func styleIsPlainWhenOffAnd24BitWhenOn() {
        #expect(TerminalStyle.plain.colored("x", hex: "#3A7BD5") == "x")
        let on = TerminalStyle(isEnabled: true)
        #expect(on.colored("x", hex: "#3A7BD5") == "\u{1B}[38;2;58;123;213mx\u{1B}[39m")
        #expect(on.colored("x", hex: "not a color") == "x")
        #expect(TerminalStyle.stripped(on.bold(on.colored("writing", hex: "#ffffff"))) == "writing")
        #expect(TerminalStyle.visibleColumns(on.dim("ab")) == 2)
    }

    @Test(arguments: [
        ([], [String: String](), true, true), ([], ["NO_COLOR": "1"], true, false), (["--json"], [:], true, false),
        ([], [:], false, false), (["--color", "always"], [:], false, true), (["--color", "never"], [:], true, false),
        ([], ["TERM": "dumb"], true, false),
    ])
    func colorOnlyOnATerminalWithoutNoColorAndNeverInJSON(
        arguments: [String], environment: [String: String], terminal: Bool, colored: Bool
    ) throws {
        let host = Host(
            environment: environment, clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 1, low: 1) },
            standardOutput: CapturedOutput(), standardError: CapturedOutput(), standardOutputIsTerminal: terminal)
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        let parsed = try ArgumentParser(registry: registry).parse(["status"] + arguments)
        let context = try CommandContext(host: host, globals: parsed.globals, registry: registry)
        #expect(context.style.isEnabled == colored)
    }

    @Test func theChartsFillsAreDistinct() {
        #expect(Set(TerminalChart.fills).count == TerminalChart.fills.count)
    }
}
