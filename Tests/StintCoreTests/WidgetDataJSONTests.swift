import Testing

@testable import StintCore

@Suite struct WidgetDataJSONTests {
    typealias F = ProjectionFixtures

    static let golden = WidgetData(
        runningTimers: [
            WidgetTimer(
                id: F.recordId(1), startTime: F.instant("2026-11-29T08:00:00.250Z"), tagId: F.workId, tagName: "Work",
                tagColor: "#FF0000", comment: "Q4 \"plan\" — draft\n2"),
            WidgetTimer(id: F.recordId(2), startTime: F.instant("2026-11-29T09:30Z")),
        ],
        todayRecordsCount: 3,
        todayCompletedMilliseconds: 5_400_250,
        recentTags: [WidgetTag(F.work), WidgetTag(F.gym)],
        dailyTotals: [
            WidgetDayTotal(day: F.instant("2026-11-23T00:00Z"), tagId: nil, milliseconds: 1_500),
            WidgetDayTotal(day: F.instant("2026-11-23T00:00Z"), tagId: F.workId, milliseconds: 7_200_000),
            WidgetDayTotal(day: F.instant("2026-11-29T00:00Z"), tagId: F.gymId, milliseconds: 1),
        ],
        summaryTags: [WidgetTag(F.work), WidgetTag(F.gym)],
        lastUpdated: F.instant("2026-11-29T13:07:09.123Z"))

    static let goldenText =
        ##"{"dailyTotals":[{"day":"2026-11-23T00:00:00.000Z","seconds":1.5},"##
        + ##"{"day":"2026-11-23T00:00:00.000Z","seconds":7200,"tagId":"00000000-0000-4000-a000-000000000002"},"##
        + ##"{"day":"2026-11-29T00:00:00.000Z","seconds":0.001,"tagId":"00000000-0000-4000-a000-000000000003"}],"##
        + ##""lastUpdated":"2026-11-29T13:07:09.123Z","##
        + ##""recentTags":[{"color":"#FF0000","id":"00000000-0000-4000-a000-000000000002","name":"Work"},"##
        + ##"{"color":"#00FF00","id":"00000000-0000-4000-a000-000000000003","name":"Gym"}],"##
        + ##""runningTimers":[{"comment":"Q4 \"plan\" — draft\n2","id":"00000000-0000-4000-8000-000000000001","##
        + ##""startTime":"2026-11-29T08:00:00.250Z","tagColor":"#FF0000","tagId":"00000000-0000-4000-a000-000000000002","##
        + ##""tagName":"Work"},{"id":"00000000-0000-4000-8000-000000000002","startTime":"2026-11-29T09:30:00.000Z"}],"##
        + ##""summaryTags":[{"color":"#FF0000","id":"00000000-0000-4000-a000-000000000002","name":"Work"},"##
        + ##"{"color":"#00FF00","id":"00000000-0000-4000-a000-000000000003","name":"Gym"}],"##
        + ##""todayCompletedDuration":5400.25,"todayRecordsCount":3}"##

    @Test func encodingHasSortedKeysOmittedOptionalsAndSecondsAsNumbers() {
        #expect(String(decoding: Self.golden.encoded(), as: UTF8.self) == Self.goldenText)
    }

    @Test func anEmptySnapshotEncodesEveryCurrentKey() {
        #expect(
            WidgetData().json.encodedString
                == ##"{"dailyTotals":[],"lastUpdated":"1970-01-01T00:00:00.000Z","recentTags":[],"runningTimers":[],"##
                + ##""summaryTags":[],"todayCompletedDuration":0,"todayRecordsCount":0}"##)
    }

    @Test func theEncodingDecodesBackToTheSameSnapshot() throws {
        #expect(try WidgetData(decoding: Array(Self.goldenText.utf8)) == Self.golden)
        let projected = WidgetData(source: WidgetDataProjectionTests.source(), now: WidgetDataProjectionTests.now)
        let decoded = try WidgetData(decoding: projected.encoded())
        #expect(decoded == projected)
        #expect(decoded.encoded() == projected.encoded())
    }

    /// Written by app versions up to 1.0.3: `todayTotalDuration`, no `lastUpdated`, no daily totals,
    /// no summary tags, timers without tag ids; Foundation's pretty printer, uppercase UUIDs, whole-second dates.
    static let version103 = """
        {
          "runningTimers" : [
            {
              "tagName" : "Work",
              "startTime" : "2026-11-29T08:00:00Z",
              "id" : "9A1B2C3D-0000-4000-8000-00000000000A",
              "tagColor" : "#FF0000"
            }
          ],
          "todayRecordsCount" : 2,
          "todayTotalDuration" : 3600.5,
          "recentTags" : [
            {
              "name" : "Work",
              "id" : "00000000-0000-4000-A000-000000000002",
              "color" : "#FF0000"
            }
          ]
        }
        """

