import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// Every verb reads its times the same way: each time option of each verb (and track's START and END)
/// understands every form of `TimeArgument`, and an unknown form lists the forms that exist.
@Suite struct TimeFormsCLITests {
    /// The forms a person types, at Sunday 2026-11-29 10:00 in Berlin.
    static let forms = [
        "now", "09:30", "yesterday 23:30", "monday 09:00", "Fri 17:30", "2026-11-27", "2026-11-27 17:30",
        "yesterday", "monday", "15m ago", "1d2h ago", "2026-11-27T17:30", "2026-11-27T16:30:00Z",
    ]

    /// Arguments that exercise one time option, by "verb --option"; `$T` is the time.
    static let options: [String: [String]] = [
        "start --at": ["start", "x", "--at", "$T"], "stop --at": ["stop", "--at", "$T"],
        "continue --at": ["continue", "--at", "$T"], "split --at": ["split", "$ID", "--at", "$T"],
        "edit --start": ["edit", "$ID", "--start", "$T"], "edit --end": ["edit", "$ID", "--end", "$T"],
        "track START": ["track", "$T", "now", "x"], "track END": ["track", "2026-11-16", "$T", "x"],
        "log --since": ["log", "--since", "$T"], "log --until": ["log", "--since", "2026-11-16", "--until", "$T"],
        "report --since": ["report", "--since", "$T"],
        "report --until": ["report", "--since", "2026-11-16", "--until", "$T"],
        "history --since": ["history", "--since", "$T"], "history --until": ["history", "--until", "$T"],
        "replay --since": ["replay", "--since", "$T"], "replay --until": ["replay", "--until", "$T"],
        "diff --from": ["diff", "--from", "$T"], "diff --to": ["diff", "--from", "1", "--to", "$T"],
        "export csv --since": ["export", "csv", "--since", "$T"],
        "export csv --until": ["export", "csv", "--until", "$T"],
        "export json --since": ["export", "json", "--since", "$T"],
        "export json --until": ["export", "json", "--until", "$T"],
        "export timewarrior --since": ["export", "timewarrior", "--since", "$T"],
        "export timewarrior --until": ["export", "timewarrior", "--until", "$T"],
        "view --since": ["view", "--out", "-", "--since", "$T"],
        "view --until": ["view", "--out", "-", "--until", "$T"],
        "view --at": ["view", "--out", "-", "--at", "$T"],
    ]

    /// "verb --at" for every verb that reads at a point.
    static var pointOptions: [String: [String]] {
        var result: [String: [String]] = [:]
        for (verb, arguments) in FuturePointTests.invocations { result["\(verb) --at"] = arguments + ["--at", "$T"] }
        return result
    }

    @Test func everyTimeOptionOfEveryVerbIsCovered() {
        var declared: [String] = ["track START", "track END"]
        for verb in StintCLI.allVerbs {
            for option in verb.spec.options where option.value == "TIME" || option.value == "POINT" {
                declared.append("\(verb.spec.name) --\(option.name)")
            }
        }
        let covered = Array(Self.options.keys) + Array(Self.pointOptions.keys)
        #expect(declared.sorted() == covered.sorted())
    }

    /// A log begun on Monday 2026-11-16 with a record on Friday 2026-11-27 (…04), read on Sunday the 29th.
    static func makeLog() -> (TemporaryDirectory, CLIRunner) {
        let directory = TemporaryDirectory()
        var cli = CLIRunner(log: directory.appending("log"), now: "2026-11-16T07:00:00.000Z")
        #expect(cli.run(["init", "--tz", "Europe/Berlin", "--first-weekday", "2"]).status == 0)
        cli.now = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        #expect(cli.run(["track", "2026-11-27 09:00", "2026-11-27 18:00", "writing"]).status == 0)
        return (directory, cli)
    }

    @Test(arguments: forms)
    func everyTimeOptionUnderstandsTheForm(_ form: String) throws {
        let (directory, cli) = Self.makeLog()
        _ = directory
        let record = "00000000-0000-4000-8000-000000000003"
        for (name, arguments) in Self.options.merging(Self.pointOptions, uniquingKeysWith: { $1 }).sorted(by: {
            $0.key < $1.key
        }) {
            let resolved = arguments.map { $0 == "$T" ? form : $0 == "$ID" ? record : $0 }
            let result = cli.run(resolved)
            #expect(result.status != 64, "\(name) \(form): \(result.stderr)")
            #expect(!result.stderr.contains("is not a time"), "\(name) \(form): \(result.stderr)")
        }
    }

    @Test func aReadAtAWeekdayOrADateAloneShowsThatMoment() {
        let (directory, cli) = Self.makeLog()
        _ = directory
        let friday = cli.run(["status", "--at", "fri 12:00", "--json"])
        #expect(friday.status == 0, "\(friday.stderr)")
        #expect(friday.stdout.contains("\"now\": \"2026-11-27T11:00:00.000Z\""))
        let midnight = cli.run(["log", "--since", "2026-11-27", "--until", "saturday"])
        #expect(midnight.status == 0, "\(midnight.stderr)")
        #expect(midnight.stdout.contains("writing"))
    }

    @Test func anUnknownFormListsTheFormsThatExist() {
        let (directory, cli) = Self.makeLog()
        _ = directory
        let result = cli.run(["status", "--at", "next tuesday"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(TimeArgument.acceptedForms))
        for form in ["yesterday 23:30", "monday 09:00", "YYYY-MM-DD", "15m ago", "with Z or an offset"] {
            #expect(result.stderr.contains(form), "\(form)")
        }
    }
}
