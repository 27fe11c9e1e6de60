import Foundation
import Testing

/// The built `stint` prints the same bytes whatever the machine's time zone and locale: days come from the
/// log's calendar and text from Stint's own formatting, never from the process environment.
@Suite struct CrossMachineOutputTests {
    /// The machine settings the outputs are compared across. A locale that is not installed still sets
    /// the variables (the C library then falls back to C), so every row runs everywhere; the test prints
    /// which locales the machine has.
    static let environments: [[String: String]] = [
        ["TZ": "UTC", "LC_ALL": "C"],
        ["TZ": "Asia/Kolkata", "LC_ALL": "C"],
        ["TZ": "America/Los_Angeles", "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"],
        ["TZ": "Australia/Lord_Howe", "LC_ALL": "C.UTF-8", "LANG": "tr_TR.UTF-8"],
    ]

    static let queries: [[String]] = [
        ["snapshot", "--at", "2026-03-08 18:00"],
        ["summary", "--period", "today", "--at", "2026-03-08 18:00"],
        ["summary", "--period", "week", "--at", "2026-03-08 18:00", "--json"],
        ["summary", "--period", "month", "--limit", "2"],
        ["timeline", "--at", "2026-03-07 23:45"],
        ["timeline", "--json", "--seq", "11"],
        ["live-activity", "--at", "2026-03-08 01:59"],
        ["live-activity", "--json"],
        ["status", "--at", "2026-03-08 03:45"],
        ["status", "--json"],
        ["log", "--since", "2026-03-07", "--until", "2026-03-09"],
        ["log", "--all", "--json"],
        ["history"],
        ["history", "--json"],
        ["replay"],
        ["replay", "--json", "--since", "2026-03-08"],
        ["widget", "--family", "systemLarge", "--at", "2026-03-08 18:00"],
        ["widget", "--family", "summaryMedium", "--period", "month", "--format", "svg"],
        ["widget", "--family", "liveActivity", "--format", "svg", "--at", "2026-03-08 01:00"],
        ["diff", "--from", "seq:4", "--to", "2026-03-08 18:00"],
        ["tags", "--json"],
        ["verify"],
    ]

    @Test func everyReadVerbPrintsTheSameBytesUnderEveryTimeZoneAndLocale() throws {
        let binary = try StintProcess.requireBinary()
        print("installed locales: \(StintProcess.installedLocales.joined(separator: ", "))")
        let log = StintProcess.repository.appendingPathComponent("Events/golden/dst-new-york-spring/events.jsonl").path
        var compared = 0
        for query in CrossMachineOutputTests.queries {
            var first: StintProcess.Output?
            for environment in CrossMachineOutputTests.environments {
                var variables = environment
                variables["STINT_NOW"] = "2026-03-08T22:00:00Z"
                let output = try StintProcess.run(binary, ["--log", log] + query, environment: variables)
                #expect(output.status == 0, "\(query) under \(environment): \(output.errorText)")
                #expect(!output.stdout.isEmpty, "\(query) printed nothing")
                guard let reference = first else {
                    first = output
                    continue
                }
                #expect(
                    output.stdout == reference.stdout && output.stderr == reference.stderr,
                    "\(query) differs under \(environment)")
                compared += 1
            }
        }
        #expect(compared == CrossMachineOutputTests.queries.count * (CrossMachineOutputTests.environments.count - 1))
    }

    @Test func theInProcessRunnerAgreesWithTheBinary() throws {
        // `stint check` runs queries in process; the binary, under a foreign zone, prints the same.
        let binary = try StintProcess.requireBinary()
        let caseDirectory = StintProcess.repository.appendingPathComponent("Events/golden/nine-timers")
        let expected = try Data(contentsOf: caseDirectory.appendingPathComponent("expected/live-activity-nine.out"))
        let output = try StintProcess.run(
            binary,
            ["--log", caseDirectory.appendingPathComponent("events.jsonl").path, "live-activity", "--seq", "19"],
            environment: ["TZ": "Pacific/Chatham", "LC_ALL": "C", "STINT_NOW": "2026-05-04T15:00:00Z"])
        #expect(output.stdout == expected)
    }
}
