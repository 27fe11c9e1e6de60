import Testing

@testable import StintCore

/// A ``ProjectionState`` cut at its horizon and folded on gives the projections of the full state, also
/// when later events reach the records it left out.
@Suite struct ProjectionStateTests {
    /// A log whose first records lie two months before "now", and the state of it cut at the end.
    func logWithOldRecords() throws -> (TestLog, ProjectionState) {
        var log = TestLog(zone: "Europe/Berlin", now: "2026-11-29T09:00:00.000Z")
        try log.run(.track(start: log.time("60d ago"), end: log.time("59d ago"), tag: .name("old")))
        try log.run(.track(start: log.time("45d ago"), end: log.time("44d ago"), tag: .name("older"), comment: "c"))
        try log.run(.track(start: log.time("08:00"), end: log.time("08:30"), tag: .name("today")))
        try log.run(.start(tag: .name("running")))
        let cut = ProjectionState(log.state)
        return (log, cut)
    }

    /// Folds the events after `state`'s point and compares the projections at several `now`s.
    func expectSameProjections(_ log: TestLog, from state: ProjectionState, _ comment: Comment) throws {
        var state = state
        for event in log.events where event.seq > state.lastSeq { try state.apply(event) }
        #expect(state.lastSeq == log.state.lastSeq)
        let at = log.state.lastAt
        for now in [at, at.adding(milliseconds: 3_600_000), at.adding(milliseconds: 40 * 86_400_000)] {
            let full = WidgetData(source: log.state.projectionSource, now: now)
            #expect(WidgetData(source: state.projectionSource, now: now) == full, comment)
            #expect(
                LiveActivityContent(source: state.projectionSource)
                    == LiveActivityContent(source: log.state.projectionSource), comment)
        }
    }

    @Test func theCutKeepsTheWindowTheRunningRecordsAndEveryTag() throws {
        let (log, cut) = try logWithOldRecords()
        #expect(log.state.records.count == 4)
        #expect(cut.records.count == 2, "the records of 60 and 45 days ago are left out")
        #expect(cut.tags == log.state.tags)
        #expect(cut.recentTagIds == log.state.recentTagIds)
        #expect(cut.horizon <= WidgetPeriod.earliestStart(at: log.state.lastAt, calendar: log.state.calendar))
        try expectSameProjections(log, from: cut, "right after the cut")
    }

    @Test func eventsReachingLeftOutRecordsCarryTheirValues() throws {
        var (log, cut) = try logWithOldRecords()
        let old = try #require(log.state.records.values.first { $0.comment == "c" })
        // An old record edited into this week, then the edit undone, then redone.
        try log.run(.edit(record: RecordRef(old.id), start: log.time("07:00"), end: log.time("07:45")))
        try expectSameProjections(log, from: cut, "edited into the window")
        try log.run(.undo)
        try expectSameProjections(log, from: cut, "edit undone")
        try log.run(.redo)
        try expectSameProjections(log, from: cut, "edit redone")
        // A left-out record deleted, and the delete undone (record.restored with its values).
        let older = try #require(log.state.records.values.first { $0.tagId == log.tag("old")?.id })
        try log.run(.delete(record: RecordRef(older.id)))
        try log.run(.undo)
        try expectSameProjections(log, from: cut, "old record deleted and restored")
        // Tags renamed, archived and deleted; the running timer stopped.
        try log.run(.renameTag(name: "older", newName: "oldest"))
        try log.run(.archiveTag(name: "today"))
        try log.run(.deleteTag(name: "running"))
        try log.run(.stop(all: true))
        try expectSameProjections(log, from: cut, "tags changed, timer stopped")
    }

    @Test func pruningMovesTheHorizonAndTheCheckpointRoundTrips() throws {
        var (log, cut) = try logWithOldRecords()
        try log.run(.stop(all: true))
        log.advance(minutes: 50 * 24 * 60)
        try log.run(.start(tag: .name("later")))
        var state = cut
        for event in log.events where event.seq > state.lastSeq { try state.apply(event) }
        let before = state.records.count
        state.prune()
        #expect(state.records.count < before)
        #expect(state.horizon == ProjectionState.horizon(at: log.state.lastAt, calendar: log.state.calendar))
        try expectSameProjections(log, from: state, "after pruning")
        #expect(try ProjectionState(checkpoint: state.checkpointJSON) == state)
        #expect(try ProjectionState(checkpoint: JSON.parse(Array(state.checkpointJSON.encoded()))) == state)
    }

    @Test func surprisesAreErrorsThatChangeNothing() throws {
        let (log, cut) = try logWithOldRecords()
        var state = cut
        // (An event that does not follow the state's last one is the store's to refuse: EventStoreContractTests.)
        // A stop of a record it does not hold.
        let stop = try #require(
            TestLog.place(
                [.timerStopped(recordId: SequentialIDs.id(99), end: log.now)], after: state.lastSeq, at: log.now
            )
            .first)
        #expect(throws: DomainError.self) { try state.apply(stop) }
        #expect(state == cut)
    }
}
