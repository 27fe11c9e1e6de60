import Testing

@testable import StintCore

@Suite struct DomainDecideTrackTests {
    @Test func trackAddsACompletedRecord() throws {
        var log = TestLog()
        let decision = try log.run(.track(start: log.time("08:00"), end: log.time("08:45"), tag: .name("Work")))
        let tagId = SequentialIDs.id(1)
        let record = Record(
            id: SequentialIDs.id(2), start: instant("2026-11-29T08:00:00.000Z"),
            end: instant("2026-11-29T08:45:00.000Z"),
            tagId: tagId)
        #expect(
            decision.events == [
                .tagCreated(tagId: tagId, name: "Work", color: TagPalette.colors[0]),
                .recordTracked(recordId: record.id, start: record.start, end: record.end!, tagId: tagId, comment: nil),
            ])
        #expect(decision.outcome == .tracked(record))
        #expect(log.record(record.id) == record)
    }

    @Test func trackAcceptsAnArchivedTag() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Old"))
        try log.run(.archiveTag(name: "Old"))
        try log.run(.track(start: log.time("08:00"), end: log.time("08:45"), tag: .name("old")))
        #expect(log.state.records.values.first?.tagId == log.tag("Old")?.id)
    }

    @Test func trackRefusals() {
        var log = TestLog()
        #expect(
            errorCode { () throws(DomainError) in try log.run(.track(start: log.time("08:00"), end: log.time("07:59")))
            }
                == .endBeforeStart)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.track(start: log.time("08:00"), end: log.time("08:00")))
            }
                == .endBeforeStart)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.track(start: log.time("08:00"), end: log.time("10:00")))
            }
                == .timeInFuture)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.track(start: log.time("8d ago"), end: log.time("now"))) }
                == .recordTooLong)
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.track(start: log.time("8d ago"), end: log.time("now"), force: true))
            } == nil)
        let longest = InputLimits.longestForcedRecordMilliseconds
        let end = log.time("1h ago")
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(
                    .track(
                        start: ParsedTime(end.instant.adding(milliseconds: -longest - 1), text: "long ago"), end: end,
                        force: true))
            } == .recordTooLong)
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(
                    .track(
                        start: ParsedTime(end.instant.adding(milliseconds: -longest), text: "a year ago"), end: end,
                        force: true))
            } == nil)
    }
}

@Suite struct DomainDecideEditTests {
    func logWithRecord() throws -> TestLog {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00"), tag: .name("Work"), comment: "c"))
        return log
    }

    let recordId = SequentialIDs.id(2)

    @Test func editCarriesTheCompleteValuesAfterTheEditAndTheFieldsItSet() throws {
        var log = try logWithRecord()
        let before = try #require(log.record(recordId))
        let decision = try log.run(.edit(record: try RecordRef("0002"), start: log.time("06:30")))
        var after = before
        after.start = instant("2026-11-29T06:30:00.000Z")
        #expect(decision.events == [.recordEdited(after, fields: .start)])
        #expect(decision.outcome == .edited(before: before, after: after))
    }

    @Test func editCanUntagRemoveTheCommentAndRetag() throws {
        var log = try logWithRecord()
        try log.run(.edit(record: try RecordRef("0002"), tag: .untagged, comment: "  "))
        #expect(log.record(recordId)?.tagId == nil)
        #expect(log.record(recordId)?.comment == nil)
        let decision = try log.run(.edit(record: try RecordRef("0002"), tag: .name("Home")))
        #expect(decision.createdTags.map(\.name) == ["Home"])
        #expect(log.record(recordId)?.tagId == log.tag("home")?.id)
    }

    @Test func editWithTheCurrentValuesIsANoOpWithANotice() throws {
        var log = try logWithRecord()
        let decision = try log.run(.edit(record: try RecordRef("0002"), tag: .name("WORK"), comment: "c"))
        #expect(decision.events.isEmpty)
        #expect(decision.outcome == .unchanged)
        #expect(decision.notices.map(\.code) == [.unchanged])
    }

