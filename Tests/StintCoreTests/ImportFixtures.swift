import Foundation
import StintCore

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

    /// `H:MM:SS` as milliseconds; nil for anything else.
    static func duration(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]),
            let seconds = Int64(parts[2]), parts[1].count == 2, parts[2].count == 2
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000
    }

    static func date(_ text: Substring) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        return CivilDate(year: year, month: month, day: day)
    }
}

/// The table `timew summary` prints: one row per interval and day (intervals are split at midnight),
/// the date on a day's first row, the day's total on its last row, and the grand total on a line alone.
struct TimewarriorSummary {
    var days: [CivilDate: Int64] = [:]
    var total: Int64?

    init(_ text: Substring) {
        var date: CivilDate?
        for line in text.split(separator: "\n") {
            let tokens = line.split(separator: " ")
            guard let first = tokens.first, first != "Wk", !first.hasPrefix("---") else { continue }
            if tokens.count == 1, let grand = ImportFixtures.duration(first) {
                total = grand
                continue
            }
            if first.hasPrefix("W"), tokens.count > 1, let rowDate = ImportFixtures.date(tokens[1]) { date = rowDate }
            // Start, end, time and, on a day's last row, the day's total: the trailing H:MM:SS tokens.
            let times = tokens.reversed().prefix { ImportFixtures.duration($0) != nil }.count
            guard times >= 3, let day = date, let time = ImportFixtures.duration(tokens[tokens.count - times + 2])
            else { continue }
            days[day, default: 0] += time
        }
    }

    /// The sections of `summary-tags.txt`: `# tag: "<name>"` followed by `timew summary … <name>`.
    static func perTag(_ text: String) throws -> [String: TimewarriorSummary] {
        var sections: [String: TimewarriorSummary] = [:]
        for section in text.components(separatedBy: "# tag: ").dropFirst() {
            let header = section.prefix { $0 != "\n" }
            let name = try JSON.parse(String(header)).stringValue!
            sections[name] = TimewarriorSummary(section.dropFirst(header.count))
        }
        return sections
    }
}

/// What `watson report --json` prints: seconds per project and, inside a project, per tag.
struct WatsonReport {
    var projects: [String: Int64] = [:]
    var projectTags: [String: [String: Int64]] = [:]
    var total: Int64 = 0
    /// The first day of the report's time span.
    var from: CivilDate?

    init(_ json: JSON) {
        total = WatsonReport.milliseconds(json["time"])
        if let from = json["timespan"]?["from"]?.stringValue { self.from = ImportFixtures.date(from.prefix(10)) }
        for project in json["projects"]?.arrayValue ?? [] {
            let name = project["name"]!.stringValue!
            projects[name] = WatsonReport.milliseconds(project["time"])
            for tag in project["tags"]?.arrayValue ?? [] {
                projectTags[name, default: [:]][tag["name"]!.stringValue!] = WatsonReport.milliseconds(tag["time"])
            }
        }
    }

    /// Watson's float seconds to whole seconds: a frame cut at the end of a day ends at 23:59:59.999999,
    /// one microsecond short.
    static func milliseconds(_ value: JSON?) -> Int64 {
        Int64((value?.doubleValue ?? 0).rounded()) * 1000
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
