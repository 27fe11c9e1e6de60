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
