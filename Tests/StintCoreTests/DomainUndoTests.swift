import Testing

@testable import StintCore

@Suite struct DomainUndoTests {
    /// A log with two tags (one archived), a completed record, a running timer and a deleted record.
    static func fixture() throws -> TestLog {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))  // tag 0001
        try log.run(.addTag(name: "Old"))  // tag 0002
        try log.run(.archiveTag(name: "Old"))
        try log.run(.track(start: log.time("06:00"), end: log.time("08:00"), tag: .name("Work"), comment: "c"))  // 0003
        try log.run(.start(tag: .name("Work"), at: log.time("08:00")))  // 0004
        try log.run(.track(start: log.time("05:00"), end: log.time("05:30")))  // 0005
        try log.run(.delete(record: try RecordRef("0005")))
        return log
    }

    static let commands: [(String, Command)] = [
        ("start with a new tag", .start(tag: .name("New"), comment: "n")),
        ("start switching", .start(tag: .name("work"), switching: true)),
        ("stop", .stop()),
        ("stop all", .stop(all: true)),
        (
            "track",
            .track(
                start: ParsedTime(instant("2026-11-29T04:00:00.000Z")),
                end: ParsedTime(instant("2026-11-29T04:30:00.000Z")), tag: .name("Fresh"))
        ),
        (
            "edit",
            .edit(
                record: try! RecordRef("0003"), start: ParsedTime(instant("2026-11-29T05:45:00.000Z")), tag: .untagged,
                comment: "")
        ),
        (
            "edit stopping a timer",
            .edit(record: try! RecordRef("0004"), end: ParsedTime(instant("2026-11-29T08:30:00.000Z")))
        ),
        ("delete", .delete(record: try! RecordRef("0003"))),
        ("delete a running timer", .delete(record: try! RecordRef("0004"))),
        ("cancel", .cancel()),
        ("continue", .continue(switching: true)),
        ("split", .split(record: try! RecordRef("0003"), at: ParsedTime(instant("2026-11-29T06:10:00.000Z")))),
        (
            "split a running timer",
            .split(record: try! RecordRef("0004"), at: ParsedTime(instant("2026-11-29T08:10:00.000Z")))
        ),
        ("join", .join(first: try! RecordRef("0003"), second: try! RecordRef("0004"))),
        ("tag add", .addTag(name: "Added")),
        ("tag rename", .renameTag(name: "work", newName: "Job")),
        ("tag archive", .archiveTag(name: "Work")),
        ("tag unarchive", .unarchiveTag(name: "Old")),
        ("tag delete", .deleteTag(name: "Work")),
    ]

    /// `after` equals `before` except for the recent tags, and except that tags the undone command created
    /// are still there, deleted.
    static func expectRestored(_ after: Snapshot, _ before: Snapshot, _ label: String) {
        #expect(after.records == before.records, "\(label)")
        for (id, tag) in after.tags {
            if let old = before.tags[id] {
                #expect(tag == old, "\(label)")
            } else {
                #expect(tag.isDeleted, "\(label): tag \(tag.name) created by the undone command")
            }
        }
        #expect(Set(before.tags.keys).isSubset(of: Set(after.tags.keys)), "\(label)")
    }

    @Test(arguments: commands)
    func undoRestoresTheStateBeforeTheCommandAndRedoTheStateAfterIt(label: String, command: Command) throws {
        var log = try Self.fixture()
        log.advance(minutes: 60)
        let before = log.snapshot
        let decision = try log.run(command)
        #expect(!decision.events.isEmpty, "\(label)")
        let after = log.snapshot
        let batch = log.state.lastSeq - Int64(decision.events.count) + 1

        log.advance(minutes: 1)
        let undo = try log.run(.undo)
        #expect(undo.events.first == .commandUndone(tx: batch))
        Self.expectRestored(log.snapshot, before, label)

        let redo = try log.run(.redo)
        #expect(redo.events.first == .commandRedone(tx: batch + Int64(decision.events.count)))
        #expect(log.snapshot.records == after.records, "\(label)")
        #expect(log.snapshot.tags == after.tags, "\(label)")

        // The redo can itself be undone.
        try log.run(.undo)
        Self.expectRestored(log.snapshot, before, label)
    }

    @Test func undoDoesNotTakeBackARecentTagUse() throws {
        var log = TestLog()
        try log.run(.addTag(name: "A"))
        try log.run(.addTag(name: "B"))
        try log.run(.start(tag: .name("A")))
        try log.run(.start(tag: .name("B")))
        try log.run(.undo)
        #expect(log.state.recentTagIds == [SequentialIDs.id(2), SequentialIDs.id(1)])
    }

    @Test func undoTwiceUndoesTheTwoLastCommandsAndRedoGoesForward() throws {
        var log = TestLog()
        let empty = log.snapshot
        try log.run(.start())
        let one = log.snapshot
        try log.run(.addTag(name: "T"))
        let two = log.snapshot
        try log.run(.undo)
        Self.expectRestored(log.snapshot, one, "first undo")
        try log.run(.undo)
        Self.expectRestored(log.snapshot, empty, "second undo")
        #expect(log.snapshot.records.isEmpty)
        #expect(errorCode { () throws(DomainError) in try log.run(.undo) } == .nothingToUndo)
        try log.run(.redo)
        Self.expectRestored(log.snapshot, one, "first redo")
        try log.run(.redo)
        #expect(log.snapshot == two)
        #expect(errorCode { () throws(DomainError) in try log.run(.redo) } == .nothingToRedo)
    }

    @Test func aNewCommandAfterAnUndoClearsTheRedoStack() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.start())
        try log.run(.undo)
        try log.run(.undo)
        try log.run(.redo)
        #expect(log.state.redoStack.count == 1)
        try log.run(.addTag(name: "X"))
        #expect(log.state.redoStack.isEmpty)
        #expect(errorCode { () throws(DomainError) in try log.run(.redo) } == .nothingToRedo)
        // Undo now reverts the tag, then the redone start.
        try log.run(.undo)
        #expect(log.state.tags[SequentialIDs.id(3)]?.isDeleted == true)
        try log.run(.undo)
        #expect(log.state.records.isEmpty)
        #expect(errorCode { () throws(DomainError) in try log.run(.undo) } == .nothingToUndo)
    }

    @Test func undoOnANewLogIsRefused() {
        var log = TestLog()
        let error = domainError { () throws(DomainError) in try log.run(.undo) }
        #expect(error?.code == .nothingToUndo)
        #expect(error?.category == .refused)
        #expect(errorCode { () throws(DomainError) in try log.run(.redo) } == .nothingToRedo)
    }

    @Test func aNoOpCommandLeavesTheUndoStackAlone() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.stop())
        let stack = log.state.undoStack
        try log.run(.stop(all: true))
        #expect(log.state.undoStack == stack)
    }
}