    @Test func editRefusals() throws {
        var log = try logWithRecord()
        let ref = try RecordRef("0002")
        #expect(errorCode { () throws(DomainError) in try log.run(.edit(record: ref)) } == .missingArgument)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, end: log.time("06:00"))) }
                == .endBeforeStart)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, end: log.time("07:00"))) }
                == .endBeforeStart)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, start: log.time("08:00"))) }
                == .endBeforeStart)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, end: log.time("23:00"))) }
                == .timeInFuture)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, start: log.time("8d ago"))) }
                == .recordTooLong)
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.edit(record: ref, start: log.time("8d ago"), force: true))
            }
                == nil)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, tag: .id(SequentialIDs.id(77)))) }
                == .unknownTag)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: ref, tag: .name(""))) } == .tagNameEmpty)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.edit(record: try RecordRef("0009"), comment: "x")) }
                == .unknownRecord)
        try log.run(.delete(record: ref))
        #expect(errorCode { () throws(DomainError) in try log.run(.edit(record: ref, comment: "x")) } == .unknownRecord)
    }

    @Test func editingTheEndOfARunningTimerStopsIt() throws {
        var log = TestLog()
        try log.run(.start(at: log.time("08:00")))
        try log.run(.edit(record: try RecordRef("0001"), end: log.time("08:30")))
        #expect(log.state.runningRecordIds.isEmpty)
        #expect(log.record(SequentialIDs.id(1))?.end == instant("2026-11-29T08:30:00.000Z"))
    }

    @Test func deleteRemovesTheRecordAndIsANoOpTheSecondTime() throws {
        var log = try logWithRecord()
        let before = try #require(log.record(recordId))
        let decision = try log.run(.delete(record: try RecordRef("0002")))
        #expect(decision.events == [.recordDeleted(recordId: recordId)])
        #expect(decision.outcome == .deleted(before))
        let again = try log.run(.delete(record: try RecordRef("0002")))
        #expect(again.events.isEmpty)
        #expect(again.notices.map(\.code) == [.alreadyDeleted])
        #expect(
            errorCode { () throws(DomainError) in try log.run(.delete(record: try RecordRef("0009"))) }
                == .unknownRecord)
    }
}

