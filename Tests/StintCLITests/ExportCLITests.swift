import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintCLI

/// `stint export csv|json|timewarrior`: golden outputs, CSV quoting, ranges, and the way back in.
@Suite struct ExportCLITests {
    /// A log with what exports must get right: the repeated hour of a DST change, milliseconds, a comment
    /// with commas, quotes and a line break, one that looks like a formula, an untagged record, a deleted
    /// and an archived tag, and a running timer.
    static func sampleLog(now: String = "2026-11-03T15:00:00.000Z") throws -> ImportHarness {
        let log = try ImportHarness(now: now)
        try populate(log)
        return log
    }

    /// The sample's commands: records across the repeated hour, odd comments, a deleted and an archived tag.
    static func populate(_ log: ImportHarness) throws {
        log.succeed(
            [
                "track", "2026-11-01T01:10:00-04:00", "2026-11-01T01:20:00-05:00", "oncall", "--comment",
                "in the repeated hour",
            ])
        log.succeed(
            ["track", "2026-11-02T09:00", "2026-11-02T10:30", "Client B", "--comment", "Review, \"auth\"\nsecond line"])
        log.succeed(["track", "2026-11-02T11:00:00.250", "2026-11-02T11:45:30.5", "--comment", "=SUM(A1:A2)"])
        log.succeed(["track", "2026-11-02T13:00", "2026-11-02T14:00", "old"])
        log.succeed(["tag", "delete", "old"])
        log.succeed(["track", "2026-11-02T15:00", "2026-11-02T16:00", "archive me"])
        log.succeed(["tag", "archive", "archive me"])
        log.succeed(["start", "writing", "--at", "2026-11-03T09:00", "--comment", "Chapter 3\nTags: draft, \"a, b\""])
    }

    @Test func csvMatchesItsGoldenFile() throws {
        ExportGolden.check(try Self.sampleLog().succeed(["export", "csv"]), against: "sample.csv")
    }

    @Test func jsonMatchesItsGoldenFile() throws {
        ExportGolden.check(try Self.sampleLog().succeed(["export", "json"]), against: "sample.json")
    }

    /// Exports stream from the read models when they reflect the log's end, and fold the log otherwise: the
    /// same bytes either way, for the whole log and for a range.
    @Test func theReadModelsAndAFoldExportTheSameBytes() throws {
        let log = try Self.sampleLog()
        let exports = [
            ["export", "json"], ["export", "csv"], ["export", "json", "--since", "2026-11-02T10:00"],
            ["export", "csv", "--until", "2026-11-02T12:00"], ["report", "--all", "--by", "tag", "--json"],
        ]
        #expect(FileManager.default.fileExists(atPath: log.logPath + "/read-models.sqlite"))
        let fromModels = exports.map { log.succeed($0) }
        try FileManager.default.removeItem(atPath: log.logPath + "/read-models.sqlite")
        let fromFold = exports.map { log.succeed($0) }
        #expect(!FileManager.default.fileExists(atPath: log.logPath + "/read-models.sqlite"), "a read wrote them")
        #expect(fromModels == fromFold)
    }

    @Test func timewarriorMatchesItsGoldenFileAndNotesWhatItCut() throws {
        let log = try Self.sampleLog()
        let result = log.run(["export", "timewarrior"])
        #expect(result.status == 0)
        ExportGolden.check(result.stdout, against: "sample-timewarrior.json")
        #expect(result.stderr.contains("1 record ("))
        #expect(result.stderr.contains("cut to the second"))
        #expect(try JSON.parse(result.stdout).arrayValue?.count == 6)
    }

    @Test func csvFieldsReadBackExactlyWithAnRFC4180Reader() throws {
        let log = try Self.sampleLog()
        let csv = log.succeed(["export", "csv"])
        let rows = try #require(CSVReader.rows(csv))
        #expect(rows.first == ExportRun.csvColumns)
        #expect(rows.dropFirst().allSatisfy { $0.count == ExportRun.csvColumns.count })
        let state = try log.state()
        let records = state.projectionSource.records.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        #expect(rows.dropFirst().map { $0[0] } == records.map(\.id.uuidString))
        #expect(rows.dropFirst().map { $0[7] } == records.map { $0.comment ?? "" })
        #expect(rows.dropFirst().map { $0[3] } == records.map(\.start.iso8601))
        #expect(rows.dropFirst().map { $0[8] } == records.map { $0.isRunning ? "true" : "false" })
        // The deleted tag's record has no tag, as in reports; the archived tag is named.
        #expect(rows.dropFirst().map { $0[6] } == ["oncall", "Client B", "", "", "archive me", "writing"])
        // The repeated hour: the same wall-clock hour, told apart by the offset.
        #expect(rows[1][1] == "2026-11-01T01:10:00-04:00" && rows[1][2] == "2026-11-01T01:20:00-05:00")
        #expect(rows[1][5] == "4200")
        #expect(rows[3][5] == "2730.25")
        #expect(rows[6][2] == "" && rows[6][4] == "" && rows[6][5] == "3600")
        #expect(csv.hasSuffix("\r\n") && !csv.hasPrefix("\u{FEFF}"))
    }

