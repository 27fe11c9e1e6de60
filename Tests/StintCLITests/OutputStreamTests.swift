import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// One rule for every verb: standard output carries what a script reads (a write verb's new record or tag
/// ids, one a line, a read verb's output, import's report, publish's result); a write verb's confirmation
/// goes to standard error, and `--quiet` silences it without changing standard output.
@Suite struct OutputStreamTests {
    /// A write verb's case: commands run first (`$1` in the arguments is the last line the previous one
    /// printed on standard output), the verb's arguments, and how many ids it prints on standard output.
    struct WriteCase: CustomTestStringConvertible, Sendable {
        var verb: String
        var before: [[String]] = []
        var arguments: [String]
        var ids: Int
        var testDescription: String { verb }
    }

    /// In the log of ``MutationErrorTests/makeLog()``: `email` 07:00–07:30 (record …03), `writing` running
    /// since 09:00 (…05), at 10:00 Berlin.
    static let email = "00000000-0000-4000-8000-000000000003"

    static let writeCases: [WriteCase] = [
        WriteCase(verb: "init", arguments: ["--log", "$DIR/other", "init", "--tz", "UTC"], ids: 0),
        WriteCase(verb: "start", arguments: ["start", "reading"], ids: 1),
        WriteCase(verb: "stop", arguments: ["stop"], ids: 0),
        WriteCase(verb: "continue", before: [["stop"]], arguments: ["continue", email], ids: 1),
        WriteCase(verb: "cancel", arguments: ["cancel"], ids: 0),
        WriteCase(verb: "track", arguments: ["track", "08:00", "08:30", "call"], ids: 1),
        WriteCase(verb: "edit", arguments: ["edit", email, "--comment", "inbox"], ids: 0),
        WriteCase(verb: "split", arguments: ["split", email, "--at", "07:15"], ids: 1),
        WriteCase(
            verb: "join", before: [["track", "07:30", "08:00", "email"]], arguments: ["join", email, "$1"], ids: 0),
        WriteCase(verb: "delete", arguments: ["delete", email], ids: 0),
        WriteCase(verb: "undo", before: [["edit", email, "--comment", "x"]], arguments: ["undo"], ids: 0),
        WriteCase(verb: "redo", before: [["edit", email, "--comment", "x"], ["undo"]], arguments: ["redo"], ids: 0),
        WriteCase(verb: "tag add", arguments: ["tag", "add", "blue"], ids: 1),
        WriteCase(verb: "tag rename", arguments: ["tag", "rename", "email", "mail"], ids: 0),
        WriteCase(verb: "tag archive", arguments: ["tag", "archive", "email"], ids: 0),
        WriteCase(
            verb: "tag unarchive", before: [["tag", "archive", "email"]], arguments: ["tag", "unarchive", "email"],
            ids: 0),
        WriteCase(verb: "tag delete", arguments: ["tag", "delete", "email"], ids: 0),
        WriteCase(verb: "sync init", arguments: ["sync", "init", "$DIR/space"], ids: 0),
        WriteCase(verb: "sync", before: [["sync", "init", "$DIR/space"]], arguments: ["sync"], ids: 0),
    ]

    /// What a product verb needs run first: the space verbs read a log that is part of a space.
    static let productSetup: [String: [[String]]] = [
        "sync status": [["sync", "init", "$DIR/space"]], "devices": [["sync", "init", "$DIR/space"]],
        "conflicts": [["sync", "init", "$DIR/space"]],
    ]

    /// Verbs whose standard output is their product (a read, a report, a result), with arguments that run
    /// them; `--quiet` leaves it as is and standard error stays empty.
    static let productCases: [(verb: String, arguments: [String])] = [
        ("tags", ["tags"]), ("status", ["status"]), ("log", ["log"]), ("snapshot", ["snapshot"]),
        ("summary", ["summary"]), ("report", ["report"]), ("chart", ["chart"]), ("timeline", ["timeline"]),
        ("live-activity", ["live-activity"]), ("widget", ["widget", "--family", "systemSmall"]),
        ("publish", ["publish", "--to", "$DIR/widget-data.json"]), ("history", ["history"]), ("replay", ["replay"]),
        ("view", ["view", "--out", "$DIR/page.html"]),
        ("diff", ["diff", "--from", "1"]), ("verify", ["verify"]), ("repair", ["repair"]),
        ("check", ["check", GoldenCaseTests.directory.appendingPathComponent("undo").path]),
        ("import timewarrior", ["import", "timewarrior", ImportHarness.fixture("timewarrior/export.json")]),
        ("import watson", ["import", "watson", ImportHarness.fixture("watson/frames")]),
        ("export csv", ["export", "csv"]), ("export json", ["export", "json"]),
        ("export timewarrior", ["export", "timewarrior"]), ("help", ["help", "stop"]),
        ("completions", ["completions", "bash"]), ("__complete", ["__complete", "--", "st"]),
        ("sync status", ["sync", "status"]), ("devices", ["devices"]), ("conflicts", ["conflicts"]),
    ]

