import Testing

@testable import StintCore

/// Plans of the fixtures in `Events/import/`, and a log to import them into.
enum ImportPlans {
    static func timewarrior(_ path: String = "timewarrior/export.json", preferredTags: [String] = []) throws
        -> ImportPlan
    {
        ImportPlan.make(
            intervals: try TimewarriorExport.parse(try ImportFixtures.bytes(path)),
            options: ImportOptions(preferredTags: preferredTags))
    }

    static func watson(_ directory: String = "watson") throws -> ImportPlan {
        ImportPlan.make(
            intervals: try WatsonFrames.parse(
                frames: try ImportFixtures.bytes(directory + "/frames"),
                state: try ImportFixtures.bytes(directory + "/state")))
    }

    /// A New York log a day after the fixtures' last interval.
    static func log() -> TestLog {
        TestLog(zone: "America/New_York", now: "2026-11-29T15:00:00.000Z")
    }
}

extension TestLog {
    /// Runs an import and returns what it did.
    @discardableResult
    mutating func importing(_ plan: ImportPlan, from system: ImportSystem, force: Bool = false) throws
        -> ImportChanges
    {
        let decision = try run(.import(plan, from: system, force: force))
        guard case .imported(let changes) = decision.outcome else {
            Issue.record("an import decided \(decision.outcome)")
            return ImportChanges(system: system)
        }
        return changes
    }

    /// The record of the interval that starts at `start` (canonical UTC).
    func record(startingAt start: String) -> Record? {
        state.records.values.first { $0.start == instant(start) }
    }

    /// The record's tag name.
    func tagName(of record: Record?) -> String? {
        record?.tagId.flatMap { state.tags[$0]?.name }
    }
}

