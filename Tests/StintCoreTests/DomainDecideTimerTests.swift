import Testing

@testable import StintCore

@Suite struct DomainDecideStartTests {
    @Test func startWithoutATagStartsAnUntaggedTimerNow() throws {
        var log = TestLog()
        let decision = try log.run(.start())
        let id = SequentialIDs.id(1)
        #expect(decision.events == [.timerStarted(recordId: id, start: log.now, tagId: nil, comment: nil)])
        #expect(decision.outcome == .started(Record(id: id, start: log.now), stopped: []))
        #expect(decision.notices.isEmpty)
        #expect(log.state.runningRecordIds == [id])
    }

    @Test(arguments: ["", "   "])
    func anEmptyTagNameStartsAnUntaggedTimerAsTheShortcutsActionDoes(_ name: String) throws {
        var log = TestLog()
        let decision = try log.run(.start(tag: .name(name), comment: "from Shortcuts"))
        let id = SequentialIDs.id(1)
        #expect(decision.events == [.timerStarted(recordId: id, start: log.now, tagId: nil, comment: "from Shortcuts")])
        #expect(log.state.tags.isEmpty)
    }

    @Test func anUnknownTagNameCreatesTheTagInTheSameBatch() throws {
        var log = TestLog()
        let decision = try log.run(.start(tag: .name("  Deep Work "), comment: " notes "))
        let tagId = SequentialIDs.id(1)
        let recordId = SequentialIDs.id(2)
        #expect(
            decision.events == [
                .tagCreated(tagId: tagId, name: "Deep Work", color: TagPalette.colors[0]),
                .timerStarted(recordId: recordId, start: log.now, tagId: tagId, comment: "notes"),
            ])
        #expect(decision.createdTags == [StintCore.Tag(id: tagId, name: "Deep Work", color: TagPalette.colors[0])])
        #expect(log.state.recentTagIds == [tagId])
    }

    @Test func aTagNameMatchesCaseInsensitively() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        let decision = try log.run(.start(tag: .name("WORK")))
        #expect(decision.events.count == 1)
        #expect(log.state.runningRecords.first?.tagId == log.tag("work")?.id)
        #expect(log.state.tags.count == 1)
    }

    @Test func aDeletedTagsNameCreatesANewTag() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        let old = try #require(log.tag("Work")).id
        try log.run(.deleteTag(name: "work"))
        try log.run(.start(tag: .name("Work")))
        let new = try #require(log.tag("Work"))
        #expect(new.id != old)
        #expect(log.state.runningRecords.first?.tagId == new.id)
    }

    @Test func anArchivedTagNameIsRefusedForANewTimer() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        try log.run(.archiveTag(name: "Work"))
        #expect(errorCode { () throws(DomainError) in try log.run(.start(tag: .name("work"))) } == .tagArchived)
    }

    @Test func aTagIdThatIsUnknownOrDeletedStartsUntaggedWithANotice() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        let work = try #require(log.tag("Work")).id
        try log.run(.deleteTag(name: "Work"))
        for id in [work, SequentialIDs.id(99)] {
            let decision = try log.run(.start(tag: .id(id)))
            guard case .started(let record, _) = decision.outcome else {
                Issue.record("not started")
                return
            }
            #expect(record.tagId == nil)
            #expect(decision.notices.map(\.code) == [.unknownTagId])
        }
    }

    @Test func aTagIdOfALiveTagIsUsedEvenWhenArchived() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        let work = try #require(log.tag("Work")).id
        try log.run(.archiveTag(name: "Work"))
        try log.run(.start(tag: .id(work)))
        #expect(log.state.runningRecords.first?.tagId == work)
    }

    @Test func severalTimersMayRunAtOnce() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("A")))
        log.advance(minutes: 1)
        try log.run(.start(tag: .name("B")))
        #expect(log.state.runningRecordIds.count == 2)
    }

    @Test func switchStopsEveryRunningTimerAtTheNewStart() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.start())
        log.advance(minutes: 30)
        let at = log.time("10m ago")
        let decision = try log.run(.start(tag: .name("X"), at: at, switching: true))
        let stoppedIds = [SequentialIDs.id(1), SequentialIDs.id(2)]
        #expect(
            Array(decision.events.prefix(2)) == stoppedIds.map { .timerStopped(recordId: $0, end: at.instant) })
        guard case .started(let record, let stopped) = decision.outcome else {
            Issue.record("not started")
            return
        }
        #expect(stopped.map(\.id) == stoppedIds)
        #expect(stopped.allSatisfy { $0.end == at.instant })
        #expect(log.state.runningRecordIds == [record.id])
    }

    @Test func switchIsRefusedWhenItWouldEndATimerBeforeItsStart() throws {
        var log = TestLog()
        try log.run(.start())
        let before = log.time("5m ago")
        #expect(
            errorCode { () throws(DomainError) in try log.run(.start(at: before, switching: true)) } == .endBeforeStart)
        #expect(log.state.runningRecordIds.count == 1)
    }

    @Test func aStartInTheFutureIsRefused() {
        var log = TestLog()
        let later = ParsedTime(log.now.adding(milliseconds: 61_000), text: "09:01:01")
        #expect(errorCode { () throws(DomainError) in try log.run(.start(at: later)) } == .timeInFuture)
    }

    @Test func aStartLessThanAMinuteAheadIsTakenAsNow() throws {
        var log = TestLog()
        let soon = ParsedTime(log.now.adding(milliseconds: 30_000), text: "09:00:30")
        let decision = try log.run(.start(at: soon))
        #expect(
            decision.events == [.timerStarted(recordId: SequentialIDs.id(1), start: log.now, tagId: nil, comment: nil)])
        #expect(decision.notices.map(\.code) == [.clampedToNow])
    }

    @Test func aStartMoreThanSevenDaysAgoNeedsForce() throws {
        var log = TestLog()
        let old = log.time("7d1m ago")
        #expect(errorCode { () throws(DomainError) in try log.run(.start(at: old)) } == .recordTooLong)
        #expect(try log.run(.start(at: old, force: true)).events.count == 1)
        #expect(try log.run(.start(at: log.time("7d ago"))).events.count == 1)
    }

    @Test(arguments: [
        (TagChoice.name(String(repeating: "x", count: 65)), DomainError.Code.tagNameTooLong),
        (.name("a\nb"), .tagNameControlCharacter),
    ])
    func badTagNamesAreUsageErrors(tag: TagChoice, code: DomainError.Code) {
        var log = TestLog()
        let error = domainError { () throws(DomainError) in try log.run(.start(tag: tag)) }
        #expect(error?.code == code)
        #expect(error?.category == .usage)
    }

    /// Only start takes an empty name as untagged (the Shortcuts action); elsewhere it names no tag.
    @Test(arguments: ["", "   "])
    func anEmptyTagNameIsRefusedOutsideStart(_ name: String) {
        var log = TestLog()
        let track = domainError { () throws(DomainError) in
            try log.run(.track(start: log.time("09:00"), end: log.time("09:30"), tag: .name(name)))
        }
        #expect(track?.code == .tagNameEmpty)
        #expect(track?.category == .usage)
        let add = domainError { () throws(DomainError) in try log.run(.addTag(name: name)) }
        #expect(add?.code == .tagNameEmpty)
    }

    @Test func aBadCommentIsAUsageError() {
        var log = TestLog()
        #expect(
            errorCode { () throws(DomainError) in try log.run(.start(comment: String(repeating: "é", count: 501))) }
                == .commentTooLong)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.start(comment: "a\rb")) } == .commentControlCharacter)
    }
}

