import Testing

@testable import StintCore

/// Folds batches of events after a fixed `log.created`, as a writer would place them.
struct Folder {
    static let at = Instant(canonical: "2026-11-29T10:00:00.000Z")!
    static let genesis = RecordedEvent(
        seq: 1, at: at, type: "log.created", version: 1, prev: RecordedEvent.genesisPrev,
        data: DomainEvent.logCreated(LogSettings(logId: TestLog.logId, calendar: .utc)).data)
    static let initial = try! LogState(genesis: genesis)

    static func fold(_ batches: [DomainEvent]...) throws(DomainError) -> LogState {
        var state = initial
        for batch in batches {
            for event in TestLog.place(batch, after: state.lastSeq, at: at) { try state.apply(event) }
        }
        return state
    }
}

@Suite struct DomainFoldTests {
    let tag = SequentialIDs.id(1)
    let other = SequentialIDs.id(2)
    let record = SequentialIDs.id(3)
    let t0 = instant("2026-11-29T08:00:00.000Z")
    let t1 = instant("2026-11-29T09:00:00.000Z")
    let at = Folder.at

    /// The state after `seq` events with nothing else in it.
    func base(_ seq: Int64) -> LogState {
        var state = Folder.initial
        state.lastSeq = seq
        return state
    }

    var work: StintCore.Tag { StintCore.Tag(id: tag, name: "Work", color: "#3A7BD5") }

    @Test func logCreatedGivesTheSettingsAndNothingElse() {
        let expected = LogState(
            settings: LogSettings(logId: TestLog.logId, calendar: .utc), tags: [:], records: [:],
            deletedRecordIds: [], runningRecordIds: [], recentTagIds: [], undoStack: [], redoStack: [], lastSeq: 1,
            lastAt: at, batch: LogState.OpenBatch(start: 1, at: at, target: .none, grouped: false))
        #expect(Folder.initial == expected)
    }

    @Test func tagCreatedAddsTheTag() throws {
        var expected = base(2)
        expected.tags = [tag: work]
        expected.undoStack = [UndoEntry(batchStart: 2, inverses: [.tagDeleted(tagId: tag)])]
        expected.batch = .init(start: 2, at: at, target: .undo)
        #expect(try Folder.fold([.tagCreated(tagId: tag, name: "Work", color: "#3A7BD5")]) == expected)
    }

