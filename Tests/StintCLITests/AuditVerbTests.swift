import Foundation
import StintCore
import TestSupport
import Testing

/// `stint replay`, `stint diff` and `stint widget`: their arguments, exit statuses and the rules the golden
/// cases do not reach (the reload budget warning, the JSON shapes).
@Suite struct AuditVerbTests {
    /// A UTC log where `pairs` timers start and stop on Monday 2026-05-04, one minute each, from 08:00.
    static func busyDay(in directory: TemporaryDirectory, pairs: Int) -> CLIRunner {
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-03T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        var minute = Instant(canonical: "2026-05-04T08:00:00.000Z")!
        for index in 0..<pairs {
            runner.now = minute
            #expect(runner.run(["start", index.isMultiple(of: 2) ? "writing" : "email"]).status == 0)
            minute = minute.adding(milliseconds: 60_000)
            runner.now = minute
            #expect(runner.run(["stop"]).status == 0)
            minute = minute.adding(milliseconds: 60_000)
        }
        runner.now = Instant(canonical: "2026-05-05T08:00:00.000Z")!
        #expect(runner.run(["track", "2026-05-05T07:00", "2026-05-05T07:30", "writing"]).status == 0)
        return runner
    }

    @Test func replayWarnsAboutDaysAboveTheReloadBudget() throws {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.busyDay(in: directory, pairs: 21)
        let text = runner.run(["replay"])
        #expect(text.status == 0)
        // Monday: the idle timeline's midnight reload (the log was created on Sunday) and 42 writes.
        #expect(text.stdout.contains("  Mon 2026-05-04  42 batches  43 reloads  (42 writes, 1 midnight)\n"))
        // Tuesday: the idle timeline's midnight reload and the track's write.
        #expect(text.stdout.contains("  Tue 2026-05-05   1 batch     2 reloads  (1 write, 1 midnight)\n"))
        #expect(text.stdout.contains("warning: Mon 2026-05-04: 43 widget reloads, above 40"))
        #expect(!text.stdout.contains("warning: Tue"))
        let json = try JSON.parse(runner.run(["replay", "--json"]).stdout)
        #expect(json["reloadBudget"]?.intValue == 40)
        #expect(json["batches"]?.arrayValue?.count == 1 + 42 + 1)
        #expect(json["days"]?.arrayValue?.map { $0["reloads"]?.intValue } == [1, 43, 2])
        #expect(json["days"]?.arrayValue?.map { $0["midnightReloads"]?.intValue } == [0, 1, 1])
        #expect(json["warnings"]?.arrayValue?.map { $0["date"]?.stringValue } == ["2026-05-04"])
        // Counts are per shown day: from 08:24 on, Monday has 18 batches left, under the budget.
        let later = try JSON.parse(runner.run(["replay", "--json", "--since", "2026-05-04T08:24"]).stdout)
        #expect(later["days"]?.arrayValue?.first?["batches"]?.intValue == 18)
        #expect(later["warnings"]?.arrayValue?.isEmpty == true)
        let none = runner.run(["replay", "--since", "2026-06-01"])
        #expect(none.stdout == "No batches were recorded in that range.\n")
    }