@Suite struct DomainDecideSplitJoinTests {
    @Test func splitCutsACompletedRecordAndTheEarlierPartGetsANewId() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00"), tag: .name("W"), comment: "c"))
        let original = try #require(log.record(SequentialIDs.id(2)))
        let decision = try log.run(.split(record: try RecordRef("0002"), at: log.time("07:20")))
        let cut = instant("2026-11-29T07:20:00.000Z")
        let earlier = Record(
            id: SequentialIDs.id(3), start: original.start, end: cut, tagId: original.tagId, comment: "c")
        var later = original
        later.start = cut
        #expect(decision.outcome == .split(earlier: earlier, later: later))
        #expect(log.record(earlier.id) == earlier)
        #expect(log.record(later.id) == later)
    }

    @Test func splitOfARunningTimerKeepsItRunningUnderItsId() throws {
        var log = TestLog()
        try log.run(.start(at: log.time("08:00")))
        try log.run(.split(record: try RecordRef("0001"), at: log.time("08:30")))
        #expect(log.state.runningRecordIds == [SequentialIDs.id(1)])
        #expect(log.record(SequentialIDs.id(1))?.start == instant("2026-11-29T08:30:00.000Z"))
        #expect(log.record(SequentialIDs.id(2))?.end == instant("2026-11-29T08:30:00.000Z"))
    }

    @Test func splitOfARecordWhoseTagWasDeletedKeepsTheTagIdInBothParts() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00"), tag: .name("Gone")))
        try log.run(.deleteTag(name: "Gone"))
        try log.run(.split(record: try RecordRef("0002"), at: log.time("07:30")))
        #expect(log.state.records.values.map(\.tagId) == [SequentialIDs.id(1), SequentialIDs.id(1)])
    }

    @Test(arguments: ["07:00", "08:00", "06:00", "08:30"])
    func splitOutsideTheRecordIsRefused(at: String) throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00")))
        #expect(
            errorCode { () throws(DomainError) in try log.run(.split(record: try RecordRef("0001"), at: log.time(at))) }
                == .splitOutsideRecord)
    }

    @Test func joinMakesOneRecordOfTwoThatTouchOrOverlap() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00"), tag: .name("W"), comment: "c"))
        try log.run(.track(start: log.time("08:00"), end: log.time("08:30"), tag: .name("w")))
        try log.run(.track(start: log.time("08:15"), end: log.time("08:20"), tag: .name("w")))
        let decision = try log.run(.join(first: try RecordRef("0003"), second: try RecordRef("0002")))
        let joined = try #require(log.record(SequentialIDs.id(2)))
        #expect(joined.start == instant("2026-11-29T07:00:00.000Z"))
        #expect(joined.end == instant("2026-11-29T08:30:00.000Z"))
        #expect(joined.comment == "c")
        #expect(log.record(SequentialIDs.id(3)) == nil)
        #expect(decision.events.last == .recordDeleted(recordId: SequentialIDs.id(3)))
        // An overlapping record inside the joined one.
        try log.run(.join(first: try RecordRef("0002"), second: try RecordRef("0004")))
        #expect(log.record(SequentialIDs.id(2))?.end == instant("2026-11-29T08:30:00.000Z"))
        #expect(log.state.records.count == 1)
    }

    @Test func editAndJoinMakeNoRecordOver366DaysEvenWithForce() throws {
        var log = TestLog()
        let day: Int64 = 86_400_000
        func ago(_ days: Int64) -> ParsedTime { ParsedTime(log.now.adding(milliseconds: -days * day)) }
        try log.run(.track(start: ago(400), end: ago(200), force: true))
        try log.run(.track(start: ago(200), end: ago(1), force: true))
        let (first, second) = try (RecordRef("0001"), RecordRef("0002"))
        let count = log.events.count
        #expect(
            errorCode { () throws(DomainError) in try log.run(.join(first: first, second: second, force: true)) }
                == .recordTooLong)
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.edit(record: second, start: ago(368), force: true))
            } == .recordTooLong)
        #expect(log.events.count == count)
        #expect(try log.run(.edit(record: second, start: ago(366), force: true)).events.count == 1)
    }

    @Test func joinWithARunningTimerRuns() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00")))
        try log.run(.start(at: log.time("08:00")))
        try log.run(.join(first: try RecordRef("0001"), second: try RecordRef("0002")))
        #expect(log.state.runningRecordIds == [SequentialIDs.id(1)])
    }

    @Test func joinRefusals() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("06:00"), end: log.time("07:00"), tag: .name("A")))
        try log.run(.track(start: log.time("07:00"), end: log.time("07:30"), tag: .name("B")))
        try log.run(.track(start: log.time("07:31"), end: log.time("08:00"), tag: .name("A")))
        try log.run(.track(start: log.time("07:00"), end: log.time("07:10"), tag: .name("A"), comment: "x"))
        try log.run(.track(start: log.time("06:30"), end: log.time("06:40"), tag: .name("A"), comment: "y"))
        let (a1, b, a2, ax, ay) = try (
            RecordRef("0002"), RecordRef("0004"), RecordRef("0005"), RecordRef("0006"), RecordRef("0007")
        )
        #expect(errorCode { () throws(DomainError) in try log.run(.join(first: a1, second: b)) } == .tagsDiffer)
        #expect(errorCode { () throws(DomainError) in try log.run(.join(first: a1, second: a2)) } == .notAdjacent)
        #expect(errorCode { () throws(DomainError) in try log.run(.join(first: ax, second: ay)) } == .commentsDiffer)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.join(first: a1, second: a1)) } == .conflictingArguments)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.join(first: a1, second: try RecordRef("0fff"))) }
                == .unknownRecord)
    }

    @Test func joinLongerThanSevenDaysNeedsForce() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("8d ago"), end: log.time("4d ago")))
        try log.run(.track(start: log.time("4d ago"), end: log.time("now")))
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.join(first: try RecordRef("0001"), second: try RecordRef("0002")))
            }
                == .recordTooLong)
        #expect(
            try log.run(.join(first: try RecordRef("0001"), second: try RecordRef("0002"), force: true)).events.count
                == 2)
    }
}