    @Test func tagEventsChangeTheTag() throws {
        let created = DomainEvent.tagCreated(tagId: tag, name: "Work", color: "#3A7BD5")
        var renamed = work
        renamed.name = "Focus"
        #expect(try Folder.fold([created], [.tagRenamed(tagId: tag, name: "Focus")]).tags == [tag: renamed])
        #expect(
            try Folder.fold([created], [.tagRenamed(tagId: tag, name: "Focus")]).undoStack.last
                == UndoEntry(batchStart: 3, inverses: [.tagRenamed(tagId: tag, name: "Work")]))
        var archived = work
        archived.isArchived = true
        #expect(try Folder.fold([created], [.tagArchived(tagId: tag)]).tags == [tag: archived])
        #expect(
            try Folder.fold([created], [.tagArchived(tagId: tag)], [.tagUnarchived(tagId: tag)]).tags == [tag: work])
        var deleted = work
        deleted.isDeleted = true
        let afterDelete = try Folder.fold([created], [.tagDeleted(tagId: tag)])
        #expect(afterDelete.tags == [tag: deleted])
        #expect(afterDelete.tag(named: "work") == nil)
        #expect(afterDelete.undoStack.last?.inverses == [.tagRestored(tagId: tag)])
        let restored = try Folder.fold([created], [.tagDeleted(tagId: tag)], [.tagRestored(tagId: tag)])
        #expect(restored.tags == [tag: work])
        #expect(restored.undoStack.last?.inverses == [.tagDeleted(tagId: tag)])
    }

    @Test func timerStartedAddsARunningRecordAndARecentTag() throws {
        var expected = base(3)
        expected.tags = [tag: work]
        expected.records = [record: Record(id: record, start: t0, tagId: tag, comment: "c")]
        expected.runningRecordIds = [record]
        expected.recentTagIds = [tag]
        expected.undoStack = [
            UndoEntry(batchStart: 2, inverses: [.recordDeleted(recordId: record), .tagDeleted(tagId: tag)])
        ]
        expected.batch = .init(start: 2, at: at, target: .undo, grouped: true)
        #expect(
            try Folder.fold([
                .tagCreated(tagId: tag, name: "Work", color: "#3A7BD5"),
                .timerStarted(recordId: record, start: t0, tagId: tag, comment: "c"),
            ]) == expected)
    }

    @Test func timerStoppedEndsTheRecord() throws {
        var expected = base(3)
        expected.records = [record: Record(id: record, start: t0, end: t1)]
        expected.undoStack = [
            UndoEntry(batchStart: 2, inverses: [.recordDeleted(recordId: record)]),
            UndoEntry(batchStart: 3, inverses: [.recordEdited(Record(id: record, start: t0), fields: .end)]),
        ]
        expected.batch = .init(start: 3, at: at, target: .undo)
        #expect(
            try Folder.fold(
                [.timerStarted(recordId: record, start: t0, tagId: nil, comment: nil)],
                [.timerStopped(recordId: record, end: t1)]) == expected)
    }

    @Test func timerCanceledDeletesTheRunningRecord() throws {
        let state = try Folder.fold(
            [.timerStarted(recordId: record, start: t0, tagId: nil, comment: nil)], [.timerCanceled(recordId: record)])
        #expect(state.records.isEmpty)
        #expect(state.runningRecordIds.isEmpty)
        #expect(state.deletedRecordIds == [record])
        #expect(state.undoStack.last?.inverses == [.recordRestored(Record(id: record, start: t0))])
    }

    @Test func recordTrackedAddsACompletedRecord() throws {
        var expected = base(3)
        expected.tags = [tag: work]
        expected.records = [record: Record(id: record, start: t0, end: t1, tagId: tag)]
        expected.recentTagIds = [tag]
        expected.undoStack = [
            UndoEntry(batchStart: 2, inverses: [.tagDeleted(tagId: tag)]),
            UndoEntry(batchStart: 3, inverses: [.recordDeleted(recordId: record)]),
        ]
        expected.batch = .init(start: 3, at: at, target: .undo)
        #expect(
            try Folder.fold(
                [.tagCreated(tagId: tag, name: "Work", color: "#3A7BD5")],
                [.recordTracked(recordId: record, start: t0, end: t1, tagId: tag, comment: nil)]) == expected)
    }

    @Test func recordEditedReplacesAllValuesAndCanMakeARecordRunAgain() throws {
        let tracked = DomainEvent.recordTracked(recordId: record, start: t0, end: t1, tagId: nil, comment: "x")
        let state = try Folder.fold([tracked], [.recordEdited(Record(id: record, start: t1), fields: [.start, .end])])
        #expect(state.records == [record: Record(id: record, start: t1)])
        #expect(state.runningRecordIds == [record])
        #expect(
            state.undoStack.last?.inverses == [
                .recordEdited(Record(id: record, start: t0, end: t1, comment: "x"), fields: [.start, .end])
            ])
    }

    @Test func recordDeletedAndRestored() throws {
        let tracked = DomainEvent.recordTracked(recordId: record, start: t0, end: t1, tagId: nil, comment: nil)
        let deleted = try Folder.fold([tracked], [.recordDeleted(recordId: record)])
        #expect(deleted.records.isEmpty)
        #expect(deleted.deletedRecordIds == [record])
        #expect(deleted.undoStack.last?.inverses == [.recordRestored(Record(id: record, start: t0, end: t1))])
        let restored = try Folder.fold(
            [tracked], [.recordDeleted(recordId: record)], [.recordRestored(Record(id: record, start: t0))])
        #expect(restored.records == [record: Record(id: record, start: t0)])
        #expect(restored.runningRecordIds == [record])
        #expect(restored.deletedRecordIds.isEmpty)
        #expect(restored.undoStack.last?.inverses == [.recordDeleted(recordId: record)])
    }

    @Test func runningTimersAreOrderedByStartThenId() throws {
        let a = SequentialIDs.id(10)
        let b = SequentialIDs.id(11)
        let c = SequentialIDs.id(12)
        let state = try Folder.fold(
            [.timerStarted(recordId: c, start: t1, tagId: nil, comment: nil)],
            [.timerStarted(recordId: b, start: t0, tagId: nil, comment: nil)],
            [.timerStarted(recordId: a, start: t1, tagId: nil, comment: nil)])
        #expect(state.runningRecordIds == [b, a, c])
        #expect(state.runningRecords.map(\.id) == [b, a, c])
    }

    @Test func undoAndRedoMarkersMoveEntriesBetweenTheStacks() throws {
        let start = DomainEvent.timerStarted(recordId: record, start: t0, tagId: nil, comment: nil)
        let undone = try Folder.fold([start], [.commandUndone(tx: 2), .recordDeleted(recordId: record)])
        var expected = base(4)
        expected.deletedRecordIds = [record]
        expected.redoStack = [UndoEntry(batchStart: 3, inverses: [.recordRestored(Record(id: record, start: t0))])]
        expected.batch = .init(start: 3, at: at, target: .redo, grouped: true)
        #expect(undone == expected)

        let redone = try Folder.fold(
            [start], [.commandUndone(tx: 2), .recordDeleted(recordId: record)],
            [.commandRedone(tx: 3), .recordRestored(Record(id: record, start: t0))])
        expected.lastSeq = 6
        expected.deletedRecordIds = []
        expected.records = [record: Record(id: record, start: t0)]
        expected.runningRecordIds = [record]
        expected.redoStack = []
        expected.undoStack = [UndoEntry(batchStart: 5, inverses: [.recordDeleted(recordId: record)])]
        expected.batch = .init(start: 5, at: at, target: .undo, grouped: true)
        #expect(redone == expected)
    }

    @Test func aNewCommandClearsTheRedoStackButARedoDoesNot() throws {
        let first = DomainEvent.timerStarted(recordId: record, start: t0, tagId: nil, comment: nil)
        let second = DomainEvent.timerStarted(recordId: other, start: t0, tagId: nil, comment: nil)
        let twoUndone = try Folder.fold(
            [first], [second], [.commandUndone(tx: 3), .recordDeleted(recordId: other)],
            [.commandUndone(tx: 2), .recordDeleted(recordId: record)])
        #expect(twoUndone.redoStack.map(\.batchStart) == [4, 6])
        #expect(twoUndone.undoStack.isEmpty)
        var redone = twoUndone
        for event in TestLog.place(
            [.commandRedone(tx: 6), .recordRestored(Record(id: record, start: t0))], after: 7, at: at)
        {
            try redone.apply(event)
        }
        #expect(redone.redoStack.map(\.batchStart) == [4])
        var cleared = redone
        for event in TestLog.place([.tagCreated(tagId: tag, name: "W", color: "#000000")], after: 9, at: at) {
            try cleared.apply(event)
        }
        #expect(cleared.redoStack.isEmpty)
        #expect(cleared.undoStack.map(\.batchStart) == [8, 10])
    }

    @Test func theUndoStackKeepsTheLastHundredBatches() throws {
        var state = Folder.initial
        for number in 1...(LogState.undoLimit + 5) {
            let id = SequentialIDs.id(UInt64(number))
            for event in TestLog.place(
                [.recordTracked(recordId: id, start: t0, end: t1, tagId: nil, comment: nil)], after: state.lastSeq,
                at: at)
            {
                try state.apply(event)
            }
        }
        #expect(state.undoStack.count == LogState.undoLimit)
        #expect(state.undoStack.first?.batchStart == 7)
    }

    @Test func theProjectionSourceHasTheLiveRecordsInOrder() throws {
        let state = try Folder.fold(
            [.tagCreated(tagId: tag, name: "Work", color: "#3A7BD5")],
            [.recordTracked(recordId: other, start: t1, end: t1, tagId: nil, comment: nil)],
            [.timerStarted(recordId: record, start: t0, tagId: tag, comment: nil)],
            [.recordTracked(recordId: SequentialIDs.id(9), start: t0, end: t1, tagId: nil, comment: nil)],
            [.recordDeleted(recordId: SequentialIDs.id(9))])
        let source = state.projectionSource
        #expect(source.calendar == .utc)
        #expect(source.tags == [tag: work])
        #expect(source.records.map(\.id) == [record, other])
        #expect(source.recentTagIds == [tag])
    }
}

