import Testing

@testable import StintCore

/// The preconditions every fold asks (decision 0009, step 1): each rule's verdict for every presence.
@Suite struct RuleTests {
    static let start = Instant(canonical: "2026-12-01T09:00:00.000Z")!
    static let later = Instant(canonical: "2026-12-01T10:00:00.000Z")!
    static let earlier = Instant(canonical: "2026-12-01T08:00:00.000Z")!
    static let running = RecordPresence.live(start: start, running: true)
    static let ended = RecordPresence.live(start: start, running: false)

    @Test func stopNeedsALiveRunningRecordAndAnEndNotBeforeItsStart() {
        #expect(RecordRules.stop(Self.running, end: Self.later) == .apply)
        #expect(RecordRules.stop(Self.running, end: Self.start) == .apply, "a record may last no time")
        #expect(RecordRules.stop(Self.running, end: Self.earlier) == .violates(.endsBeforeStart))
        #expect(RecordRules.stop(Self.ended, end: Self.later) == .violates(.notRunning))
        #expect(RecordRules.stop(.deleted, end: Self.later) == .violates(.notLive(deleted: true)))
        #expect(RecordRules.stop(.unknown, end: Self.later) == .violates(.notLive(deleted: false)))
        // Liveness is checked first, then running, then the span: the first violation is the one reported.
        #expect(RecordRules.stop(Self.ended, end: Self.earlier) == .violates(.notRunning))
    }

    @Test func cancelNeedsALiveRunningRecord() {
        #expect(RecordRules.cancel(Self.running) == .apply)
        #expect(RecordRules.cancel(Self.ended) == .violates(.notRunning))
        #expect(RecordRules.cancel(.deleted) == .violates(.notLive(deleted: true)))
        #expect(RecordRules.cancel(.unknown) == .violates(.notLive(deleted: false)))
    }

    @Test func deleteNeedsALiveRecordRunningOrNot() {
        #expect(RecordRules.delete(Self.running) == .apply)
        #expect(RecordRules.delete(Self.ended) == .apply)
        #expect(RecordRules.delete(.deleted) == .violates(.notLive(deleted: true)))
        #expect(RecordRules.delete(.unknown) == .violates(.notLive(deleted: false)))
    }

    @Test func aNewRecordNeedsAFreshIdAnEndNotBeforeItsStartAndATagThatExists() {
        func create(_ record: RecordPresence, end: Instant? = nil, tag: TagPresence? = nil, deleted: Bool = false)
            -> RuleVerdict<RecordRules.Violation>
        {
            RecordRules.create(record, start: Self.start, end: end, tag: tag, allowsDeletedTag: deleted)
        }
        #expect(create(.unknown) == .apply)
        #expect(create(.unknown, end: Self.later, tag: .live) == .apply)
        #expect(create(.unknown, end: Self.start) == .apply, "a record may last no time")
        #expect(create(Self.ended) == .violates(.idTaken(deleted: false)))
        #expect(create(.deleted) == .violates(.idTaken(deleted: true)), "a record id is never reused")
        #expect(create(.unknown, end: Self.earlier) == .violates(.endsBeforeStart))
        #expect(create(.unknown, tag: .unknown) == .violates(.tagUnknown))
        #expect(create(.unknown, tag: .deleted) == .violates(.tagDeleted))
        #expect(create(.unknown, tag: .deleted, deleted: true) == .apply, "`track` and imports allow a deleted tag")
        #expect(create(.unknown, tag: .unknown, deleted: true) == .violates(.tagUnknown))
        // The id first, then the span, then the tag.
        #expect(create(.deleted, end: Self.earlier, tag: .unknown) == .violates(.idTaken(deleted: true)))
        #expect(create(.unknown, end: Self.earlier, tag: .unknown) == .violates(.endsBeforeStart))
    }

