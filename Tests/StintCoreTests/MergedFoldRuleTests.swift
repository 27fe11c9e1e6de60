import Testing

@testable import StintCore

/// One scripted history per rule of decision 0007 §8 that the merged fold applies (1–8, 11): devices decide
/// with the real decider on their own views, the logs are merged by (hlc, device, seq) and folded.
///
/// Each test was seen to fail with its rule broken in `MergedFold` or the decider, one mutation at a time
/// (named in the test's comment; the commit that added them lists which tests each mutation failed).
@Suite struct MergedFoldRuleTests {
    typealias Space = SpaceHistory
    let a = SpaceHistory.a
    let b = SpaceHistory.b

    func only(_ fold: MergedFold, rule: Int) -> [Conflict] { fold.conflicts.filter { $0.rule == rule } }

    /// Rule 1. Mutation tried: a stop of a stopped record sets its end again (the later stop won, end 10:42).
    @Test func twoStopsOfOneTimerTheFirstInMergeOrderEndsIt() throws {
        var space = Space()
        let id = try timerKnownToB(&space)
        space.advance(minutes: 100)
        try space.run(.stop(), on: a)
        space.advance(minutes: 2)
        try space.run(.stop(), on: b)
        let fold = try space.fold()
        #expect(fold.state.records[id]?.end == instant("2026-11-30T10:40:00.000Z"))
        #expect(fold.state.runningRecordIds.isEmpty)
        let conflicts = only(fold, rule: 1)
        #expect(conflicts.count == 1)
        #expect(
            conflicts.first?.line
                == "rule 1  \(MessageFormat.short(id))  stopped twice: a1b2c3d4:5 ended it 2026-11-30 10:40; "
                + "9f8e7d6c:4 (2026-11-30 10:42) ignored")
        #expect(conflicts.first?.json["rule"] == .int(1))
    }

    /// Rule 1, for a cancel (decision 0009 pins it before the rules moved to `RecordRules`): a cancel of a timer
    /// another device stopped first is ignored, and listed.
    @Test func aCancelOfATimerStoppedFirstIsIgnoredAndListed() throws {
        var space = Space()
        let id = try timerKnownToB(&space)
        space.advance(minutes: 30)
        try space.run(.stop(), on: a)
        space.advance(minutes: 2)
        try space.run(.cancel(), on: b)
        let fold = try space.fold()
        #expect(fold.state.records[id]?.end == instant("2026-11-30T09:30:00.000Z"))
        #expect(only(fold, rule: 1).map(\.subject) == [.record(id)])
        #expect(only(fold, rule: 1).first?.line.contains("ignored") == true)
    }

    /// Rule 5, for a cancel: a cancel of a timer another device deleted first is ignored, and listed.
    @Test func aCancelOfATimerDeletedFirstIsIgnoredAndListed() throws {
        var space = Space()
        let id = try timerKnownToB(&space)
        space.advance(minutes: 30)
        try space.run(.delete(record: ref(id)), on: a)
        space.advance(minutes: 2)
        try space.run(.cancel(), on: b)
        let fold = try space.fold()
        #expect(fold.state.records[id] == nil)
        #expect(fold.state.deletedRecordIds.contains(id))
        #expect(only(fold, rule: 5).map(\.subject) == [.record(id)])
        #expect(only(fold, rule: 1).isEmpty)
    }

    /// A tag archived on one device and deleted on the other, the delete first: the archive is ignored with no
    /// listing, and the tag stays deleted.
    @Test func anArchiveOfATagDeletedFirstIsIgnored() throws {
        var space = Space()
        try space.run(.addTag(name: "mail", color: "#29BF12"), on: a)
        space.sync(b)
        space.advance(minutes: 1)
        try space.run(.deleteTag(name: "mail"), on: a)
        space.advance(minutes: 1)
        try space.run(.archiveTag(name: "mail"), on: b)
        let fold = try space.fold()
        let tag = try #require(fold.state.tags.values.first { $0.name == "mail" })
        #expect(tag.isDeleted)
        #expect(!tag.isArchived)
        #expect(fold.conflicts.isEmpty)
    }

    /// Rule 2. Mutation tried: no listing when a switch leaves an unseen timer running.
    @Test func aSwitchStopsOnlyTheTimersItsDeviceSaw() throws {
        var space = Space()
        try space.run(.start(tag: .name("mail")), on: a)
        let mine = try #require(try space.state(of: a).runningRecordIds.first)
        space.advance(minutes: 5)
        try space.run(.start(tag: .name("writing")), on: b)
        space.advance(minutes: 5)
        try space.run(.start(tag: .name("reading"), switching: true), on: b)
        let fold = try space.fold()
        #expect(fold.state.runningRecordIds.count == 2)
        #expect(fold.state.runningRecordIds.contains(mine))
        let conflicts = only(fold, rule: 2)
        #expect(conflicts.map(\.subject) == [.record(mine)])
        #expect(conflicts.first?.line.contains("kept running: 9f8e7d6c:5 switched") == true)
    }

    /// A device that had ingested a stop writes after it: its own events are not concurrent with it.
    /// A timer device a starts, and b brings in: its id.
    func timerKnownToB(_ space: inout Space) throws -> EntityID {
        try space.run(.start(tag: .name("writing")), on: a)
        space.sync(b)
        return try #require(try space.state(of: b).runningRecordIds.first)
    }

    func trackedRecord(_ space: inout Space, comment: String = "draft") throws -> EntityID {
        try space.run(
            .track(start: space.time("07:00"), end: space.time("08:00"), tag: .name("work"), comment: comment), on: a)
        space.sync(b)
        return try #require(try space.state(of: b).records.keys.first)
    }

    func ref(_ id: EntityID) -> RecordRef { try! RecordRef(String(id.uuidString.prefix(8))) }

    /// Rule 3. Mutation tried: the first writer of a field wins (a concurrent later edit is ignored).
    @Test func concurrentEditsOfOneFieldTheLastInMergeOrderWins() throws {
        var space = Space()
        let id = try trackedRecord(&space)
        space.advance(minutes: 60)
        try space.run(.edit(record: ref(id), comment: "first"), on: a)
        space.advance(minutes: 5)
        try space.run(.edit(record: ref(id), comment: "final"), on: b)
        var fold = try space.fold()
        #expect(fold.state.records[id]?.comment == "final")
        let conflicts = only(fold, rule: 3)
        #expect(
            conflicts.map(\.line) == [
                "rule 3  \(MessageFormat.short(id))  comment: \"first\" (a1b2c3d4:5) lost to \"final\" (9f8e7d6c:4)"
            ])
        // An edit made after ingesting the other is an ordinary edit: nothing listed.
        space.sync(a)
        space.advance(minutes: 5)
        try space.run(.edit(record: ref(id), comment: "later"), on: a)
        fold = try space.fold()
        #expect(fold.state.records[id]?.comment == "later")
        #expect(only(fold, rule: 3).count == 1)
    }

    /// Rule 4. Mutation tried: an edit sets all four fields (whole-record last writer wins), which loses A's
    /// start.
    @Test func concurrentEditsOfDifferentFieldsBothApply() throws {
        var space = Space()
        let id = try trackedRecord(&space)
        space.advance(minutes: 60)
        try space.run(.edit(record: ref(id), start: space.time("06:30")), on: a)
        space.advance(minutes: 5)
        try space.run(.edit(record: ref(id), tag: .untagged), on: b)
        let fold = try space.fold()
        let record = try #require(fold.state.records[id])
        #expect(record.start == instant("2026-11-30T06:30:00.000Z"))
        #expect(record.tagId == nil)
        #expect(record.comment == "draft")
        let conflicts = only(fold, rule: 4)
        #expect(conflicts.count == 1 && conflicts.allSatisfy(\.isMinor))
        #expect(fold.conflicts(all: false).isEmpty)
    }

    /// Rule 5, both orders. Mutation tried: no tombstones (an edit of a deleted record brings it back).
    @Test(arguments: [false, true])
    func deleteWinsAgainstAConcurrentEditInEitherOrder(deleteFirst: Bool) throws {
        var space = Space()
        let id = try trackedRecord(&space)
        space.advance(minutes: 60)
        try space.run(
            deleteFirst ? .delete(record: ref(id)) : .edit(record: ref(id), comment: "edited"), on: deleteFirst ? a : b)
        space.advance(minutes: 5)
        try space.run(
            deleteFirst ? .edit(record: ref(id), comment: "edited") : .delete(record: ref(id)), on: deleteFirst ? b : a)
        var fold = try space.fold()
        #expect(fold.state.records[id] == nil)
        #expect(fold.state.deletedRecordIds.contains(id))
        #expect(only(fold, rule: 5).count == (deleteFirst ? 1 : 0))
        // Only an undo of the delete, causally later, brings it back.
        space.sync(a)
        try space.run(.undo, on: a)
        fold = try space.fold()
        #expect(fold.state.records[id] != nil)
    }

    /// Rule 6. Mutation tried: tags get random ids on a space (the decider ignores `space`): two tags.
    @Test func theSameTagNameCreatedOnTwoDevicesIsOneTag() throws {
        var space = Space()
        try space.run(.addTag(name: "writing", color: "#29BF12"), on: a)
        space.advance(minutes: 1)
        try space.run(.addTag(name: "Writing", color: "#E4572E"), on: b)
        let fold = try space.fold()
        let live = fold.state.tags.values.filter { !$0.isDeleted }
        #expect(live.count == 1)
        let tag = try #require(live.first)
        #expect(tag.id == EntityID.spaceTag(space: SpaceHistory.spaceId, name: "WRITING", k: 0))
        #expect(tag.color == "#E4572E")
        #expect(
            only(fold, rule: 6).map(\.line) == [
                "rule 6  tag writing  created on a1b2c3d4:3 and 9f8e7d6c:3: one tag; colour #E4572E from 9f8e7d6c:3"
            ])
        // Time started on either device goes to that tag.
        space.sync(a)
        try space.run(.start(tag: .name("WRITING")), on: a)
        #expect(try space.fold().state.runningRecords.first?.tagId == tag.id)
    }

    /// Rule 6's `k`: a name given again after its tag was deleted takes the next derived id, so the deleted
    /// tag stays deleted and the new one is live.
    @Test func aNameCreatedAgainAfterItsTagWasDeletedTakesTheNextDerivedID() throws {
        var space = Space()
        try space.run(.addTag(name: "mail"), on: a)
        try space.run(.deleteTag(name: "mail"), on: a)
        try space.run(.addTag(name: "Mail"), on: a)
        let tags = try space.fold().state.tags
        #expect(tags[EntityID.spaceTag(space: SpaceHistory.spaceId, name: "mail", k: 0)]?.isDeleted == true)
        #expect(tags[EntityID.spaceTag(space: SpaceHistory.spaceId, name: "mail", k: 1)]?.name == "Mail")
        #expect(tags.count == 2)
    }

    /// Rule 7. Mutation tried: the first rename in merge order wins.
    @Test func concurrentRenamesTheLastInMergeOrderWins() throws {
        var space = Space()
        try space.run(.addTag(name: "email"), on: a)
        space.sync(b)
        space.advance(minutes: 1)
        try space.run(.renameTag(name: "email", newName: "mail"), on: a)
        space.advance(minutes: 1)
        try space.run(.renameTag(name: "email", newName: "e-mail"), on: b)
        let fold = try space.fold()
        let tag = try #require(fold.state.tags.values.first)
        #expect(tag.name == "e-mail")
        #expect(
            only(fold, rule: 7).map(\.line) == [
                "rule 7  tag \(MessageFormat.short(tag.id))  renamed \"mail\" (a1b2c3d4:4) lost to \"e-mail\" (9f8e7d6c:4)"
            ])
    }

    /// Rule 8. Mutation tried: a lookup by name takes the tag whose name was set last.
    @Test func twoTagsMayShareANameTheFirstHolderIsLookedUp() throws {
        var space = Space()
        try space.run(.addTag(name: "mail"), on: b)
        space.sync(a)
        space.advance(minutes: 1)
        try space.run(.addTag(name: "email"), on: a)
        space.advance(minutes: 1)
        try space.run(.renameTag(name: "mail", newName: "email"), on: b)
        let fold = try space.fold()
        let first = EntityID.spaceTag(space: SpaceHistory.spaceId, name: "email", k: 0)
        let second = EntityID.spaceTag(space: SpaceHistory.spaceId, name: "mail", k: 0)
        #expect(fold.state.tags[first]?.name == "email" && fold.state.tags[second]?.name == "email")
        #expect(fold.state.tag(named: "Email")?.id == first)
        #expect(fold.state.displayName(of: first) == "email")
        #expect(fold.state.displayName(of: second) == "email (2)")
        #expect(only(fold, rule: 8).map(\.subject) == [.name("email")])
        // A device deciding on that state starts time on the first holder; nothing moves between tags.
        space.sync(a)
        try space.run(.start(tag: .name("email")), on: a)
        #expect(try space.fold().state.runningRecords.first?.tagId == first)
    }

    /// Rule 11. Mutations tried: one undo stack for all devices (A's undo reverts B's edit), and edits that
    /// set all four fields, the undo's included (A's undo brings "draft" back).
    @Test func undoRevertsTheDevicesOwnLastCommandAndOnlyItsFields() throws {
        var space = Space()
        let id = try trackedRecord(&space)
        space.sync(a)
        space.advance(minutes: 60)
        try space.run(.edit(record: ref(id), start: space.time("06:30")), on: a)
        space.sync(b)
        space.advance(minutes: 5)
        try space.run(.edit(record: ref(id), comment: "final"), on: b)
        space.sync(a)
        space.advance(minutes: 5)
        let undo = try space.run(.undo, on: a)
        #expect(undo.events.first == .commandUndone(tx: 6))
        var fold = try space.fold()
        var record = try #require(fold.state.records[id])
        #expect(record.start == instant("2026-11-30T07:00:00.000Z"))
        #expect(record.comment == "final")
        #expect(
            only(fold, rule: 11).map(\.line) == [
                "rule 11 \(MessageFormat.short(id))  undo a1b2c3d4:\(space.lastSeq(a) - 1) kept comment \"final\" set by "
                    + "9f8e7d6c:5 after the undone edit"
            ])
        // The ingestion before the next command takes neither redo nor B's own undo away.
        space.sync(b)
        space.sync(a)
        try space.run(.redo, on: a)
        try space.run(.undo, on: b)
        fold = try space.fold()
        record = try #require(fold.state.records[id])
        #expect(record.start == instant("2026-11-30T06:30:00.000Z"))
        #expect(record.comment == "draft")
    }
}