@Suite struct DomainFoldErrorTests {
    let tag = SequentialIDs.id(1)
    let record = SequentialIDs.id(3)
    let t0 = instant("2026-11-29T08:00:00.000Z")
    let t1 = instant("2026-11-29T09:00:00.000Z")

    var created: DomainEvent { .tagCreated(tagId: tag, name: "Work", color: "#3A7BD5") }
    var started: DomainEvent { .timerStarted(recordId: record, start: t1, tagId: nil, comment: nil) }
    var tracked: DomainEvent { .recordTracked(recordId: record, start: t0, end: t1, tagId: nil, comment: nil) }

    /// (events before, the contradicting event)
    var cases: [([[DomainEvent]], DomainEvent)] {
        [
            ([[created]], created),
            ([[created]], .tagCreated(tagId: SequentialIDs.id(2), name: "WORK", color: "#000000")),
            ([], .tagRenamed(tagId: tag, name: "X")),
            (
                [[created], [.tagCreated(tagId: SequentialIDs.id(2), name: "Home", color: "#000000")]],
                .tagRenamed(tagId: tag, name: "home")
            ),
            ([[created], [.tagArchived(tagId: tag)]], .tagArchived(tagId: tag)),
            ([[created]], .tagUnarchived(tagId: tag)),
            ([[created], [.tagDeleted(tagId: tag)]], .tagDeleted(tagId: tag)),
            ([[created], [.tagDeleted(tagId: tag)]], .tagArchived(tagId: tag)),
            ([[created]], .tagRestored(tagId: tag)),
            (
                [
                    [created], [.tagDeleted(tagId: tag)],
                    [.tagCreated(tagId: SequentialIDs.id(2), name: "work", color: "#000000")],
                ],
                .tagRestored(tagId: tag)
            ),
            ([[started]], started),
            ([[tracked], [.recordDeleted(recordId: record)]], started),
            ([], .timerStarted(recordId: record, start: t0, tagId: tag, comment: nil)),
            (
                [[created], [.tagDeleted(tagId: tag)]],
                .timerStarted(recordId: record, start: t0, tagId: tag, comment: nil)
            ),
            ([], .timerStopped(recordId: record, end: t1)),
            ([[tracked]], .timerStopped(recordId: record, end: t1)),
            ([[started]], .timerStopped(recordId: record, end: t0)),
            ([[tracked]], .timerCanceled(recordId: record)),
            ([], .recordTracked(recordId: record, start: t1, end: t0, tagId: nil, comment: nil)),
            ([], .recordEdited(Record(id: record, start: t0), fields: .all)),
            ([[tracked]], .recordEdited(Record(id: record, start: t1, end: t0), fields: .all)),
            ([[tracked]], .recordEdited(Record(id: record, start: t0, tagId: tag), fields: .all)),
            ([], .recordDeleted(recordId: record)),
            ([[tracked]], .recordRestored(Record(id: record, start: t0))),
            ([], .recordRestored(Record(id: record, start: t0))),
            ([], .commandUndone(tx: 2)),
            ([[tracked], [created]], .commandUndone(tx: 2)),
            ([], .commandRedone(tx: 2)),
            ([], .logCreated(LogSettings(logId: TestLog.logId, calendar: .utc))),
        ]
    }

