import Foundation
import StintCore
import TestSupport
import Testing

/// `stint import` end to end, in process, on the files Timewarrior 1.4.3 and Watson 2.1.0 wrote
/// (`Events/import/`): the imported log's totals against the tools' own reports, re-imports, undo,
/// dry runs and malformed files.
@Suite struct ImportCLITests {
    static let timewarrior = ImportHarness.fixture("timewarrior/export.json")
    static let timewarriorUpdated = ImportHarness.fixture("timewarrior/updated/export.json")
    static let watson = ImportHarness.fixture("watson/frames")
    static let watsonUpdated = ImportHarness.fixture("watson/updated/frames")

    @Test(arguments: [
        ("timewarrior/", CivilDate(year: 2026, month: 11, day: 28)),
        ("timewarrior/updated/", CivilDate(year: 2026, month: 11, day: 29)),
    ])
    func timewarriorTotalsPerDayAndPerTagMatchTimewSummary(directory: String, until: CivilDate) throws {
        let log = try ImportHarness()
        log.succeed(["import", "timewarrior", ImportHarness.fixture(directory + "export.json")])
        let state = try log.state()

        let summary = TimewarriorSummary(
            Substring(try String(contentsOfFile: ImportHarness.fixture(directory + "summary.txt"), encoding: .utf8)))
        let days = try ImportTotals.days(log, from: CivilDate(year: 2026, month: 10, day: 1), to: until)
        #expect(!days.isEmpty)
        #expect(days == summary.days)
        #expect(days.values.reduce(0, +) == summary.total)

        // `timew summary TAG` counts an interval under each of its tags; Stint keeps one as the tag and the
        // others in the comment's Tags: line. Names are compared case-insensitively, as Stint merges them.
        let sections = try TimewarriorSummary.perTag(
            try String(contentsOfFile: ImportHarness.fixture(directory + "summary-tags.txt"), encoding: .utf8))
        var expected: [String: Int64] = [:]
        for (name, section) in sections { expected[name.lowercased(), default: 0] += section.total ?? 0 }
        var totals: [String: Int64] = [:]
        for record in state.records.values where !record.isRunning {
            let (main, others) = ImportTotals.names(record, state)
            for name in (main.map { [$0] } ?? []) + others {
                totals[name.lowercased(), default: 0] += record.durationMilliseconds!
            }
        }
        #expect(totals == expected)
    }

