public import StintCore

/// Readers of what Timewarrior and Watson printed about the import fixtures (`Events/import/`), so that
/// tests compare Stint's totals with the tools' own.
public enum ToolReports {
    /// `H:MM:SS` as milliseconds; nil for anything else.
    public static func duration(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]),
            let seconds = Int64(parts[2]), parts[1].count == 2, parts[2].count == 2
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000
    }

    public static func date(_ text: Substring) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        return CivilDate(year: year, month: month, day: day)
    }
}

/// The table `timew summary` prints: one row per interval and day (intervals are split at midnight),
/// the date on a day's first row, the day's total on its last row, and the grand total on a line alone.
public struct TimewarriorSummary: Sendable {
    public var days: [CivilDate: Int64] = [:]
    public var total: Int64?

    public init(_ text: Substring) {
        var date: CivilDate?
        for line in text.split(separator: "\n") {
            let tokens = line.split(separator: " ")
            guard let first = tokens.first, first != "Wk", !first.hasPrefix("---") else { continue }
            if tokens.count == 1, let grand = ToolReports.duration(first) {
                total = grand
                continue
            }
            if first.hasPrefix("W"), tokens.count > 1, let rowDate = ToolReports.date(tokens[1]) { date = rowDate }
            // Start, end, time and, on a day's last row, the day's total: the trailing H:MM:SS tokens.
            let times = tokens.reversed().prefix { ToolReports.duration($0) != nil }.count
            guard times >= 3, let day = date, let time = ToolReports.duration(tokens[tokens.count - times + 2])
            else { continue }
            days[day, default: 0] += time
        }
    }

    /// The sections of `summary-tags.txt`: `# tag: "<name>"` followed by `timew summary … <name>`.
    public static func perTag(_ text: String) throws -> [String: TimewarriorSummary] {
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
public struct WatsonReport: Sendable {
    public var projects: [String: Int64] = [:]
    public var projectTags: [String: [String: Int64]] = [:]
    public var total: Int64 = 0
    /// The first day of the report's time span.
    public var from: CivilDate?

    public init(_ json: JSON) {
        total = WatsonReport.milliseconds(json["time"])
        if let from = json["timespan"]?["from"]?.stringValue { self.from = ToolReports.date(from.prefix(10)) }
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
    public static func milliseconds(_ value: JSON?) -> Int64 {
        Int64((value?.doubleValue ?? 0).rounded()) * 1000
    }
}