    @Test func replayCountsTheTimelinesOwnReloadsByKind() throws {
        // A timer runs all Monday; 30 records tracked between 22:05 and 22:34 write 30 more snapshots.
        let directory = TemporaryDirectory()
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-03T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T00:00:00.000Z")!
        #expect(runner.run(["start", "writing"]).status == 0)
        for minute in 0..<30 {
            runner.now = Instant(canonical: "2026-05-04T22:05:00.000Z")!.adding(milliseconds: Int64(minute) * 60_000)
            let start = "2026-05-04T20:\(minute < 10 ? "0" : "")\(minute)"
            let end = "2026-05-04T20:\(minute < 9 ? "0" : "")\(minute + 1)"
            #expect(runner.run(["track", start, end, "email"]).status == 0)
        }
        runner.now = Instant(canonical: "2026-05-05T02:30:00.000Z")!
        let text = runner.run(["replay", "--since", "2026-05-04"])
        // 31 writes; hourly reloads at 01:00 … 22:00 (22) and 23:34 after the last write; Tuesday's at
        // 00:34, 01:34 and 02:34 is after now.
        #expect(text.stdout.contains("  Mon 2026-05-04  31 batches  54 reloads  (31 writes, 23 hourly)\n"))
        #expect(text.stdout.contains("  Tue 2026-05-05   0 batches   2 reloads  (2 hourly)\n"))
        #expect(text.stdout.contains("warning: Mon 2026-05-04: 54 widget reloads, above 40"))
        let json = try JSON.parse(runner.run(["replay", "--json", "--until", "2026-05-04T03:00"]).stdout)
        #expect(
            json["reloads"]?.arrayValue?.map { "\($0["at"]?.stringValue ?? "") \($0["kind"]?.stringValue ?? "")" }
                == [
                    "2026-05-03T08:00:00.000Z write", "2026-05-04T00:00:00.000Z write",
                    "2026-05-04T01:00:00.000Z hourly", "2026-05-04T02:00:00.000Z hourly",
                ])
        #expect(json["days"]?.arrayValue?.last?["hourlyReloads"]?.intValue == 2)
        // Reloads after now have not happened: an --until far in the future counts up to now (found by
        // stint-cli-fuzz: `replay --until 9999-12-31` counted hourly reloads for 8 000 years).
        let unbounded = runner.run(["replay", "--since", "2026-05-04", "--until", "9999-12-31"])
        #expect(unbounded.status == 0)
        #expect(unbounded.stdout == text.stdout)
        // A clock at the end of time (found by stint-cli-fuzz: STINT_NOW=9999-12-31T23:59:59Z made replay walk
        // every hour since the last write): a write's own reloads are counted for 31 days at most.
        runner.now = Instant(canonical: "9999-12-31T23:59:59.000Z")!
        let farFuture = runner.run(["replay", "--json"])
        #expect(farFuture.status == 0)
        let reloads = try #require(try JSON.parse(farFuture.stdout)["reloads"]?.arrayValue)
        #expect(reloads.last?["at"]?.stringValue?.hasPrefix("2026-06-") == true, "\(reloads.last ?? .null)")
    }

    @Test func replayFoldsTheBatchesBeforeSinceSoItsFirstDecisionIsRight() throws {
        let directory = TemporaryDirectory()
        var runner = AuditVerbTests.busyDay(in: directory, pairs: 1)
        runner.now = Instant(canonical: "2026-05-05T09:00:00.000Z")!
        // An unused tag changes nothing the widget shows.
        #expect(runner.run(["tag", "add", "idle"]).status == 0)
        let json = try JSON.parse(runner.run(["replay", "--json", "--since", "2026-05-05T08:30"]).stdout)
        let batches = try #require(json["batches"]?.arrayValue)
        #expect(batches.count == 1)
        #expect(batches[0]["snapshot"]?.stringValue == "unchanged")
        #expect(batches[0]["liveActivity"]?["action"]?.stringValue == "none")
    }

    @Test func replayRewritesAStaleSnapshotThatIsOtherwiseUnchanged() throws {
        let directory = TemporaryDirectory()
        var runner = AuditVerbTests.busyDay(in: directory, pairs: 1)
        runner.now = Instant(canonical: "2026-05-06T09:00:00.000Z")!
        #expect(runner.run(["tag", "add", "idle"]).status == 0)
        runner.now = Instant(canonical: "2026-05-07T09:30:00.000Z")!
        #expect(runner.run(["tag", "add", "later"]).status == 0)
        runner.now = Instant(canonical: "2026-05-07T10:00:00.000Z")!
        #expect(runner.run(["tag", "add", "soon"]).status == 0)
        let json = try JSON.parse(runner.run(["replay", "--json", "--since", "2026-05-06"]).stdout)
        // Wednesday's tag changes today's count (a new day); Thursday's changes nothing the widget shows,
        // but the file is 24 h 30 min old by then, so the app rewrites it; 30 minutes later it is not.
        #expect(
            json["batches"]?.arrayValue?.map { $0["snapshot"]?.stringValue } == ["write", "write", "unchanged"])
    }

    @Test(arguments: [
        ["replay", "--since", "2026-05-05", "--until", "2026-05-04"], ["replay", "--since", "soon"],
        ["diff"], ["diff", "--from", "seq:0"], ["diff", "--from", "seq:x"], ["diff", "--from", "-3"],
        ["diff", "--from", "whenever"], ["diff", "--from", "seq:5", "--to", "seq:3"],
        ["widget"], ["widget", "--family", "systemHuge"], ["widget", "--family", "systemSmall", "--format", "png"],
        ["widget", "--family", "systemSmall", "--period", "week"],
        ["widget", "--family", "summaryMedium", "--period", "year"],
    ])
    func usageErrorsExit64AndPointAtTheHelp(_ arguments: [String]) {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.busyDay(in: directory, pairs: 3)
        let result = runner.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("See 'stint \(arguments[0]) --help'."))
    }

    @Test func unknownWidgetNamesListTheValidOnes() {
        let runner = CLIRunner()
        let family = runner.run(["widget", "--family", "systemMedum"])
        #expect(family.stderr.contains("Did you mean 'systemMedium'?"))
        #expect(family.stderr.contains("systemSmall, systemMedium, systemLarge, accessoryCircular"))
        #expect(runner.run(["widget", "--family", "systemSmall", "--format", "png"]).stderr.contains("text or svg"))
        #expect(
            runner.run(["widget", "--family", "summaryLarge", "--period", "year"]).stderr.contains(
                "today, week or month"))
    }

    @Test func refusalsExit1() {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.busyDay(in: directory, pairs: 2)
        #expect(runner.run(["diff", "--from", "seq:99"]).status == 1)
        #expect(runner.run(["widget", "--family", "systemSmall", "--at", "2026-01-01T00:00"]).status == 1)
        #expect(runner.run(["widget", "--family", "systemSmall", "--seq", "99"]).status == 1)
        let missing = CLIRunner(log: directory.appending("nothing"))
        for verb in [["replay"], ["diff", "--from", "1"], ["widget", "--family", "systemSmall"]] {
            #expect(missing.run(verb).status == 1, "\(verb)")
        }
    }

    @Test func diffTakesSeqsAndTimesAndDefaultsToNow() throws {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.busyDay(in: directory, pairs: 2)
        // Events: 1 init; 2–3 start writing; 4 stop; 5–6 start email; 7 stop; 8 track.
        let bySeq = try JSON.parse(runner.run(["diff", "--from", "seq:3", "--to", "4", "--json"]).stdout)
        #expect(bySeq["from"]?["seq"]?.intValue == 3)
        #expect(bySeq["to"]?["seq"]?.intValue == 4)
        #expect(bySeq["events"]?.arrayValue?.map { $0["type"]?.stringValue } == ["timer.stopped"])
        #expect(bySeq["records"]?["changed"]?.arrayValue?.count == 1)
        #expect(bySeq["liveActivity"]?["action"]?.stringValue == "end")
        let byTime = try JSON.parse(runner.run(["diff", "--from", "2026-05-04T08:01", "--json"]).stdout)
        #expect(byTime["from"]?["seq"]?.intValue == 4)
        #expect(byTime["to"]?["seq"]?.intValue == 8)
        #expect(byTime["to"]?["now"]?.stringValue == "2026-05-05T08:00:00.000Z")
        #expect(byTime["records"]?["added"]?.arrayValue?.count == 2)
        let same = runner.run(["diff", "--from", "seq:8", "--to", "seq:8"])
        #expect(same.stdout.hasPrefix("From seq 8 (Tue 2026-05-05 08:00) to seq 8 (Tue 2026-05-05 08:00): 0 events\n"))
        #expect(same.stdout.contains("Records: 0 added, 0 changed, 0 removed"))
    }

    @Test func widgetDrawsTextAndSVG() {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.busyDay(in: directory, pairs: 2)
        let text = runner.run(["widget", "--family", "systemSmall", "--at", "2026-05-04T08:00:30"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("writing"))
        #expect(text.stdout.contains("0:00"))
        let svg = runner.run(["widget", "--family", "summaryMedium", "--period", "today", "--format", "svg"])
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("<svg"))
        #expect(svg.stdout.hasSuffix("</svg>\n"))
    }

    /// A timer started at 08:00 UTC on Monday, another at 09:00 Tuesday, and a stop at 17:00 Tuesday.
    static func longTimer(in directory: TemporaryDirectory) -> CLIRunner {
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-04T07:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T08:00:00.000Z")!
        #expect(runner.run(["start", "writing"]).status == 0)
        runner.now = Instant(canonical: "2026-05-05T09:00:00.000Z")!
        #expect(runner.run(["start", "email"]).status == 0)
        runner.now = Instant(canonical: "2026-05-05T17:00:00.000Z")!
        #expect(runner.run(["stop", "--all"]).status == 0)
        runner.now = Instant(canonical: "2026-05-06T12:00:00.000Z")!
        return runner
    }

    @Test func iOSEndsTheLiveActivityAfterEightHours() throws {
        let directory = TemporaryDirectory()
        let runner = AuditVerbTests.longTimer(in: directory)
        let text = runner.run(["replay"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("2026-05-04 16:00             ended by iOS"), "\(text.stdout)")
        #expect(text.stdout.contains("2026-05-05 09:00  write      start, 2 running"), "\(text.stdout)")
        // The activity started at 09:00 Tuesday ends at 17:00, the moment of the stop: iOS's end comes first.
        #expect(text.stdout.contains("2026-05-05 17:00             ended by iOS"), "\(text.stdout)")
        #expect(text.stdout.contains("2026-05-05 17:00  write      none "), "\(text.stdout)")
        let json = try JSON.parse(runner.run(["replay", "--json"]).stdout)
        #expect(
            json["liveActivitySystemEnds"]?.arrayValue?.map { $0["at"]?.stringValue }
                == ["2026-05-04T16:00:00.000Z", "2026-05-05T17:00:00.000Z"])
        // --since later than the start still knows the activity's age.
        let since = try JSON.parse(runner.run(["replay", "--json", "--since", "2026-05-04T12:00"]).stdout)
        #expect(since["liveActivitySystemEnds"]?.arrayValue?.count == 2)
        #expect(since["batches"]?.arrayValue?.first?["liveActivity"]?["action"]?.stringValue == "start")

        let before = runner.run(["widget", "--family", "liveActivity", "--at", "2026-05-04T15:59"])
        #expect(before.stdout.contains("writing"))
        let after = runner.run(["widget", "--family", "liveActivity", "--at", "2026-05-04T17:00"])
        #expect(after.status == 0)
        #expect(after.stdout.contains("iOS ended the activity after 8 hours"), "\(after.stdout)")
        #expect(!after.stdout.contains("writing"))
        let svg = runner.run(["widget", "--family", "liveActivity", "--at", "2026-05-04T17:00", "--format", "svg"])
        #expect(svg.stdout.contains("iOS ended the activity after 8 hours"))
        let restarted = runner.run(["widget", "--family", "liveActivity", "--at", "2026-05-05T10:00"])
        #expect(restarted.stdout.contains("writing") && restarted.stdout.contains("email"))
        // The Dynamic Island is the same activity: gone from it too, and back with the next start.
        for family in ["dynamicIslandCompact", "dynamicIslandExpanded"] {
            let ended = runner.run(["widget", "--family", family, "--at", "2026-05-04T17:00", "--format", "svg"])
            #expect(ended.stdout.contains("iOS ended the activity"), "\(family): \(ended.stdout)")
            let running = runner.run(["widget", "--family", family, "--at", "2026-05-04T15:59"])
            #expect(running.status == 0 && !running.stdout.contains("iOS ended"), "\(family)")
            #expect(running.stdout.contains("writing"), "\(family): \(running.stdout)")
        }
    }

    @Test func asPublishedShowsTheLastWriteAndTheTimelineOfTheLastReload() throws {
        let directory = TemporaryDirectory()
        var runner = CLIRunner(log: directory.appending("log"), now: "2026-05-04T08:00:00.000Z")
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T09:00:30.000Z")!
        #expect(runner.run(["start", "writing"]).status == 0)
        runner.now = Instant(canonical: "2026-05-04T11:00:00.000Z")!
        let at = "2026-05-04T10:05:40"
        // A publish at 10:05:40 would be stamped then; the file holds the 09:00:30 write.
        let computed = try JSON.parse(runner.run(["snapshot", "--at", at]).stdout)
        #expect(computed["lastUpdated"]?.stringValue == "2026-05-04T10:05:40.000Z")
        let file = try JSON.parse(runner.run(["snapshot", "--at", at, "--as-published"]).stdout)
        #expect(file["lastUpdated"]?.stringValue == "2026-05-04T09:00:30.000Z")
        // The timeline built at 09:00:30 ended at 10:00; the widget then built the one it shows at 10:05:40.
        let timeline = try JSON.parse(runner.run(["timeline", "--json", "--at", at, "--as-published"]).stdout)
        let dates = try #require(timeline["entries"]?.arrayValue?.compactMap { $0["date"]?.stringValue })
        #expect(dates.first == "2026-05-04T10:00:00.000Z")
        #expect(dates.last == "2026-05-04T11:00:00.000Z")
        // On screen at 10:05:40: the 10:05 entry, 1:04 after the 09:00:30 start (not 1:05 of 10:05:40).
        let widget = runner.run(["widget", "--family", "accessoryInline", "--at", at])
        #expect(widget.stdout.contains("1:04"), "\(widget.stdout)")
        #expect(!widget.stdout.contains("1:05"))
        // --seq 1: the log's creation was published; before it, nothing was.
        let first = try JSON.parse(runner.run(["snapshot", "--seq", "1", "--as-published"]).stdout)
        #expect(first["lastUpdated"]?.stringValue == "2026-05-04T08:00:00.000Z")
        let before = runner.run(["snapshot", "--at", "2026-05-04T07:00", "--as-published"])
        #expect(before.status == 1)
        #expect(before.stderr.hasPrefix("error: nothing was recorded at or before"))
    }

    @Test func newVerbsHaveHelpWithExamples() {
        let runner = CLIRunner()
        for verb in ["replay", "publish", "diff", "check", "widget"] {
            let help = runner.run([verb, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("stint \(verb) — "))
            #expect(help.stdout.contains("Examples:\n  $ stint \(verb)"))
            #expect(runner.run(["--help"]).stdout.contains("  \(verb) "))
        }
    }
}

extension AuditVerbTests {
    @Test func widgetHelpNamesEveryFamily() {
        let help = CLIRunner().run(["widget", "--help"]).stdout
        for family in [
            "systemSmall", "systemMedium", "systemLarge", "accessoryCircular", "accessoryRectangular",
            "accessoryInline", "summaryMedium", "summaryLarge", "liveActivity",
        ] {
            #expect(help.contains(family), "\(family)")
        }
    }
}