    @Test func anEventThatContradictsTheStateIsAnErrorWithItsSeqAndChangesNothing() throws {
        for (before, event) in cases {
            var state = Folder.initial
            for batch in before {
                for placed in TestLog.place(batch, after: state.lastSeq, at: Folder.at) { try state.apply(placed) }
            }
            let unchanged = state
            let placed = TestLog.place([event], after: state.lastSeq, at: Folder.at)[0]
            let error = domainError { () throws(DomainError) in try state.apply(placed) }
            #expect(error?.code == .inconsistentEvent, "\(event) after \(before)")
            #expect(error?.seq == placed.seq)
            #expect(state == unchanged)
        }
    }

    func recorded(_ event: DomainEvent, seq: Int64, at: Instant = Folder.at, tx: Int64? = nil) -> RecordedEvent {
        let draft = event.draft
        return RecordedEvent(
            seq: seq, at: at, type: draft.type, version: draft.version, tx: tx, prev: RecordedEvent.genesisPrev,
            data: draft.data)
    }

    /// The envelope (seq order, at order, whole batches) is the store's to check: EventStoreContractTests.
    @Test func undoMarkersAndPayloadsAreCheckedInTheirBatches() throws {
        var state = Folder.initial
        try state.apply(recorded(created, seq: 2, tx: 2))
        // A marker in the middle of a batch.
        try state.apply(recorded(tracked, seq: 3, tx: 2))
        #expect(
            errorCode { () throws(DomainError) in try state.apply(recorded(.commandUndone(tx: 2), seq: 4, tx: 2)) }
                == .inconsistentEvent)
        // An unreadable payload is reported with its seq.
        let bad = RecordedEvent(
            seq: 4, at: Folder.at, type: "tag.deleted", version: 1, prev: RecordedEvent.genesisPrev, data: .object([]))
        let error = domainError { () throws(DomainError) in try state.apply(bad) }
        #expect(error?.code == .invalidEventData)
        #expect(error?.seq == 4)
    }

    @Test func aLogMustStartWithLogCreated() throws {
        #expect(
            errorCode { () throws(DomainError) in try LogState(genesis: recorded(tracked, seq: 1)) }
                == .inconsistentEvent)
        #expect(errorCode { () throws(DomainError) in try LogState.fold([RecordedEvent]()) } == .inconsistentEvent)
        let folded = try LogState.fold([Folder.genesis] + TestLog.place([tracked], after: 1, at: Folder.at))
        #expect(folded.records.count == 1)
    }
}
