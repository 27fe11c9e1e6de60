import Testing

@testable import StintCore

@Suite struct LiveActivityContentTests {
    typealias F = ProjectionFixtures

    /// `count` tagged timers a minute apart, each with the given name and comment.
    static func timers(_ count: Int, name: String, comment: String?) -> [WidgetTimer] {
        (0..<count).map { index in
            WidgetTimer(
                id: F.recordId(UInt64(index + 1)),
                startTime: F.instant("2026-11-29T08:00Z").adding(milliseconds: Int64(index) * 60_000),
                tagId: F.id("00000000-0000-4000-a000-0000000000\(10 + index)"), tagName: name, tagColor: "#ABCDEF",
                comment: comment)
        }
    }

    static let wideName = String(repeating: "𝄞", count: 64)  // 4 bytes each: 256 bytes
    static let wideComment = String(repeating: "😀", count: 500)  // 2000 bytes
    static let asciiName = String(repeating: "n", count: 64)
    static let asciiComment = String(repeating: "c", count: 500)

    @Test func theContentKeepsTheFirstEightTimersAndCountsAll() {
        let timers = Self.timers(10, name: "Work", comment: nil)
        let content = LiveActivityContent(runningTimers: timers)
        #expect(content.timers == Array(timers[0..<8]))
        #expect(content.runningCount == 10)
        #expect(LiveActivityContent.maxTimers == 8)
    }

    @Test func aSingleTimerKeepsAFullLengthComment() {
        let timers = Self.timers(1, name: Self.wideName, comment: Self.wideComment)
        let content = LiveActivityContent(runningTimers: timers)
        #expect(content.timers == timers)
        #expect(content.encoded().count < 4096)
    }

    // Each timer's JSON is 178 bytes plus its name and comment; the wrapper with 8 timers is 37 bytes.

    @Test func eightTimersWithFourByteNamesAndCommentsFitWithShortenedComments() {
        let content = LiveActivityContent(runningTimers: Self.timers(8, name: Self.wideName, comment: Self.wideComment))
        // 37 + 8 × (178 + 256) = 3509 bytes leave 61 per comment: 14 characters and "…" (59 bytes).
        #expect(content.timers.allSatisfy { $0.comment == String(repeating: "😀", count: 14) + "…" })
        #expect(content.timers.allSatisfy { $0.tagName == Self.wideName })
        #expect(content.encoded().count == 3981)
    }

    @Test func eightTimersWithASCIINamesAndCommentsKeepLongerComments() {
        let content = LiveActivityContent(
            runningTimers: Self.timers(8, name: Self.asciiName, comment: Self.asciiComment))
        // 37 + 8 × (178 + 64) = 1973 bytes leave 253 per comment: 250 characters and "…".
        #expect(content.timers.allSatisfy { $0.comment == String(repeating: "c", count: 250) + "…" })
        #expect(content.encoded().count == 3997)
    }

    @Test func escapedCharactersCountWithTheirEscapes() {
        let content = LiveActivityContent(
            runningTimers: Self.timers(8, name: Self.asciiName, comment: String(repeating: "\u{01}", count: 500)))
        // "\u0001" takes 6 bytes: 41 of them and "…" are 249 bytes, 42 would be 255 (> 253).
        #expect(content.timers.allSatisfy { $0.comment == String(repeating: "\u{01}", count: 41) + "…" })
        #expect(content.encoded().count == 1973 + 8 * 249)
    }