    @Test(arguments: ["watson/", "watson/updated/"])
    func watsonTotalsPerProjectPerTagAndPerDayMatchWatsonsReports(directory: String) throws {
        let log = try ImportHarness()
        log.succeed(["import", "watson", ImportHarness.fixture(directory + "frames")])
        let state = try log.state()

        let report = WatsonReport(
            try JSON.parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: ImportHarness.fixture(directory + "report.json"))))))
        var projects: [String: Int64] = [:]
        var projectTags: [String: [String: Int64]] = [:]
        for (project, milliseconds) in report.projects { projects[project.lowercased(), default: 0] += milliseconds }
        for (project, tags) in report.projectTags {
            for (tag, milliseconds) in tags {
                projectTags[project.lowercased(), default: [:]][tag, default: 0] += milliseconds
            }
        }
        var stintProjects: [String: Int64] = [:]
        var stintProjectTags: [String: [String: Int64]] = [:]
        for record in state.records.values where !record.isRunning {
            let (main, others) = ImportTotals.names(record, state)
            let project = try #require(main).lowercased()
            stintProjects[project, default: 0] += record.durationMilliseconds!
            for tag in others {
                stintProjectTags[project, default: [:]][tag, default: 0] += record.durationMilliseconds!
            }
        }
        #expect(stintProjects == projects)
        #expect(stintProjectTags == projectTags)

        let aggregate = try JSON.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: ImportHarness.fixture(directory + "aggregate.json"))))
        ).arrayValue!
        var expectedDays: [CivilDate: Int64] = [:]
        for day in aggregate {
            let dayReport = WatsonReport(day)
            if dayReport.total > 0 { expectedDays[dayReport.from!] = dayReport.total }
        }
        let first = try #require(aggregate.first.flatMap { WatsonReport($0).from })
        let last = try #require(aggregate.last.flatMap { WatsonReport($0).from })
        #expect(try ImportTotals.days(log, from: first, to: last.adding(days: 1)) == expectedDays)
    }

    @Test(arguments: [["timewarrior", timewarrior], ["watson", watson], ["timewarrior", timewarriorUpdated]])
    func importingTheSameFileAgainAppendsNothing(arguments: [String]) throws {
        let log = try ImportHarness()
        log.succeed(["import"] + arguments)
        let bytes = try log.segmentBytes()
        let output = log.succeed(["import"] + arguments + ["--json"])
        #expect(try log.segmentBytes() == bytes)
        let changes = try #require(try JSON.parse(output)["changes"])
        #expect(changes["added"] == .int(0) && changes["updated"] == .int(0))
        #expect(changes["unchanged"] == (try JSON.parse(output))["report"]?["mapped"])
    }

    @Test func anUpdatedExportAppendsOneBatchOfUpdatesAndTheNewInterval() throws {
        let log = try ImportHarness()
        log.succeed(["import", "timewarrior", Self.timewarrior])
        let before = try log.events().count
        log.succeed(["import", "timewarrior", Self.timewarriorUpdated])
        let batch = Array(try log.events().dropFirst(before))
        #expect(batch.map(\.type).sorted() == ["record.imported", "record.reimported", "record.reimported"])
        #expect(Set(batch.map(\.tx)) == [batch.first?.seq])
        // The records are those of a fresh import of the updated export.
        let fresh = try ImportHarness()
        fresh.succeed(["import", "timewarrior", Self.timewarriorUpdated])
        #expect(try log.values() == (try fresh.values()))
    }

    @Test func theWatsonFrameThatWasRunningCompletesItsRecord() throws {
        let log = try ImportHarness()
        log.succeed(["import", "watson", Self.watson])
        let running = try #require(try log.state().runningRecords.first)
        let output = log.succeed(["import", "watson", Self.watsonUpdated])
        let state = try log.state()
        #expect(state.runningRecords.isEmpty)
        #expect(state.records[running.id]?.end == Instant(canonical: "2026-11-28T17:00:00.000Z"))
        #expect(state.records.count == (try log.events()).count { $0.type == "record.imported" })
        #expect(output.contains("completed"))
        let fresh = try ImportHarness()
        fresh.succeed(["import", "watson", Self.watsonUpdated])
        #expect(try log.values() == (try fresh.values()))
    }

    @Test func oneUndoRevertsAWholeImportAndRedoBringsItBack() throws {
        let log = try ImportHarness()
        log.succeed(["track", "2026-11-20T09:00", "2026-11-20T10:00", "writing"])
        let before = try log.values()
        log.succeed(["import", "timewarrior", Self.timewarrior])
        let imported = try log.values()
        let undo = log.run(["undo"])
        #expect(undo.stderr.contains("unimported"))
        #expect(try log.values() == before)
        #expect(try log.state().tags.values.filter { !$0.isDeleted }.map(\.name) == ["writing"])
        log.succeed(["redo"])
        #expect(try log.values() == imported)
        log.succeed(["undo"])
        let again = try JSON.parse(log.succeed(["import", "timewarrior", Self.timewarrior, "--json"]))
        #expect(again["changes"]?["added"] == .int(12))
    }

    @Test(arguments: [["timewarrior", timewarrior], ["watson", watson]])
    func aDryRunAppendsNothingAndReportsWhatAnImportWould(arguments: [String]) throws {
        let log = try ImportHarness()
        let bytes = try log.segmentBytes()
        let dry = try JSON.parse(log.succeed(["import"] + arguments + ["--dry-run", "--json"]))
        #expect(try log.segmentBytes() == bytes)
        #expect(dry["dryRun"] == .bool(true) && dry["seq"] == nil)
        let real = try JSON.parse(log.succeed(["import"] + arguments + ["--json"]))
        #expect(real["dryRun"] == .bool(false) && real["seq"] == .int(2))
        #expect(dry["changes"]?["added"] == real["changes"]?["added"])
        #expect(dry["report"] == real["report"])
        #expect(log.succeed(["import"] + arguments + ["--dry-run"]).hasPrefix("Dry run, nothing appended"))
    }

    static let malformed: [(system: String, frames: String, state: String?)] = [
        (
            "timewarrior",
            "[\n{\"start\":\"20261027T140000Z\",\"end\":\"20261027T150000Z\"},\n{\"start\":\"20261027T1600", nil
        ),
        ("timewarrior", "[{\"start\":\"20261027T140000Z\"},\n {\"start\":\"yesterday\"}]", nil),
        ("timewarrior", "{\"start\":\"20261027T140000Z\"}", nil),
        ("timewarrior", "", nil),
        ("watson", "[[1793019600, null, \"clientA\", \"bb7b047c64ba47828cea32a5f3571a1c\", [], 1795963744]]", nil),
        ("watson", "[[1793019600, 1793031300, \"clientA\", \"\", [\"design\"]]]", nil),
        ("watson", "[]", "{\"project\": \"apollo\", \"start\": \"soon\"}"),
    ]

    @Test(arguments: malformed)
    func aMalformedFileIsRefusedWithItsPositionAndNothingIsAppended(
        system: String, frames: String, state: String?
    ) throws {
        let log = try ImportHarness()
        log.succeed(["import", "timewarrior", Self.timewarrior])
        let bytes = try log.segmentBytes()
        let path = try log.file("frames", frames)
        if let state { _ = try log.file("state", state) }
        let result = log.run(["import", system, path])
        #expect(result.status == 65)
        #expect(try log.segmentBytes() == bytes)
        let expected: ImportError?
        do {
            _ =
                system == "timewarrior"
                ? try TimewarriorExport.parse(Array(frames.utf8))
                : try WatsonFrames.parse(frames: Array(frames.utf8), state: state.map { Array($0.utf8) })
            expected = nil
        } catch {
            expected = error
        }
        let position = try #require(expected?.position)
        #expect(result.stderr.contains(position.description))
    }

    @Test func intervalsEndingBeforeTheyStartAreSkippedAndCounted() throws {
        let log = try ImportHarness()
        let export = """
            [
            {"id":2,"start":"20261027T140000Z","end":"20261027T130000Z","tags":["x"]},
            {"id":1,"start":"20261027T150000Z","end":"20261027T160000Z","tags":["x"]}
            ]
            """
        let json = try JSON.parse(log.succeed(["import", "timewarrior", "-", "--json"], stdin: Array(export.utf8)))
        #expect(json["report"]?["skipped"] == .int(1))
        #expect(json["report"]?["skips"]?.arrayValue?.first?["reason"] == .string("endBeforeStart"))
        #expect(json["report"]?["skips"]?.arrayValue?.first?["position"]?["line"] == .int(2))
        #expect(json["changes"]?["added"] == .int(1))
        #expect(try log.state().records.count == 1)
    }

    @Test func recordsLongerThanSevenDaysAreRefusedWithoutForce() throws {
        let log = try ImportHarness()
        let export = #"[{"id":1,"start":"20261101T090000Z","end":"20261109T090000Z","tags":["x"]}]"#
        let path = try log.file("long.json", export)
        let bytes = try log.segmentBytes()
        let refused = log.run(["import", "timewarrior", path])
        #expect(refused.status == 1)
        #expect(try log.segmentBytes() == bytes)
        let forced = log.succeed(["import", "timewarrior", path, "--force"])
        #expect(forced.contains("longer than 7 days"))
        #expect(try log.state().records.count == 1)
    }

    @Test func preferredTagsChooseTheStintTag() throws {
        let log = try ImportHarness()
        log.succeed(["import", "timewarrior", Self.timewarrior, "--prefer-tag", "DEV", "--prefer-tag", "meeting"])
        let values = try log.values()
        let night = try #require(values.first { $0.start == Instant(canonical: "2026-10-29T02:30:00.000Z") })
        #expect(night.tag == "dev" && night.comment == "Tags: ClientA, night")
        let review = try #require(values.first { $0.start == Instant(canonical: "2026-10-27T14:00:00.000Z") })
        #expect(review.tag == "meeting")
    }

    @Test func watsonIsFoundThroughWatsonDirAndAMissingStateMeansNothingRuns() throws {
        let log = try ImportHarness()
        let directory = TemporaryDirectory(prefix: "watson")
        try FileManager.default.copyItem(atPath: Self.watson, toPath: directory.appending("frames"))
        let output = log.run(["import", "watson"], stdin: [])
        #expect(output.status != 0)
        var runner = log.runner
        runner.environment["WATSON_DIR"] = directory.path
        let result = runner.run(["import", "watson", "--json"])
        #expect(result.status == 0)
        #expect(try JSON.parse(result.stdout)["report"]?["running"] == .int(0))
        #expect(try log.state().runningRecords.isEmpty)
    }

    @Test func theTextReportSaysWhatWentIntoComments() throws {
        let log = try ImportHarness()
        let text = log.succeed(["import", "timewarrior", Self.timewarrior])
        #expect(text.contains("12 added (1 running), 0 updated, 0 unchanged."))
        #expect(text.contains("8 comments have a line \"Tags: …\""))
        #expect(text.contains("was cut from 561 to 500 characters"))
        #expect(text.contains("cannot be a tag"))
        #expect(text.contains("\"ClientA\", \"clienta\" differ only in case: one tag."))
    }
}
