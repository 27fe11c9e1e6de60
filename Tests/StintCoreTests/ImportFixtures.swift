import Foundation
import StintCore
import TestSupport

/// The files under `Events/import/`, written by the real tools (see `Events/import/README.md`), and
/// readers for what the tools reported about them.
enum ImportFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Events/import")

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }

    static let newYork = LogCalendar(timeZone: "America/New_York", firstWeekday: 2)!

    /// A projection of imported records, with one tag per name compared case-insensitively, as the later
    /// import step creates them.
    static func projection(_ records: [ImportedRecord], calendar: LogCalendar = newYork) -> ProjectionSource {
        var tagIds: [String: EntityID] = [:]
        var tags: [EntityID: Tag] = [:]
        var next: UInt64 = 0
        let mapped = records.map { record -> Record in
            var tagId: EntityID?
            if let name = record.tagName {
                let key = name.lowercased()
                if tagIds[key] == nil {
                    next += 1
                    let id = EntityID(high: 0x4000, low: 0x8000_0000_0000_0000 | next)
                    tagIds[key] = id
                    tags[id] = Tag(id: id, name: name, color: "#000000")
                }
                tagId = tagIds[key]
            }
            return Record(
                id: record.recordId, start: record.start, end: record.end, tagId: tagId, comment: record.comment)
        }
        return ProjectionSource(calendar: calendar, tags: tags, records: mapped, recentTagIds: [])
    }

    /// Per-day totals (in milliseconds) of the records inside `[first, afterLast)` in New York, split at
    /// midnight as both tools count them, from Stint's own report.
    static func dailyTotals(_ records: [ImportedRecord], from first: CivilDate, to afterLast: CivilDate)
        -> [CivilDate: Int64]
    {
        let range = TimeInterval64(start: newYork.startOfDay(first), end: newYork.startOfDay(afterLast))
        let report = TimeReport(
            source: projection(records), range: range, grouping: .day, attribution: .splitAtMidnight, now: range.end)
        return Dictionary(uniqueKeysWithValues: report.periods.map { ($0.firstDay, $0.tagSum) })
    }
}

extension ImportedRecord {
    /// What the decision step compares with the log's record of the same id (the position is not a value).
    struct Values: Hashable {
        var start: Instant
        var end: Instant?
        var tagName: String?
        var comment: String?
    }

    var values: Values { Values(start: start, end: end, tagName: tagName, comment: comment) }
}