    @Test func shortCommentsAreLeftAloneWhileTheLongOneIsShortened() {
        var timers = Self.timers(8, name: Self.wideName, comment: "ok")
        timers[3].comment = Self.wideComment
        let content = LiveActivityContent(runningTimers: timers)
        // 3509 + 7 × 2 leave 477 bytes: 118 characters and "…" (475 bytes).
        #expect(
            content.timers.map(\.comment)
                == timers.map(\.comment).enumerated().map { index, comment in
                    index == 3 ? String(repeating: "😀", count: 118) + "…" : comment
                })
        #expect(content.encoded().count == 3998)
    }

    @Test func aTagNameTooLongForTheLimitIsDroppedAsALastResort() {
        // One character of 4001 bytes: "e" and 2000 combining acute accents.
        let monster = "e" + String(repeating: "\u{301}", count: 2000)
        #expect(monster.count == 1)
        var timers = Self.timers(2, name: "Work", comment: "hi")
        timers[1].tagName = monster
        let content = LiveActivityContent(runningTimers: timers)
        #expect(content.encoded().count <= LiveActivityContent.maximumEncodedBytes)
        #expect(content.timers.map(\.tagName) == ["Work", nil])
        #expect(content.timers.map(\.tagId) == timers.map(\.tagId))
        #expect(content.timers.map(\.comment) == [nil, nil])
    }

    @Test func aTagColorTooLongForTheLimitIsDroppedLast() {
        var timers = Self.timers(1, name: "Work", comment: nil)
        timers[0].tagColor = String(repeating: "#", count: 5000)
        let content = LiveActivityContent(runningTimers: timers)
        #expect(content.encoded().count <= LiveActivityContent.maximumEncodedBytes)
        #expect(content.timers[0].tagColor == nil)
        #expect(content.timers[0].tagName == nil)
    }

    @Test(
        arguments: [
            ("hello", 5, "hello"),
            ("hello world", 8, "hello…"),
            ("hello world", 7, "hell…"),
            ("héllo wörld", 6, "hé…"),
            ("e\u{301}te\u{301}", 5, nil),
            ("e\u{301}te\u{301}", 6, "e\u{301}…"),
            ("hello", 3, nil),
        ] as [(String, Int, String?)])
    func shorteningKeepsWholeCharactersAndAnEllipsis(text: String, limit: Int, expected: String?) {
        #expect(LiveActivityContent.shorten(text, toBytes: limit) == expected)
    }

    @Test func contentJSONIsTheCountAndTheTimers() throws {
        let content = LiveActivityContent(runningTimers: [
            WidgetTimer(
                id: F.recordId(1), startTime: F.instant("2026-11-29T08:00Z"), tagId: F.workId, tagName: "Work",
                tagColor: "#FF0000")
        ])
        let text =
            ##"{"runningCount":1,"timers":[{"id":"00000000-0000-4000-8000-000000000001","##
            + ##""startTime":"2026-11-29T08:00:00.000Z","tagColor":"#FF0000","##
            + ##""tagId":"00000000-0000-4000-a000-000000000002","tagName":"Work"}]}"##
        #expect(String(decoding: content.encoded(), as: UTF8.self) == text)
        #expect(try LiveActivityContent(decoding: Array(text.utf8)) == content)
        #expect(throws: ProjectionDecodingError.self) {
            try LiveActivityContent(decoding: Array(#"{"timers":[]}"#.utf8))
        }
    }

    @Test func contentFromALogUsesTheSnapshotsTimers() {
        let source = WidgetDataProjectionTests.source()
        let content = LiveActivityContent(source: source)
        #expect(content.timers == WidgetData(source: source, now: WidgetDataProjectionTests.now).runningTimers)
        #expect(content.runningCount == 4)
    }
}

@Suite struct LiveActivityPlanTests {
    typealias F = ProjectionFixtures
    static let timers = LiveActivityContentTests.timers(2, name: "Work", comment: "x")

    @Test func noActivityAndNoTimerIsNothingToDo() {
        #expect(LiveActivityPlan.decide(current: nil, timers: []) == .none)
    }

    @Test func theFirstTimerStartsAnActivity() {
        let action = LiveActivityPlan.decide(current: nil, timers: Self.timers)
        #expect(action == .start(LiveActivityContent(timers: Self.timers, runningCount: 2)))
        #expect(action.name == "start")
        #expect(action.content?.runningCount == 2)
    }

    @Test func unchangedContentIsNotUpdated() {
        let current = LiveActivityContent(runningTimers: Self.timers)
        #expect(LiveActivityPlan.decide(current: current, timers: Self.timers) == .none)
        // Shortened content compares equal to itself too, so long comments do not cause updates.
        let long = LiveActivityContentTests.timers(8, name: "N", comment: LiveActivityContentTests.wideComment)
        #expect(LiveActivityPlan.decide(current: LiveActivityContent(runningTimers: long), timers: long) == .none)
    }

