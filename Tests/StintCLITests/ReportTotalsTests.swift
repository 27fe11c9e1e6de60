import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// `stint report` through the CLI, on a week whose totals are computed by hand below.
///
/// The log is in Europe/Berlin (CET, UTC+1, in November; CEST, UTC+2, until Sun 2026-10-25 03:00),
/// weeks from Monday, and now is Sun 2026-11-29 16:40 local (15:40Z).
///
/// | record | tag | local time | length |
/// |---|---|---|---|
/// | A | writing | Mon 11-23 09:00–12:00 | 3 h = 10 800 s |
/// | B | email | Mon 11-23 10:00–11:00, inside A | 1 h = 3 600 s |
/// | C | deploy | Tue 11-24 23:00 – Wed 11-25 01:00 | 2 h = 7 200 s |
/// | D | coding | Sun 11-29 16:00, running | 40 min = 2 400 s up to now |
/// | E | night | Sat 10-24 22:00 CEST – Sun 10-25 10:00 CET | 13 h = 46 800 s (20:00Z–09:00Z) |
@Suite struct ReportTotalsTests {
    let host: TranscriptHost
    let directory = TemporaryDirectory(prefix: "stint-report")

    init() throws {
        host = TranscriptHost(directory: directory.path)
        host.apply(directive: "now 2026-11-29T15:40:00.000Z")
        for command in [
            ["init", "--tz", "Europe/Berlin", "--first-weekday", "2"],
            ["track", "2026-11-23T09:00", "2026-11-23T12:00", "writing"],
            ["track", "2026-11-23T10:00", "2026-11-23T11:00", "email"],
            ["track", "2026-11-24T23:00", "2026-11-25T01:00", "deploy"],
            ["start", "coding", "--at", "16:00"],
            ["track", "2026-10-24 22:00", "2026-10-25 10:00", "night"],
        ] {
            let result = host.run(command)
            try #require(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    func report(_ arguments: [String]) throws -> JSON {
        let result = host.run(["report", "--json"] + arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSON.parse(result.stdout)
    }

    func seconds(_ json: JSON?) -> Int64? { json?.intValue }

    /// Seconds per period key: `["2026-11-23": (tagSum, wallClock)]`.
    func periods(_ json: JSON) -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for period in json["periods"]?.arrayValue ?? [] {
            result[period["period"]?.stringValue ?? "?"] = [
                seconds(period["tagSum"]) ?? -1, seconds(period["wallClock"]) ?? -1,
            ]
        }
        return result
    }

    @Test func thisWeekCountsOverlapsInTheSumOfTagsAndOnceOnTheWallClock() throws {
        let json = try report([])
        // Mon: A + B = 10 800 + 3 600 = 14 400 summed; B lies inside A, so the wall clock is A's 10 800.
        // Tue: C whole on its start day, 7 200 both ways. Sun: D up to now, 2 400.
        #expect(
            periods(json) == [
                "2026-11-23": [14_400, 10_800], "2026-11-24": [7_200, 7_200], "2026-11-29": [2_400, 2_400],
            ])
        // 14 400 + 7 200 + 2 400 = 24 000 summed; 10 800 + 7 200 + 2 400 = 20 400 on the wall clock.
        #expect(seconds(json["tagSum"]) == 24_000)
        #expect(seconds(json["wallClock"]) == 20_400)
        #expect(json["records"]?.intValue == 4)
        #expect(json["runningRecords"]?.intValue == 1)
        #expect(json["range"]?["start"]?.stringValue == "2026-11-22T23:00:00.000Z")
        #expect(json["range"]?["end"]?.stringValue == "2026-11-29T23:00:00.000Z")
    }

    @Test func splitAtMidnightApportionsTheRecordAcrossMidnight() throws {
        let json = try report(["--split-at-midnight"])
        // C: Tue 23:00–24:00 = 3 600, Wed 00:00–01:00 = 3 600; the week's totals do not change.
        #expect(periods(json)["2026-11-24"] == [3_600, 3_600])
        #expect(periods(json)["2026-11-25"] == [3_600, 3_600])
        #expect(seconds(json["tagSum"]) == 24_000)
        #expect(json["midnight"]?.stringValue == "splitAtMidnight")
    }

    @Test func perTagTotalsAreLongestFirst() throws {
        let json = try report(["--by", "tag"])
        let tags = (json["tags"]?.arrayValue ?? []).map { ($0["tag"]?.stringValue ?? "", seconds($0["seconds"]) ?? -1) }
        #expect(tags.map(\.0) == ["writing", "deploy", "email", "coding"])
        #expect(tags.map(\.1) == [10_800, 7_200, 3_600, 2_400])
        #expect(json["periods"]?.arrayValue?.isEmpty == true)
    }

    @Test func aTagFilterKeepsOnlyThatTag() throws {
        let json = try report(["--tag", "WRITING"])
        #expect(seconds(json["tagSum"]) == 10_800)
        #expect(json["tagFilter"]?["name"]?.stringValue == "writing")
    }

    @Test func theRecordAcrossTheEndOfSummerTimeCountsItsThirteenHours() throws {
        // Whole on its start day: Sat 10-24 gets all 13 h.
        let whole = try report(["--since", "2026-10-24", "--until", "2026-10-26"])
        #expect(periods(whole) == ["2026-10-24": [46_800, 46_800]])
        // Split: Sat 22:00–24:00 CEST = 7 200; Sun 00:00 CEST (22:00Z) – 10:00 CET (09:00Z) = 11 h = 39 600
        // of a 25-hour day.
        let split = try report(["--since", "2026-10-24", "--until", "2026-10-26", "--split-at-midnight"])
        #expect(periods(split) == ["2026-10-24": [7_200, 7_200], "2026-10-25": [39_600, 39_600]])
        #expect(seconds(split["tagSum"]) == 46_800)
    }

    @Test func theWeekOfTheChangeIsOneHourLongerThanSevenDays() throws {
        host.apply(directive: "now 2026-10-26T12:00:00.000Z")
        let json = try report(["last-week", "--split-at-midnight"])
        // Mon 10-19 00:00 CEST = 10-18T22:00Z; Mon 10-26 00:00 CET = 10-25T23:00Z: 169 hours.
        #expect(json["range"]?["start"]?.stringValue == "2026-10-18T22:00:00.000Z")
        #expect(json["range"]?["end"]?.stringValue == "2026-10-25T23:00:00.000Z")
        #expect(seconds(json["tagSum"]) == 46_800)
    }

    @Test func csvQuotesNamesAndEndsRecordsInCRLF() throws {
        #expect(host.run(["tag", "rename", "deploy", "ship, \"fast\""]).status == 0)
        let result = host.run(["report", "--csv", "--by", "tag"])
        #expect(result.status == 0)
        let rows = result.stdout.components(separatedBy: "\r\n")
        #expect(rows.first == "row,period,start,end,tag,tag_id,seconds,duration")
        #expect(rows.contains { $0.hasPrefix("tag,total,") && $0.contains(",\"ship, \"\"fast\"\"\",") })
        #expect(rows.contains { $0.hasPrefix("sum,total,") && $0.hasSuffix(",24000,6:40") })
        #expect(rows.contains { $0.hasPrefix("wall-clock,total,") && $0.hasSuffix(",20400,5:40") })
        #expect(rows.last == "")
        #expect(!result.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }
}