@Suite struct DomainDecideStopTests {
    @Test func stopWithoutIdsStopsTheOnlyRunningTimer() throws {
        var log = TestLog()
        try log.run(.start())
        log.advance(minutes: 90)
        let decision = try log.run(.stop())
        let id = SequentialIDs.id(1)
        #expect(decision.events == [.timerStopped(recordId: id, end: log.now)])
        #expect(
            decision.outcome == .stopped([Record(id: id, start: instant("2026-11-29T09:00:00.000Z"), end: log.now)]))
        #expect(log.state.runningRecordIds.isEmpty)
    }

    @Test func stopWithoutIdsWhileNoneRunsIsRefused() {
        var log = TestLog()
        #expect(errorCode { () throws(DomainError) in try log.run(.stop()) } == .noTimerRunning)
    }

    @Test func stopWithoutIdsWhileSeveralRunListsThem() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("A")))
        log.advance(minutes: 1)
        try log.run(.start())
        let error = try #require(domainError { () throws(DomainError) in try log.run(.stop()) })
        #expect(error.code == .severalRunning)
        #expect(error.category == .refused)
        #expect(error.candidates.map(\.id) == log.state.runningRecordIds)
        #expect(error.message.contains("--all"))
    }

    @Test func stopAllStopsEveryTimerAndIsANoOpWhenNoneRuns() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.start())
        let decision = try log.run(.stop(all: true))
        #expect(decision.events.count == 2)
        #expect(log.state.runningRecordIds.isEmpty)
        let again = try log.run(.stop(all: true))
        #expect(again.events.isEmpty)
        #expect(again.notices.map(\.code) == [.nothingRunning])
    }

    @Test func idsAndAllTogetherAreAUsageError() throws {
        var log = TestLog()
        #expect(
            errorCode { () throws(DomainError) in try log.run(.stop(records: [try RecordRef("0001")], all: true)) }
                == .conflictingArguments)
    }

    @Test func stopByIdStopsThatTimerOnly() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.start())
        let decision = try log.run(.stop(records: [try RecordRef("0002"), try RecordRef("0002-")]))
        #expect(decision.events == [.timerStopped(recordId: SequentialIDs.id(2), end: log.now)])
        #expect(log.state.runningRecordIds == [SequentialIDs.id(1)])
    }

    @Test func aStaleIdIsANoOpWithANotice() throws {
        var log = TestLog()
        try log.run(.start())
        try log.run(.start())
        try log.run(.stop(records: [try RecordRef("0001")]))
        try log.run(.delete(record: try RecordRef("0002")))
        for reference in ["0001", "0002"] {
            let decision = try log.run(.stop(records: [try RecordRef(reference)]))
            #expect(decision.events.isEmpty)
            #expect(decision.outcome == .stopped([]))
            #expect(decision.notices.map(\.code) == [.notRunning])
        }
    }

    @Test func anUnknownIdIsRefused() throws {
        var log = TestLog()
        try log.run(.start())
        #expect(
            errorCode { () throws(DomainError) in try log.run(.stop(records: [try RecordRef("ffff")])) }
                == .unknownRecord)
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        let ids = SequentialIDs()
        let a = EntityID("abcd0000-0000-4000-8000-000000000001")!
        let b = EntityID("abcd1111-0000-4000-8000-000000000002")!
        ids.queue([a, b])
        var log = TestLog(ids: ids)
        try log.run(.start())
        try log.run(.start())
        let error = try #require(
            domainError { () throws(DomainError) in try log.run(.stop(records: [try RecordRef("ABCD")])) })
        #expect(error.code == .ambiguousReference)
        #expect(Set(error.candidates.map(\.id)) == [a, b])
        #expect(
            try log.run(.stop(records: [try RecordRef("abcd1")])).events == [.timerStopped(recordId: b, end: log.now)])
    }

    @Test func anEndBeforeTheStartIsRefused() throws {
        var log = TestLog()
        try log.run(.start())
        #expect(errorCode { () throws(DomainError) in try log.run(.stop(at: log.time("1m ago"))) } == .endBeforeStart)
    }

    @Test func stoppingAForgottenTimerNeedsForceOrAnEarlierEnd() throws {
        var log = TestLog()
        try log.run(.start())
        log.advance(minutes: 8 * 24 * 60)
        let error = domainError { () throws(DomainError) in try log.run(.stop()) }
        #expect(error?.code == .recordTooLong)
        #expect(error?.category == .refused)
        #expect(try log.run(.stop(at: log.time("2d ago"))).events.count == 1)
        try log.run(.undo)
        #expect(try log.run(.stop(force: true)).events.count == 1)
    }

    @Test func noRecordLastsMoreThan366DaysEvenWithForce() throws {
        var log = TestLog()
        let longest = InputLimits.longestForcedRecordMilliseconds
        let tooOld = ParsedTime(log.now.adding(milliseconds: -longest - 1), text: "long ago")
        let count = log.events.count
        let error = domainError { () throws(DomainError) in try log.run(.start(at: tooOld, force: true)) }
        #expect(error?.code == .recordTooLong && error?.category == .refused)
        #expect(error?.message.contains("not even with --force") == true)
        #expect(log.events.count == count)
        let oldest = ParsedTime(log.now.adding(milliseconds: -longest), text: "a year ago")
        #expect(try log.run(.start(at: oldest, force: true)).events.count == 1)
        log.advance(minutes: 1)
        // The timer has now run for longer: stopping it now, switching away from it or splitting it now would
        // make a record over the limit, and the message says how to end it instead.
        let stop = domainError { () throws(DomainError) in try log.run(.stop(force: true)) }
        #expect(stop?.code == .recordTooLong)
        let short = MessageFormat.short(log.state.runningRecordIds[0])
        #expect(stop?.message.contains("'stint stop \(short) --at TIME --force'") == true)
        let switching = domainError { () throws(DomainError) in try log.run(.start(switching: true, force: true)) }
        #expect(switching?.code == .recordTooLong)
        #expect(switching?.message.contains("'stint cancel \(short)'") == true)
        let timer = try RecordRef(log.state.runningRecordIds[0].uuidString)
        let split = domainError { () throws(DomainError) in try log.run(.split(record: timer, at: log.time("now"))) }
        #expect(split?.code == .recordTooLong && split?.message.contains("split it at most 366 days") == true)
        #expect(log.events.count == count + 1)
        #expect(try log.run(.split(record: timer, at: log.time("1d ago"))).events.count == 2)
        #expect(try log.run(.stop(at: log.time("1m ago"), force: true)).events.count == 1)
    }

    @Test func aStopInTheFutureIsRefused() throws {
        var log = TestLog()
        try log.run(.start())
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.stop(at: ParsedTime(log.now.adding(milliseconds: 3_600_000))))
            }
                == .timeInFuture)
    }
}