    @Test func iOSEndsAnActivityEightHoursAfterItStarted() {
        let current = LiveActivityContent(runningTimers: Self.timers)
        let started = F.instant("2026-03-28T20:00Z")
        #expect(LiveActivityPlan.systemEnd(ofActivityStartedAt: started) == F.instant("2026-03-29T04:00Z"))
        // Across Europe's spring-forward night: 8 elapsed hours, not 8 wall-clock hours.
        let almost = F.instant("2026-03-29T03:59:59.999Z")
        #expect(LiveActivityPlan.decide(current: current, startedAt: started, timers: Self.timers, at: almost) == .none)
        let ended = F.instant("2026-03-29T04:00Z")
        #expect(
            LiveActivityPlan.decide(current: current, startedAt: started, timers: Self.timers, at: ended)
                == .start(current))
        #expect(LiveActivityPlan.decide(current: current, startedAt: started, timers: [], at: ended) == .none)
        #expect(LiveActivityPlan.decide(current: current, startedAt: started, timers: [], at: almost) == .end)
    }

    @Test func aChangedTimerUpdatesTheActivity() {
        let current = LiveActivityContent(runningTimers: Self.timers)
        var edited = Self.timers
        edited[1].comment = "y"
        #expect(
            LiveActivityPlan.decide(current: current, timers: edited)
                == .update(LiveActivityContent(timers: edited, runningCount: 2)))
        let fewer = Array(Self.timers.prefix(1))
        #expect(
            LiveActivityPlan.decide(current: current, timers: fewer)
                == .update(LiveActivityContent(timers: fewer, runningCount: 1)))
    }

    @Test func aNinthTimerUpdatesOnlyTheCount() {
        let nine = LiveActivityContentTests.timers(9, name: "Work", comment: nil)
        let current = LiveActivityContent(runningTimers: Array(nine.prefix(8)))
        let action = LiveActivityPlan.decide(current: current, timers: nine)
        #expect(action == .update(LiveActivityContent(timers: Array(nine.prefix(8)), runningCount: 9)))
        #expect(action.name == "update")
    }

    @Test func theLastStopEndsTheActivity() {
        let action = LiveActivityPlan.decide(current: LiveActivityContent(runningTimers: Self.timers), timers: [])
        #expect(action == .end)
        #expect(action.name == "end")
        #expect(action.content == nil)
        #expect(LiveActivityAction.none.name == "none")
    }
}

@Suite struct WidgetTimerMakeTests {
    typealias F = ProjectionFixtures

    @Test func timersAreOldestFirstThenByIdAndCompletedRecordsAreSkipped() {
        let records = [
            F.record(3, "2026-11-29T09:00Z"),
            F.record(2, "2026-11-29T09:00Z"),
            F.record(1, "2026-11-29T10:00Z"),
            F.record(4, "2026-11-29T08:00Z", "2026-11-29T08:30Z"),
            F.record(5, "2026-11-29T07:00Z"),
        ]
        #expect(
            WidgetTimer.make(runningTimers: records, tags: [:] as [EntityID: StintCore.Tag]).map(\.id)
                == [F.recordId(5), F.recordId(2), F.recordId(3), F.recordId(1)])
    }

    @Test func tagsNameTimersUnlessDeletedOrUnknown() {
        let records = [
            F.record(1, "2026-11-29T08:00Z", tag: F.workId, comment: "a"),
            F.record(2, "2026-11-29T08:01Z", tag: F.workId),
            F.record(3, "2026-11-29T08:02Z", tag: F.archivedId),
            F.record(4, "2026-11-29T08:03Z", tag: F.deletedId, comment: "kept"),
            F.record(5, "2026-11-29T08:04Z", tag: F.unknownId),
        ]
        #expect(
            WidgetTimer.make(runningTimers: records, tags: F.allTags) == [
                WidgetTimer(
                    id: F.recordId(1), startTime: F.instant("2026-11-29T08:00Z"), tagId: F.workId, tagName: "Work",
                    tagColor: "#FF0000", comment: "a"),
                WidgetTimer(
                    id: F.recordId(2), startTime: F.instant("2026-11-29T08:01Z"), tagId: F.workId, tagName: "Work",
                    tagColor: "#FF0000"),
                WidgetTimer(
                    id: F.recordId(3), startTime: F.instant("2026-11-29T08:02Z"), tagId: F.archivedId,
                    tagName: "Archive", tagColor: "#111111"),
                WidgetTimer(id: F.recordId(4), startTime: F.instant("2026-11-29T08:03Z"), comment: "kept"),
                WidgetTimer(id: F.recordId(5), startTime: F.instant("2026-11-29T08:04Z")),
            ])
    }

    @Test func theFirstOfDuplicateTagIdsWins() {
        let copy = StintCore.Tag(id: F.workId, name: "Work (copy)", color: "#000000")
        let records = [F.record(1, "2026-11-29T08:00Z", tag: F.workId)]
        #expect(WidgetTimer.make(runningTimers: records, tags: [F.work, copy]).map(\.tagName) == ["Work"])
        #expect(WidgetTimer.make(runningTimers: records, tags: [copy, F.work]).map(\.tagName) == ["Work (copy)"])
        let deletedFirst = StintCore.Tag(id: F.workId, name: "Work", color: "#FF0000", isDeleted: true)
        #expect(WidgetTimer.make(runningTimers: records, tags: [deletedFirst, F.work]).map(\.tagId) == [nil])
    }
}