    @Test func anEditOrRestoreNeedsTheRecordInTheRightStateAndValuesThatFit() {
        #expect(RecordRules.edit(Self.ended, start: Self.start, end: Self.later, tag: .deleted) == .apply)
        #expect(RecordRules.edit(Self.running, start: Self.later, end: nil, tag: nil) == .apply)
        #expect(RecordRules.edit(.deleted, start: Self.start, end: nil, tag: nil) == .violates(.notLive(deleted: true)))
        #expect(
            RecordRules.edit(.unknown, start: Self.start, end: nil, tag: nil) == .violates(.notLive(deleted: false)))
        #expect(
            RecordRules.edit(Self.ended, start: Self.start, end: Self.earlier, tag: nil) == .violates(.endsBeforeStart))
        #expect(RecordRules.edit(Self.ended, start: Self.start, end: nil, tag: .unknown) == .violates(.tagUnknown))
        #expect(RecordRules.restore(.deleted, start: Self.start, end: Self.later, tag: .deleted) == .apply)
        #expect(RecordRules.restore(Self.ended, start: Self.start, end: nil, tag: nil) == .violates(.notDeleted))
        #expect(RecordRules.restore(.unknown, start: Self.start, end: nil, tag: nil) == .violates(.notDeleted))
        #expect(
            RecordRules.restore(.deleted, start: Self.start, end: Self.earlier, tag: nil) == .violates(.endsBeforeStart)
        )
    }

    @Test func aReimportOrUnimportNeedsALiveImportedRecord() {
        #expect(
            RecordRules.reimport(Self.ended, imported: true, start: Self.start, end: Self.later, tag: nil) == .apply)
        #expect(
            RecordRules.reimport(Self.ended, imported: false, start: Self.start, end: nil, tag: nil)
                == .violates(.notImported))
        #expect(
            RecordRules.reimport(.deleted, imported: true, start: Self.start, end: nil, tag: nil)
                == .violates(.notLive(deleted: true)))
        #expect(
            RecordRules.reimport(Self.ended, imported: true, start: Self.start, end: Self.earlier, tag: nil)
                == .violates(.endsBeforeStart))
        #expect(RecordRules.unimport(Self.ended, imported: true) == .apply)
        #expect(RecordRules.unimport(Self.ended, imported: false) == .violates(.notImported))
        #expect(RecordRules.unimport(.unknown, imported: false) == .violates(.notLive(deleted: false)))
    }

    @Test func tagRulesNeedALiveTagInTheRightArchiveState() {
        let id = EntityID("00000000-0000-4000-8000-0000000000aa")!
        let live = Tag(id: id, name: "writing", color: "#3A7BD5")
        var archived = live
        archived.isArchived = true
        var deleted = live
        deleted.isDeleted = true
        #expect(TagRules.archive(live) == .apply)
        #expect(TagRules.archive(archived) == .violates(.alreadyArchived))
        #expect(TagRules.unarchive(archived) == .apply)
        #expect(TagRules.unarchive(live) == .violates(.notArchived))
        #expect(TagRules.delete(live) == .apply && TagRules.delete(archived) == .apply)
        #expect(TagRules.create(nil, nameTaken: false) == .apply)
        #expect(TagRules.create(nil, nameTaken: true) == .violates(.nameTaken))
        #expect(TagRules.create(deleted, nameTaken: false) == .violates(.idTaken), "an id is never reused")
        #expect(TagRules.create(live, nameTaken: true) == .violates(.idTaken), "the id is checked first")
        #expect(
            TagRules.rename(live, nameTaken: false) == .apply && TagRules.rename(archived, nameTaken: false) == .apply)
        #expect(TagRules.rename(live, nameTaken: true) == .violates(.nameTaken))
        #expect(TagRules.rename(deleted, nameTaken: false) == .violates(.notLive))
        #expect(TagRules.rename(nil, nameTaken: true) == .violates(.notLive))
        #expect(TagRules.restore(deleted, nameTaken: false) == .apply)
        #expect(TagRules.restore(deleted, nameTaken: true) == .violates(.nameTaken))
        #expect(TagRules.restore(live, nameTaken: false) == .violates(.notDeleted))
        #expect(TagRules.restore(nil, nameTaken: false) == .violates(.notDeleted))
        for rule in [TagRules.archive, TagRules.unarchive, TagRules.delete] {
            #expect(rule(nil) == .violates(.notLive))
            #expect(rule(deleted) == .violates(.notLive))
        }
    }
}