    @Test func version103SnapshotsDecodeWithTheLegacyTotalAndAStaleDate() throws {
        let data = try WidgetData(decoding: Array(Self.version103.utf8))
        #expect(
            data
                == WidgetData(
                    runningTimers: [
                        WidgetTimer(
                            id: F.id("9a1b2c3d-0000-4000-8000-00000000000a"), startTime: F.instant("2026-11-29T08:00Z"),
                            tagName: "Work", tagColor: "#FF0000")
                    ],
                    todayRecordsCount: 2, todayCompletedMilliseconds: 3_600_500,
                    recentTags: [WidgetTag(id: F.workId, name: "Work", color: "#FF0000")],
                    lastUpdated: Instant(milliseconds: 0)))
        #expect(data.isStale(at: F.instant("2026-11-29T13:00Z")))
    }

    /// Written by app versions 1.0.4 to 1.0.6: current duration key and `lastUpdated`, but no daily
    /// totals, no summary tags and no timer tag ids.
    static let version106 = """
        {"lastUpdated":"2026-11-29T13:07:09Z","recentTags":[],"runningTimers":[{"comment":"notes",\
        "id":"9A1B2C3D-0000-4000-8000-00000000000A","startTime":"2026-11-29T08:00:00.1234Z","tagName":"Gym"}],\
        "todayCompletedDuration":1234.5678,"todayRecordsCount":1}
        """

    @Test func version106SnapshotsDecodeWithoutTotalsSummaryTagsOrTimerTagIds() throws {
        let data = try WidgetData(decoding: Array(Self.version106.utf8))
        #expect(
            data
                == WidgetData(
                    runningTimers: [
                        WidgetTimer(
                            id: F.id("9a1b2c3d-0000-4000-8000-00000000000a"),
                            startTime: F.instant("2026-11-29T08:00:00.123Z"), tagName: "Gym", comment: "notes")
                    ],
                    todayRecordsCount: 1, todayCompletedMilliseconds: 1_234_568,
                    lastUpdated: F.instant("2026-11-29T13:07:09Z")))
    }

    @Test func reencodingALegacySnapshotWritesOnlyCurrentKeys() throws {
        let data = try WidgetData(decoding: Array(Self.version103.utf8))
        #expect(
            data.json.encodedString
                == ##"{"dailyTotals":[],"lastUpdated":"1970-01-01T00:00:00.000Z","##
                + ##""recentTags":[{"color":"#FF0000","id":"00000000-0000-4000-a000-000000000002","name":"Work"}],"##
                + ##""runningTimers":[{"id":"9a1b2c3d-0000-4000-8000-00000000000a","##
                + ##""startTime":"2026-11-29T08:00:00.000Z","tagColor":"#FF0000","tagName":"Work"}],"##
                + ##""summaryTags":[],"todayCompletedDuration":3600.5,"todayRecordsCount":2}"##)
    }

    @Test func theCurrentDurationKeyWinsOverTheLegacyOne() throws {
        let text =
            ##"{"recentTags":[],"runningTimers":[],"todayCompletedDuration":60,"todayTotalDuration":90,"##
            + ##""todayRecordsCount":1,"extra":{"from":"a newer writer"},"summaryTags":null}"##
        let data = try WidgetData(decoding: Array(text.utf8))
        #expect(data == WidgetData(todayRecordsCount: 1, todayCompletedMilliseconds: 60_000))
    }

    struct BadSnapshot: Sendable, CustomTestStringConvertible {
        var text: String
        var code: ProjectionDecodingError.Code
        var path: String
        var testDescription: String { "\(code) at \(path.isEmpty ? "root" : path)" }
    }

    static let valid = ##""recentTags":[],"runningTimers":[],"todayCompletedDuration":0,"todayRecordsCount":0"##

    @Test(arguments: [
        BadSnapshot(text: ##"{"recentTags":["##, code: .malformedJSON, path: ""),
        BadSnapshot(text: "[]", code: .wrongType, path: ""),
        BadSnapshot(
            text: ##"{"recentTags":[],"todayCompletedDuration":0,"todayRecordsCount":0}"##, code: .missingMember,
            path: "runningTimers"),
        BadSnapshot(
            text: ##"{"recentTags":[],"runningTimers":[],"todayRecordsCount":0}"##, code: .missingMember,
            path: "todayCompletedDuration"),
        BadSnapshot(
            text: ##"{"recentTags":[],"runningTimers":[],"todayCompletedDuration":0,"todayRecordsCount":"3"}"##,
            code: .wrongType, path: "todayRecordsCount"),
        BadSnapshot(
            text: ##"{"recentTags":[],"runningTimers":[],"todayCompletedDuration":0,"todayRecordsCount":1.5}"##,
            code: .invalidValue, path: "todayRecordsCount"),
        BadSnapshot(
            text: ##"{"recentTags":[],"runningTimers":[],"todayCompletedDuration":-1,"todayRecordsCount":0}"##,
            code: .invalidValue, path: "todayCompletedDuration"),
        BadSnapshot(
            text: ##"{"recentTags":[],"runningTimers":[],"todayCompletedDuration":1e300,"todayRecordsCount":0}"##,
            code: .invalidValue, path: "todayCompletedDuration"),
        BadSnapshot(
            text: "{" + valid + ##","lastUpdated":"2026-11-29T13:07:09"}"##, code: .invalidValue, path: "lastUpdated"),
        BadSnapshot(text: "{" + valid + ##","lastUpdated":0}"##, code: .wrongType, path: "lastUpdated"),
        BadSnapshot(
            text: ##"{"recentTags":[],"todayCompletedDuration":0,"todayRecordsCount":0,"##
                + ##""runningTimers":[{"id":"not-a-uuid","startTime":"2026-11-29T08:00:00Z"}]}"##,
            code: .invalidValue, path: "runningTimers[0].id"),
        BadSnapshot(
            text: ##"{"runningTimers":[],"todayCompletedDuration":0,"todayRecordsCount":0,"##
                + ##""recentTags":[{"color":"#FF0000","id":"00000000-0000-4000-a000-000000000002","name":"Work"},"##
                + ##"{"color":"#FF0000","id":"00000000-0000-4000-a000-000000000002"}]}"##,
            code: .missingMember, path: "recentTags[1].name"),
        BadSnapshot(
            text: "{" + valid + ##","dailyTotals":[{"day":"2026-11-29T00:00:00.000Z","seconds":"60"}]}"##,
            code: .wrongType, path: "dailyTotals[0].seconds"),
        BadSnapshot(text: "{" + valid + ##","summaryTags":{}}"##, code: .wrongType, path: "summaryTags"),
    ])
    func malformedSnapshotsAreRefusedWithACodeAndAPath(_ bad: BadSnapshot) {
        #expect {
            try WidgetData(decoding: Array(bad.text.utf8))
        } throws: { error in
            guard let error = error as? ProjectionDecodingError else { return false }
            return error.code == bad.code && error.path == bad.path
        }
    }

    @Test func theParseErrorIsKeptAsTheCause() throws {
        let error = try #require(throws: ProjectionDecodingError.self) { try WidgetData(decoding: Array("{".utf8)) }
        #expect(error.cause?.offset == 1)
    }

    @Test func equivalenceIgnoresOnlyTheUpdateTime() {
        var later = Self.golden
        later.lastUpdated = F.instant("2026-11-30T00:00Z")
        #expect(later != Self.golden)
        #expect(later.isEquivalent(to: Self.golden))
        #expect(Self.golden.isEquivalent(to: later))

        var changed = later
        changed.runningTimers[1].comment = "now with a comment"
        #expect(!changed.isEquivalent(to: Self.golden))
        var recount = later
        recount.todayRecordsCount += 1
        #expect(!recount.isEquivalent(to: Self.golden))
        var reordered = later
        reordered.recentTags.reverse()
        #expect(!reordered.isEquivalent(to: Self.golden))
    }

    @Test func anEquivalentSnapshotReplacesTheFileOnlyWhenTheFileIsStale() {
        var existing = Self.golden
        existing.lastUpdated = F.instant("2026-11-28T12:00Z")
        var fresh = existing
        fresh.lastUpdated = F.instant("2026-11-29T12:00Z")
        #expect(fresh.replaces(nil, at: fresh.lastUpdated))
        #expect(!fresh.replaces(existing, at: F.instant("2026-11-29T12:00Z")))
        fresh.lastUpdated = F.instant("2026-11-29T12:00:00.001Z")
        #expect(fresh.replaces(existing, at: fresh.lastUpdated))
        var changed = existing
        changed.todayRecordsCount += 1
        #expect(changed.replaces(existing, at: F.instant("2026-11-28T12:01Z")))
    }

    @Test func aSnapshotIsStaleOnlyAfterTwentyFourHours() {
        let data = WidgetData(lastUpdated: F.instant("2026-11-28T12:00Z"))
        #expect(!data.isStale(at: F.instant("2026-11-29T12:00Z")))
        #expect(data.isStale(at: F.instant("2026-11-29T12:00:00.001Z")))
    }
}
