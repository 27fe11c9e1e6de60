import TestSupport
import Testing

@testable import StintCore

/// The Timewarrior fixtures (`Events/import/timewarrior`) read back against what `timew` reported.
@Suite struct ImportTimewarriorTests {
    let intervals: [ImportedInterval]
    let plan: ImportPlan
    let updated: ImportPlan

    init() throws {
        intervals = try TimewarriorExport.parse(try ImportFixtures.bytes("timewarrior/export.json"))
        plan = ImportPlan.make(intervals: intervals)
        updated = ImportPlan.make(
            intervals: try TimewarriorExport.parse(try ImportFixtures.bytes("timewarrior/updated/export.json")))
    }

    @Test(arguments: [
        ("timewarrior/export.json", "timewarrior/summary.txt", CivilDate(year: 2026, month: 11, day: 28)),
        (
            "timewarrior/updated/export.json", "timewarrior/updated/summary.txt",
            CivilDate(year: 2026, month: 11, day: 29)
        ),
    ])
    func dailyTotalsInNewYorkMatchTimewSummary(export: String, summaryPath: String, until: CivilDate) throws {
        let summary = TimewarriorSummary(Substring(try ImportFixtures.text(summaryPath)))
        let records = ImportPlan.make(intervals: try TimewarriorExport.parse(try ImportFixtures.bytes(export))).records
        let days = ImportFixtures.dailyTotals(records, from: CivilDate(year: 2026, month: 10, day: 1), to: until)
        #expect(!summary.days.isEmpty)
        #expect(days == summary.days)
        #expect(days.values.reduce(0, +) == summary.total)
        // The night of the DST change: 00:00–03:00 EST on 2026-11-01 is four hours of real time.
        let fourHours: Int64 = 4 * 3_600_000
        #expect(summary.days[CivilDate(year: 2026, month: 11, day: 1)] == fourHours)
    }

    @Test(arguments: ["timewarrior/export.json", "timewarrior/updated/export.json"])
    func perTagTotalsMatchTimewSummaryFilteredByTag(export: String) throws {
        let directory = export.replacingOccurrences(of: "export.json", with: "")
        let sections = try TimewarriorSummary.perTag(try ImportFixtures.text(directory + "summary-tags.txt"))
        let parsed = try TimewarriorExport.parse(try ImportFixtures.bytes(export))
        var totals: [String: Int64] = [:]
        for interval in parsed {
            guard let end = interval.end else { continue }
            for tag in interval.tags { totals[tag, default: 0] += end.milliseconds(since: interval.start) }
        }
        #expect(sections.count == Set(parsed.flatMap(\.tags)).count)
        #expect(totals == sections.compactMapValues(\.total))
    }

    @Test func theOpenIntervalBecomesTheOnlyRunningRecord() throws {
        let running = plan.records.filter(\.isRunning)
        #expect(plan.report.running == 1)
        let record = try #require(running.first)
        #expect(running.count == 1)
        #expect(record.start == TimewarriorExport.instant("20261128T130000Z"))
        #expect(record.tagName == "ClientA")
        #expect(record.comment == "Tags: dev")
        #expect(record.source.identity == "2026-11-28T13:00:00.000Z")
    }

    @Test func everyIntervalIsMappedAndNothingIsSkipped() throws {
        #expect(plan.report.read == intervals.count)
        #expect(plan.report.mapped == intervals.count)
        #expect(plan.report.skipped.isEmpty)
        #expect(plan.report.unknownMembers.isEmpty)
        #expect(plan.records.map(\.start) == intervals.map(\.start).sorted())
        for record in plan.records {
            #expect(try record.tagName.map(InputLimits.tagName) == record.tagName)
            #expect(try record.comment.flatMap(InputLimits.comment) == record.comment)
        }
    }

    @Test func derivedIdsAreStableDistinctAndVersion8() throws {
        let again = ImportPlan.make(
            intervals: try TimewarriorExport.parse(try ImportFixtures.bytes("timewarrior/export.json")))
        #expect(again.records.map(\.recordId) == plan.records.map(\.recordId))
        #expect(Set(plan.records.map(\.recordId)).count == plan.records.count)
        for record in plan.records {
            #expect(record.recordId.high >> 12 & 0xF == 8)
            #expect(record.recordId.low >> 62 == 0b10)
            #expect(record.recordId == EntityID.derived(source: .timewarrior, identity: record.start.iso8601))
        }
    }

