import TestSupport
import Testing

@testable import StintCore

/// The Watson fixtures (`Events/import/watson`) read back against what `watson` reported.
@Suite struct ImportWatsonTests {
    let intervals: [ImportedInterval]
    let plan: ImportPlan
    let updated: ImportPlan

    init() throws {
        intervals = try WatsonFrames.parse(
            frames: try ImportFixtures.bytes("watson/frames"), state: try ImportFixtures.bytes("watson/state"))
        plan = ImportPlan.make(intervals: intervals)
        updated = ImportPlan.make(
            intervals: try WatsonFrames.parse(
                frames: try ImportFixtures.bytes("watson/updated/frames"),
                state: try ImportFixtures.bytes("watson/updated/state")))
    }

    static let snapshots = ["watson/", "watson/updated/"]

    func parse(_ directory: String) throws -> [ImportedInterval] {
        try WatsonFrames.parse(
            frames: try ImportFixtures.bytes(directory + "frames"), state: try ImportFixtures.bytes(directory + "state")
        )
    }

    @Test(arguments: snapshots)
    func perProjectAndPerTagTotalsMatchWatsonReport(directory: String) throws {
        let report = WatsonReport(try JSON.parse(try ImportFixtures.bytes(directory + "report.json")))
        var projects: [String: Int64] = [:]
        var projectTags: [String: [String: Int64]] = [:]
        for interval in try parse(directory) {
            guard let end = interval.end, let project = interval.project else { continue }
            let milliseconds = end.milliseconds(since: interval.start)
            projects[project, default: 0] += milliseconds
            for tag in interval.tags { projectTags[project, default: [:]][tag, default: 0] += milliseconds }
        }
        #expect(!report.projects.isEmpty)
        #expect(projects == report.projects)
        #expect(projectTags == report.projectTags)
        #expect(projects.values.reduce(0, +) == report.total)
    }

    @Test(arguments: snapshots)
    func stintTagTotalsAreTheProjectsMergedCaseInsensitively(directory: String) throws {
        let report = WatsonReport(try JSON.parse(try ImportFixtures.bytes(directory + "report.json")))
        var expected: [String: Int64] = [:]
        for (project, milliseconds) in report.projects {
            let key = ImportPlan.tagName(project)?.lowercased() ?? "(untagged)"
            expected[key, default: 0] += milliseconds
        }
        let records = ImportPlan.make(intervals: try parse(directory)).records.filter { !$0.isRunning }
        let source = ImportFixtures.projection(records)
        let range = TimeInterval64(
            start: ImportFixtures.newYork.startOfDay(report.from!), end: records.map { $0.end! }.max()!)
        let stint = TimeReport(
            source: source, range: range, grouping: .tag, attribution: .splitAtMidnight, now: range.end)
        let totals = Dictionary(
            uniqueKeysWithValues: stint.tags.map {
                ($0.tagId == nil ? "(untagged)" : $0.name.lowercased(), $0.milliseconds)
            })
        #expect(totals == expected)
    }

    @Test(arguments: snapshots)
    func dailyTotalsInNewYorkMatchWatsonAggregate(directory: String) throws {
        let days = try JSON.parse(try ImportFixtures.bytes(directory + "aggregate.json")).arrayValue!
        var expected: [CivilDate: Int64] = [:]
        for day in days {
            let report = WatsonReport(day)
            if report.total > 0 { expected[report.from!] = report.total }
        }
        let first = try #require(days.first.flatMap { WatsonReport($0).from })
        let last = try #require(days.last.flatMap { WatsonReport($0).from })
        let records = ImportPlan.make(intervals: try parse(directory)).records.filter { !$0.isRunning }
        let totals = ImportFixtures.dailyTotals(records, from: first, to: last.adding(days: 1))
        #expect(expected.count >= 9)
        #expect(totals == expected)
        // The day of the DST change lasts 25 hours; 00:00–03:00 EST is four hours of real time, plus the
        // 40 minutes of the frame in the repeated hour.
        let fourHoursForty: Int64 = (4 * 60 + 40) * 60_000
        #expect(expected[CivilDate(year: 2026, month: 11, day: 1)] == fourHoursForty)
    }

    @Test func theStateFilesFrameBecomesTheOnlyRunningRecord() throws {
        let running = plan.records.filter(\.isRunning)
        let record = try #require(running.first)
        #expect(running.count == 1)
        #expect(plan.report.running == 1)
        #expect(record.start == Instant(seconds: 1_795_870_800))
        #expect(record.tagName == "clientA")
        #expect(record.comment == "Tags: dev")
        #expect(record.source.identity == "running/2026-11-28T13:00:00.000Z/clientA")
        #expect(record.replacesRunningId == nil)
        #expect(record.position.document == .watsonState)
    }

    @Test func mappingOfTheFixtureFollowsTheDocumentedRules() throws {
        #expect(plan.report.read == intervals.count)
        #expect(plan.report.mapped == intervals.count)
        #expect(plan.report.skipped.isEmpty)
        let review = try #require(plan.records.first { $0.tagName == "client B" })
        #expect(review.comment == "Tags: meeting, code review")
        let long = try #require(intervals.first { ($0.project?.count ?? 0) > 64 })
        let longRecord = try #require(plan.records.first { $0.source == long.source })
        #expect(longRecord.tagName == nil)
        #expect(longRecord.comment == "Project: \(long.project!)\nTags: \"research, phase 1\"")
        #expect(plan.report.namesInComments.map(\.name) == [long.project!])
        #expect(plan.report.mergedTagSpellings == [["clientA", "ClientA"]])
        #expect(Set(plan.records.map(\.recordId)).count == plan.records.count)
        for record in plan.records {
            #expect(try record.tagName.map(InputLimits.tagName) == record.tagName)
            #expect(try record.comment.flatMap(InputLimits.comment) == record.comment)
        }
        for record in plan.records where !record.isRunning {
            #expect(record.source.identity.count == 32)
            #expect(record.recordId == EntityID.derived(source: .watson, identity: record.source.identity))
            #expect(record.recordId.high >> 12 & 0xF == 8)
        }
    }

    @Test func reimportingTheUpdatedFilesFindsTheEditedFrameAndTheStoppedOne() throws {
        let before = Dictionary(uniqueKeysWithValues: plan.records.map { ($0.recordId, $0) })
        let after = Dictionary(uniqueKeysWithValues: updated.records.map { ($0.recordId, $0) })
        let running = try #require(plan.records.first { $0.isRunning })
        let kept = Set(before.keys).subtracting([running.recordId])
        #expect(kept.isSubset(of: Set(after.keys)))
        #expect(after[running.recordId] == nil)

        let changed = kept.filter { before[$0]!.values != after[$0]!.values }
        let edited = try #require(changed.first)
        #expect(changed.count == 1)
        #expect(before[edited]?.start == after[edited]?.start)
        #expect(after[edited]!.end! > before[edited]!.end!)
        #expect(before[edited]?.comment == "Tags: dev, backend")
        #expect(after[edited]?.comment == "Tags: dev, backend, billable")

        // Watson gives the running frame a new id when it stops it; the record says which running record it
        // completes.
        let added = Set(after.keys).subtracting(before.keys).compactMap { after[$0] }
        #expect(added.count == 2)
        let stopped = try #require(added.first { $0.replacesRunningId == running.recordId })
        #expect(stopped.start == running.start)
        #expect(stopped.end == Instant(seconds: 1_795_885_200))
        #expect(added.filter { $0.recordId != stopped.recordId }.map(\.tagName) == ["client B"])
        #expect(updated.report.running == 0)
    }
}