    /// Verbs that need two devices, whose stream rule ``SpaceCLITests`` checks.
    static let coveredBySpaceTests = ["sync join", "device fork-off"]

    @Test func everyVerbFollowsTheRule() {
        var names: [String] = []
        for verb in StintCLI.allVerbs { names.append(verb.spec.name) }
        let covered = Self.writeCases.map(\.verb) + Self.productCases.map(\.verb) + Self.coveredBySpaceTests
        #expect(names.sorted() == covered.sorted())
    }

    /// Runs `testCase` on a fresh log, with or without `--quiet`.
    static func run(_ testCase: WriteCase, quiet: Bool) throws -> (CLIResult, TemporaryDirectory) {
        let (directory, cli) = MutationErrorTests.makeLog()
        var last = ""
        for command in testCase.before {
            let result = cli.run(command.map { $0.replacingOccurrences(of: "$DIR", with: directory.path) })
            try #require(result.status == 0, "\(command): \(result.stderr)")
            last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        }
        let arguments = testCase.arguments.map {
            $0 == "$1" ? last : $0.replacingOccurrences(of: "$DIR", with: directory.path)
        }
        return (cli.run((quiet ? ["-q"] : []) + arguments), directory)
    }

    @Test(arguments: writeCases)
    func aWriteVerbPrintsIdsOnStandardOutputAndConfirmsOnStandardError(_ testCase: WriteCase) throws {
        let (loud, first) = try Self.run(testCase, quiet: false)
        let (quiet, second) = try Self.run(testCase, quiet: true)
        _ = (first, second)
        #expect(loud.status == 0, "\(loud.stderr)")
        let lines = loud.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == testCase.ids, "standard output: \(loud.stdout)")
        #expect(lines.allSatisfy { EntityID(String($0)) != nil }, "standard output: \(loud.stdout)")
        #expect(!loud.stderr.isEmpty, "no confirmation on standard error")
        #expect(!loud.stderr.contains("error"), "\(loud.stderr)")
        #expect(quiet.status == 0)
        #expect(quiet.stdout == loud.stdout)
        #expect(quiet.stderr.isEmpty, "--quiet printed \(quiet.stderr)")
    }

    @Test(arguments: productCases.map(\.verb))
    func aProductVerbPrintsOnStandardOutputAndNothingElseWithQuiet(_ verb: String) throws {
        let arguments = try #require(Self.productCases.first { $0.verb == verb }).arguments
        let (directory, cli) = MutationErrorTests.makeLog()
        let resolve = { (arguments: [String]) in
            arguments.map { $0.replacingOccurrences(of: "$DIR", with: directory.path) }
        }
        for command in Self.productSetup[verb] ?? [] { #expect(cli.run(resolve(command)).status == 0) }
        let result = cli.run(["-q"] + resolve(arguments))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.isEmpty, "--quiet printed \(result.stderr)")
    }
}

/// `--json` prints JSON, or is a usage error on a verb that has none; it never silently prints text.
@Suite struct JSONOptionTests {
    /// Every verb of ``OutputStreamTests``, with `--json`.
    static var cases: [String] {
        OutputStreamTests.writeCases.map(\.verb) + OutputStreamTests.productCases.map(\.verb)
    }

    @Test(arguments: cases)
    func jsonIsJSONOrAUsageError(_ verb: String) throws {
        let (directory, cli) = MutationErrorTests.makeLog()
        var last = ""
        var arguments: [String]
        if let write = OutputStreamTests.writeCases.first(where: { $0.verb == verb }) {
            for command in write.before {
                last =
                    cli.run(command.map { $0.replacingOccurrences(of: "$DIR", with: directory.path) }).stdout.split(
                        separator: "\n"
                    ).last.map(String.init) ?? ""
            }
            arguments = write.arguments
        } else {
            arguments = try #require(OutputStreamTests.productCases.first { $0.verb == verb }).arguments
            for command in OutputStreamTests.productSetup[verb] ?? [] {
                _ = cli.run(command.map { $0.replacingOccurrences(of: "$DIR", with: directory.path) })
            }
        }
        arguments = arguments.map { $0 == "$1" ? last : $0.replacingOccurrences(of: "$DIR", with: directory.path) }
        let result = cli.run(["--json"] + arguments)
        if result.status == 64 {
            #expect(result.stderr.hasPrefix("error: 'stint \(verb)' has no JSON form: "), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            // One JSON document, or JSON Lines (history's events.jsonl form).
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let isJSON = (try? JSON.parse(result.stdout)) != nil || lines.allSatisfy { (try? JSON.parse($0)) != nil }
            #expect(isJSON && !lines.isEmpty, "--json printed: \(result.stdout.prefix(200))")
        }
    }
}