    @Test func mappingOfTheFixtureFollowsTheDocumentedRules() throws {
        func record(_ start: String) throws -> ImportedRecord {
            try #require(plan.records.first { $0.start == TimewarriorExport.instant(start) })
        }
        // Timewarrior sorts tags; the first usable one is the tag, the others follow the annotation.
        let review = try record("20261027T140000Z")
        #expect(review.tagName == "Client B")
        #expect(review.comment == "Review of the \"auth\" module — ünïcode ✓\nTags: \"code, review\", meeting")
        #expect(try record("20261029T180000Z").tagName == nil)
        #expect(try record("20261029T180000Z").comment == nil)
        // A tag over 64 characters cannot be a tag: the next one is, and it goes into the comment.
        let long = try record("20261105T150000Z")
        #expect(long.tagName == "ClientA")
        #expect(
            long.comment
                == "Tags: A name that is far too long to be a Stint tag: it has more than sixty-four characters")
        #expect(plan.report.namesInComments.map(\.recordId) == [long.recordId])
        // The long annotation is cut to 500 characters; the report keeps all of it.
        let writing = try record("20261102T140000Z")
        let truncation = try #require(plan.report.truncated.first)
        #expect(plan.report.truncated.count == 1)
        #expect(truncation.recordId == writing.recordId)
        #expect(writing.comment?.count == 500)
        #expect(writing.comment?.hasSuffix("…") == true)
        let annotation = try #require(intervals.first { $0.start == writing.start }?.annotation)
        #expect(truncation.fullComment == annotation)
        #expect(writing.comment?.dropLast() == annotation.prefix(499))
        #expect(plan.report.mergedTagSpellings == [["ClientA", "clienta"]])
        #expect(
            plan.report.commentsWithExtraTags == plan.records.filter { $0.comment?.contains("Tags: ") == true }.count)
    }

    @Test func reimportingTheUpdatedExportFindsTheEditedTheStoppedAndTheAddedInterval() throws {
        let before = Dictionary(uniqueKeysWithValues: plan.records.map { ($0.recordId, $0) })
        let after = Dictionary(uniqueKeysWithValues: updated.records.map { ($0.recordId, $0) })
        let added = Set(after.keys).subtracting(before.keys)
        let changed = Set(after.keys).intersection(before.keys).filter { before[$0]!.values != after[$0]!.values }
        #expect(Set(before.keys).isSubset(of: Set(after.keys)))

        let edited = EntityID.derived(source: .timewarrior, identity: "2026-10-26T17:00:00.000Z")
        let stopped = EntityID.derived(source: .timewarrior, identity: "2026-11-28T13:00:00.000Z")
        let new = EntityID.derived(source: .timewarrior, identity: "2026-11-27T14:00:00.000Z")
        #expect(added == [new])
        #expect(changed == [edited, stopped])
        #expect(before[edited]?.end == TimewarriorExport.instant("20261026T213000Z"))
        #expect(after[edited]?.end == TimewarriorExport.instant("20261026T220000Z"))
        #expect(before[edited]?.comment == "Tags: dev")
        #expect(after[edited]?.comment == "Tags: billable, dev")
        #expect(before[stopped]?.isRunning == true)
        #expect(after[stopped]?.end == TimewarriorExport.instant("20261128T170000Z"))
        #expect(after[new]?.tagName == "Client B")
        #expect(updated.report.running == 0)
    }

    @Test func editingAStartInTimewarriorMakesANewRecordAndLeavesTheOldOne() throws {
        let original = #"[{"id":1,"start":"20261127T090000Z","end":"20261127T100000Z","tags":["x"]}]"#
        let moved = #"[{"id":1,"start":"20261127T091500Z","end":"20261127T100000Z","tags":["x"]}]"#
        let first = ImportPlan.make(intervals: try TimewarriorExport.parse(Array(original.utf8)))
        let second = ImportPlan.make(intervals: try TimewarriorExport.parse(Array(moved.utf8)))
        #expect(first.records[0].recordId != second.records[0].recordId)
    }
}