    @Test func sinceAndUntilSelectRecordsByTheirStart() throws {
        let log = try Self.sampleLog()
        let json = try JSON.parse(
            log.succeed(["export", "json", "--since", "2026-11-02T10:00", "--until", "2026-11-03"]))
        let starts = json["records"]?.arrayValue?.compactMap { $0["startUtc"]?.stringValue }
        #expect(starts == ["2026-11-02T16:00:00.250Z", "2026-11-02T18:00:00.000Z", "2026-11-02T20:00:00.000Z"])
        #expect(json["since"] == .string("2026-11-02T15:00:00.000Z"))
        let refused = log.run(["export", "csv", "--since", "2026-11-03", "--until", "2026-11-02"])
        #expect(refused.status == 64)
    }

    @Test func anImportedHistoryGoesBackToTimewarriorAndInAgainUnchanged() throws {
        for fixture in ["timewarrior/updated/export.json", "timewarrior/export.json"] {
            let log = try ImportHarness()
            log.succeed(["import", "timewarrior", ImportHarness.fixture(fixture)])
            let exported = log.succeed(["export", "timewarrior"])
            let fresh = try ImportHarness()
            let report = try JSON.parse(
                fresh.succeed(["import", "timewarrior", "-", "--json"], stdin: Array(exported.utf8)))
            #expect(report["report"]?["skipped"] == .int(0))
            #expect(try fresh.values() == (try log.values()))
            // The ids are derived from the starts, so they are the same records, not just equal ones.
            #expect(try Set(fresh.state().records.keys) == Set(log.state().records.keys))
            // And the export of the copy is the same text.
            #expect(fresh.succeed(["export", "timewarrior"]) == exported)
        }
    }

    @Test func stintRecordsGoToTimewarriorAndBackAsEqualRecords() throws {
        let log = try ImportHarness(now: "2026-11-03T15:00:00.000Z")
        log.succeed([
            "track", "2026-11-02T09:00", "2026-11-02T10:30", "Client B", "--comment",
            "Review, \"auth\"\nTags: a, \"b, c\"",
        ])
        log.succeed(["track", "2026-11-02T11:00", "2026-11-02T12:00", "--comment", "Tags: not, tags"])
        log.succeed(["track", "2026-11-02T13:00", "2026-11-02T14:00", "x", "--comment", "Tags: x,y"])
        log.succeed(["track", "2026-11-02T15:00", "2026-11-02T15:30"])
        log.succeed(["start", "writing", "--at", "2026-11-03T09:00"])
        let exported = log.succeed(["export", "timewarrior"])
        let intervals = try #require(try JSON.parse(exported).arrayValue)
        #expect(intervals[0]["tags"] == .array([.string("Client B"), .string("a"), .string("b, c")]))
        #expect(intervals[0]["annotation"] == .string("Review, \"auth\""))
        // An untagged record keeps its whole comment; a line that is not written as an import writes it, too.
        #expect(intervals[1]["tags"] == nil && intervals[1]["annotation"] == .string("Tags: not, tags"))
        #expect(intervals[2]["tags"] == .array([.string("x")]))
        let fresh = try ImportHarness(now: "2026-11-03T15:00:00.000Z")
        fresh.succeed(["import", "timewarrior", "-"], stdin: Array(exported.utf8))
        #expect(try fresh.values() == (try log.values()))
    }
}

/// A reader of RFC 4180 CSV, strict about quotes, for checking what the export writes.
enum CSVReader {
    /// The rows of `text` (CRLF line ends), or nil when it is not valid RFC 4180.
    static func rows(_ text: String) -> [[String]]? {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var scalars = Array(text.unicodeScalars)[...]
        var quoted = false
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        scalars.removeFirst()
                    } else {
                        quoted = false
                        guard scalars.first == "," || scalars.first == "\r" else { return nil }
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty else { return nil }
                quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r":
                guard scalars.popFirst() == "\n" else { return nil }
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            case "\n":
                return nil
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        return quoted || !row.isEmpty || !field.isEmpty ? nil : rows
    }
}