@Suite struct ImportDecideTests {
    @Test func aFirstImportAddsEveryRecordAndCreatesTagsInTheSameBatch() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.timewarrior()
        let decision = try log.run(.import(plan, from: .timewarrior))
        let types = decision.events.map(\.type)
        let tagCount = types.count { $0 == .tagCreated }
        #expect(types.prefix(tagCount).allSatisfy { $0 == .tagCreated })
        #expect(types.dropFirst(tagCount).allSatisfy { $0 == .recordImported })
        #expect(types.count - tagCount == plan.records.count)
        // One tag per name compared case-insensitively, in the spelling of the earliest record.
        #expect(decision.createdTags.map(\.name) == plan.report.tagNames)
        #expect(log.state.records.count == plan.records.count)
        for imported in plan.records {
            let record = try #require(log.record(imported.recordId))
            #expect(record.start == imported.start && record.end == imported.end)
            #expect(record.comment == imported.comment)
            #expect(log.tagName(of: record)?.lowercased() == imported.tagName?.lowercased())
            #expect(log.state.importProvenance[imported.recordId]?.source == imported.source)
        }
        #expect(log.state.runningRecords.map(\.id) == plan.records.filter(\.isRunning).map(\.recordId))
    }

    @Test(arguments: [ImportSystem.timewarrior, .watson])
    func importingTheSameFileAgainAppendsNothing(system: ImportSystem) throws {
        var log = ImportPlans.log()
        let plan = system == .timewarrior ? try ImportPlans.timewarrior() : try ImportPlans.watson()
        try log.importing(plan, from: system)
        let count = log.events.count
        let changes = try log.importing(plan, from: system)
        #expect(log.events.count == count)
        #expect(changes.isEmpty && changes.unchanged == plan.records.count)
        #expect(changes.vanished.isEmpty && changes.kept.isEmpty)
    }

    @Test func anUpdatedTimewarriorExportEditsWhatChangedAndAddsWhatIsNew() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.timewarrior(), from: .timewarrior)
        let before = log.events.count
        let updated = try ImportPlans.timewarrior("timewarrior/updated/export.json")
        let changes = try log.importing(updated, from: .timewarrior)
        let batch = log.events.dropFirst(before).map(\.type)
        #expect(batch.sorted() == ["record.imported", "record.reimported", "record.reimported"])
        #expect(changes.added.map(\.record.start) == [instant("2026-11-27T14:00:00.000Z")])
        #expect(
            changes.updated.map(\.before.start) == [
                instant("2026-10-26T17:00:00.000Z"), instant("2026-11-28T13:00:00.000Z"),
            ])
        #expect(changes.updated.map(\.changed) == [[.end, .comment], [.end]])
        #expect(changes.updated.map(\.completed) == [false, true])
        #expect(changes.unchanged == updated.records.count - 3)
        let edited = try #require(log.record(startingAt: "2026-10-26T17:00:00.000Z"))
        #expect(edited.end == instant("2026-10-26T22:00:00.000Z"))
        #expect(edited.comment == "Tags: billable, dev")
        #expect(log.state.runningRecords.isEmpty)
        // Importing the updated export again is a no-op too.
        let count = log.events.count
        try log.importing(updated, from: .timewarrior)
        #expect(log.events.count == count)
    }

    @Test func aWatsonFrameThatWasRunningCompletesItsRecordInsteadOfAddingOne() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        let running = try #require(log.state.runningRecords.first)
        let updated = try ImportPlans.watson("watson/updated")
        let changes = try log.importing(updated, from: .watson)
        #expect(log.state.records.count == updated.records.count)
        let completed = try #require(changes.updated.first { $0.completed })
        #expect(completed.before.id == running.id && completed.after.id == running.id)
        #expect(completed.after.end == instant("2026-11-28T17:00:00.000Z"))
        let frame = try #require(updated.records.first { $0.replacesRunningId == running.id })
        // The record now stands for the frame: importing again matches it, and it is not "vanished".
        #expect(log.state.importProvenance[running.id]?.source == frame.source)
        #expect(changes.vanished.isEmpty)
        let count = log.events.count
        let again = try log.importing(updated, from: .watson)
        #expect(log.events.count == count && again.unchanged == updated.records.count)
    }

    @Test func editsMadeInStintToValuesTheSourceDidNotChangeAreKept() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.timewarrior()
        try log.importing(plan, from: .timewarrior)
        let id = try #require(log.record(startingAt: "2026-10-26T17:00:00.000Z")).id
        try log.run(.edit(record: RecordRef(id.uuidString), comment: "fixed in Stint"))
        let count = log.events.count
        let again = try log.importing(plan, from: .timewarrior)
        #expect(log.events.count == count)
        #expect(again.kept.map(\.record.id) == [id] && again.kept.map(\.fields) == [[.comment]])
        // The source changes the end (and the tags, so the comment): the end is taken, and so is the comment,
        // which both sides changed (the source wins).
        let updated = try log.importing(
            try ImportPlans.timewarrior("timewarrior/updated/export.json"), from: .timewarrior)
        let update = try #require(updated.updated.first { $0.before.id == id })
        #expect(update.overwritten == [.comment])
        #expect(log.record(id)?.comment == "Tags: billable, dev")
    }

    @Test func aTimerStoppedInStintStaysStoppedWhileTheSourceStillShowsItRunning() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.timewarrior()
        try log.importing(plan, from: .timewarrior)
        try log.run(.stop(at: log.time("2026-11-28T11:30")))
        let count = log.events.count
        let changes = try log.importing(plan, from: .timewarrior)
        #expect(log.events.count == count)
        #expect(changes.kept.map(\.fields) == [[.end]])
        #expect(log.state.runningRecords.isEmpty)
        // When Timewarrior stops it too, its end wins (both changed it).
        let updated = try log.importing(
            try ImportPlans.timewarrior("timewarrior/updated/export.json"), from: .timewarrior)
        let stopped = try #require(updated.updated.first { $0.changed == [.end] })
        #expect(stopped.overwritten == [.end] && !stopped.completed)
        #expect(stopped.after.end == instant("2026-11-28T17:00:00.000Z"))
    }

    @Test func aWatsonFrameCanceledInWatsonIsListedAsNoLongerThere() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        let running = try #require(log.state.runningRecords.first)
        let frames = try ImportFixtures.bytes("watson/frames")
        let canceled = ImportPlan.make(intervals: try WatsonFrames.parse(frames: frames, state: Array("{}".utf8)))
        let changes = try log.importing(canceled, from: .watson)
        #expect(changes.vanished.map(\.record.id) == [running.id])
        #expect(changes.vanished.first?.source.identity.hasPrefix("running/") == true)
        #expect(log.state.runningRecords.map(\.id) == [running.id])
    }

    @Test func aStintEditAndASourceChangeToOtherFieldsAreMerged() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        let id = try #require(log.record(startingAt: "2026-10-26T17:00:00.000Z")).id
        try log.run(.edit(record: RecordRef(id.uuidString), start: log.time("2026-10-26T13:30"), tag: .name("Admin")))
        let changes = try log.importing(try ImportPlans.watson("watson/updated"), from: .watson)
        let update = try #require(changes.updated.first { $0.before.id == id })
        #expect(update.changed == [.end, .comment] && update.kept == [.start, .tag] && update.overwritten.isEmpty)
        let record = try #require(log.record(id))
        #expect(record.start == instant("2026-10-26T17:30:00.000Z"))
        #expect(record.end == instant("2026-10-26T22:00:00.000Z"))
        #expect(log.tagName(of: record) == "Admin")
        #expect(record.comment == "Tags: dev, backend, billable")
        // The log remembers the source's values, not the merged ones.
        #expect(log.state.importProvenance[id]?.values.start == instant("2026-10-26T17:00:00.000Z"))
        let events = log.events.filter { $0.data["recordId"]?.stringValue == id.uuidString }
        #expect(events.suffix(2).map(\.type) == ["record.reimported", "record.edited"])
    }

    @Test func aMergeThatWouldEndBeforeItStartsTakesTheSourcesValues() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        let id = try #require(log.record(startingAt: "2026-10-26T17:00:00.000Z")).id
        // Stint moves the start after the end the source will give (18:00 local, 22:00Z).
        try log.run(
            .edit(
                record: RecordRef(id.uuidString), start: log.time("2026-10-26T18:30"), end: log.time("2026-10-26T19:00")
            ))
        let changes = try log.importing(try ImportPlans.watson("watson/updated"), from: .watson)
        let update = try #require(changes.updated.first { $0.before.id == id })
        #expect(update.overwritten.contains(.start) && update.kept.isEmpty)
        #expect(log.record(id)?.start == instant("2026-10-26T17:00:00.000Z"))
        #expect(log.record(id)?.end == instant("2026-10-26T22:00:00.000Z"))
    }

    @Test func aRecordDeletedInStintStaysDeleted() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.timewarrior()
        try log.importing(plan, from: .timewarrior)
        let id = plan.records[1].recordId
        try log.run(.delete(record: RecordRef(id.uuidString)))
        let count = log.events.count
        let changes = try log.importing(
            try ImportPlans.timewarrior("timewarrior/updated/export.json"), from: .timewarrior)
        #expect(changes.leftDeleted.map(\.recordId) == [id])
        #expect(log.record(id) == nil)
        // The other change (the running record, completed) and the new interval.
        #expect(log.events.dropFirst(count).map(\.type) == ["record.imported", "record.reimported"])
    }

    @Test func recordsNoLongerInTheFileAreListedAndKept() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.timewarrior()
        try log.importing(plan, from: .timewarrior)
        var partial = plan
        partial.records.removeFirst(2)
        let changes = try log.importing(partial, from: .timewarrior)
        #expect(changes.vanished.map(\.record.id) == plan.records.prefix(2).map(\.recordId))
        #expect(changes.vanished.first?.source == plan.records[0].source)
        #expect(log.state.records.count == plan.records.count)
        // Records imported from another system are not this import's business.
        let watson = try log.importing(ImportPlan(records: [], report: ImportReport()), from: .watson)
        #expect(watson.vanished.isEmpty)
    }

    @Test func undoingAnImportRevertsItAllAndTheFileCanBeImportedAgain() throws {
        var log = ImportPlans.log()
        try log.run(
            .track(start: log.time("2026-11-20T09:00"), end: log.time("2026-11-20T10:00"), tag: .name("clienta")))
        let before = log.snapshot
        let plan = try ImportPlans.timewarrior()
        try log.importing(plan, from: .timewarrior)
        let imported = log.snapshot
        try log.run(.undo)
        #expect(log.snapshot.records == before.records)
        #expect(log.state.importProvenance.isEmpty)
        #expect(log.state.tags.values.filter { !$0.isDeleted }.map(\.name) == ["clienta"])
        try log.run(.redo)
        #expect(log.snapshot.records == imported.records)
        try log.run(.undo)
        let again = try log.importing(plan, from: .timewarrior)
        #expect(again.added.count == plan.records.count)
    }

    @Test func undoingAReimportRestoresTheRecordAndWhatTheLogRemembersOfTheSource() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        let id = try #require(log.record(startingAt: "2026-10-26T17:00:00.000Z")).id
        try log.run(.edit(record: RecordRef(id.uuidString), comment: "mine"))
        let state = log.state
        let updated = try ImportPlans.watson("watson/updated")
        try log.importing(updated, from: .watson)
        try log.run(.undo)
        #expect(log.state.records == state.records)
        #expect(log.state.importProvenance == state.importProvenance)
        #expect(log.state.runningRecordIds == state.runningRecordIds)
        try log.run(.redo)
        try log.run(.undo)
        #expect(log.state.records == state.records && log.state.importProvenance == state.importProvenance)
        // And the update can be imported again, with the same result as the first time.
        let changes = try log.importing(updated, from: .watson)
        #expect(changes.updated.count == 2 && changes.added.count == 1)
    }

    @Test func recordsLongerThanSevenDaysNeedForce() throws {
        var log = ImportPlans.log()
        var plan = try ImportPlans.timewarrior()
        let index = try #require(plan.records.firstIndex { !$0.isRunning })
        plan.records[index].end = plan.records[index].start.adding(
            milliseconds: InputLimits.maximumRecordMilliseconds + 1)
        let count = log.events.count
        #expect(
            errorCode { () throws(DomainError) in try log.run(.import(plan, from: .timewarrior)) } == .recordTooLong)
        #expect(log.events.count == count)
        try log.importing(plan, from: .timewarrior, force: true)
        #expect(log.record(plan.records[index].recordId)?.end == plan.records[index].end)
    }

    @Test func recordsLongerThan366DaysAreRefusedEvenWithForce() throws {
        var log = ImportPlans.log()
        var plan = try ImportPlans.timewarrior()
        let index = try #require(plan.records.firstIndex { !$0.isRunning })
        plan.records[index].start = plan.records[index].end!.adding(
            milliseconds: -InputLimits.longestForcedRecordMilliseconds - 1)
        let count = log.events.count
        let error = domainError { () throws(DomainError) in
            try log.run(.import(plan, from: .timewarrior, force: true))
        }
        #expect(error?.code == .recordTooLong)
        #expect(error?.message.contains(plan.records[index].position.description) == true)
        #expect(log.events.count == count)
        plan.records[index].start = plan.records[index].start.adding(milliseconds: 1)
        try log.importing(plan, from: .timewarrior, force: true)
        #expect(log.record(plan.records[index].recordId)?.start == plan.records[index].start)
    }

    @Test func aRunningRecordStartedMoreThanSevenDaysAgoNeedsForceToo() throws {
        var log = ImportPlans.log()
        log.now = instant("2026-12-05T13:00:01.000Z")
        let plan = try ImportPlans.timewarrior()
        #expect(
            errorCode { () throws(DomainError) in try log.run(.import(plan, from: .timewarrior)) } == .recordTooLong)
    }

    @Test func timesAfterNowAreRefused() throws {
        var log = ImportPlans.log()
        log.now = instant("2026-11-28T12:00:00.000Z")
        let plan = try ImportPlans.timewarrior()
        let error = try #require(
            domainError { () throws(DomainError) in try log.run(.import(plan, from: .timewarrior)) })
        #expect(error.code == .timeInFuture && error.category == .refused)
        #expect(log.events.count == 1)
    }

    @Test func existingTagsAreMatchedCaseInsensitivelyArchivedOnesIncluded() throws {
        var log = ImportPlans.log()
        try log.run(.addTag(name: "CLIENTA"))
        try log.run(.archiveTag(name: "CLIENTA"))
        try log.run(.addTag(name: "oncall"))
        try log.run(.deleteTag(name: "oncall"))
        let changes = try log.importing(try ImportPlans.timewarrior(), from: .timewarrior)
        #expect(!changes.createdTags.map { $0.name.lowercased() }.contains("clienta"))
        #expect(changes.createdTags.map(\.name).contains("oncall"))
        let running = try #require(log.state.runningRecords.first)
        #expect(log.tagName(of: running) == "CLIENTA")
        #expect(log.state.tags.values.count { $0.name == "oncall" } == 2)
    }

    @Test func aTagRenamedInStintIsNotAChangeOfTheSource() throws {
        var log = ImportPlans.log()
        let plan = try ImportPlans.watson()
        try log.importing(plan, from: .watson)
        try log.run(.renameTag(name: "clientA", newName: "Client A (Acme)"))
        let count = log.events.count
        let changes = try log.importing(plan, from: .watson)
        #expect(log.events.count == count && changes.unchanged == plan.records.count)
        #expect(log.tag("clientA") == nil)
    }

    @Test func theProvenanceSurvivesACheckpoint() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        try log.run(.renameTag(name: "clientA", newName: "Client A"))
        let restored = try CompactCheckpointTests().restore(log.state.compactCheckpoint)
        #expect(restored == log.state)
        #expect(!restored.importProvenance.isEmpty)
    }
}