@Suite struct DomainDecideContinueCancelTests {
    @Test func continueStartsATimerLikeTheRecordThatEndedLast() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("3h ago"), end: log.time("1h ago"), tag: .name("A"), comment: "late"))
        try log.run(.track(start: log.time("5h ago"), end: log.time("2h ago"), tag: .name("B"), comment: "early"))
        let decision = try log.run(.continue())
        guard case .continued(let record, let from, let stopped) = decision.outcome else {
            Issue.record("not continued")
            return
        }
        #expect(from.comment == "late")
        #expect(record.tagId == log.tag("A")?.id)
        #expect(record.comment == "late")
        #expect(record.start == log.now)
        #expect(stopped.isEmpty)
    }

    @Test func continueOfAGivenRecord() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("3h ago"), end: log.time("2h ago"), tag: .name("A")))
        try log.run(.track(start: log.time("2h ago"), end: log.time("1h ago"), tag: .name("B")))
        try log.run(.continue(record: try RecordRef("0002")))
        #expect(log.state.runningRecords.first?.tagId == log.tag("A")?.id)
    }

    @Test func continueRefusals() throws {
        var log = TestLog()
        #expect(errorCode { () throws(DomainError) in try log.run(.continue()) } == .nothingToContinue)
        try log.run(.start())
        #expect(
            errorCode { () throws(DomainError) in try log.run(.continue(record: try RecordRef("0001"))) }
                == .recordRunning)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.continue(record: try RecordRef("0009"))) }
                == .unknownRecord)
    }

    @Test func continueOfARecordWhoseTagWasDeletedIsUntagged() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("3h ago"), end: log.time("2h ago"), tag: .name("A")))
        try log.run(.deleteTag(name: "A"))
        let decision = try log.run(.continue())
        #expect(log.state.runningRecords.first?.tagId == nil)
        #expect(decision.notices.map(\.code) == [.unknownTagId])
    }

    @Test func cancelDropsTheOnlyRunningTimer() throws {
        var log = TestLog()
        try log.run(.start())
        let decision = try log.run(.cancel())
        #expect(decision.events == [.timerCanceled(recordId: SequentialIDs.id(1))])
        #expect(log.state.records.isEmpty)
    }

    @Test func cancelRefusalsAndStaleIds() throws {
        var log = TestLog()
        #expect(errorCode { () throws(DomainError) in try log.run(.cancel()) } == .noTimerRunning)
        try log.run(.start())
        try log.run(.start())
        let error = domainError { () throws(DomainError) in try log.run(.cancel()) }
        #expect(error?.code == .severalRunning)
        #expect(error?.candidates.count == 2)
        try log.run(.stop(records: [try RecordRef("0001")]))
        let stale = try log.run(.cancel(record: try RecordRef("0001")))
        #expect(stale.events.isEmpty)
        #expect(stale.notices.map(\.code) == [.notRunning])
        #expect(try log.run(.cancel(record: try RecordRef("0002"))).events.count == 1)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.cancel(record: try RecordRef("0009"))) }
                == .unknownRecord)
    }
}
