import StintCore

/// `stint report`'s three outputs (text, JSON, CSV) of one ``TimeReport``.
struct ReportOutput {
    let report: TimeReport
    let range: ReportRange
    let facts: ReportFacts
    /// Every tag of the log, for colors.
    let tags: [EntityID: Tag]
    let filter: EntityID??
    let now: Instant
    let format: TextFormat

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The name of a period in text: `Mon 2026-11-23`, `Week of Mon 2026-11-23`, `November 2026`.
    func periodTitle(_ period: TimeReport.Period) -> String {
        switch report.grouping {
        case .day, .tag: return format.day(period.firstDay)
        case .week: return "Week of " + format.day(period.firstDay)
        case .month: return "\(ReportOutput.monthNames[period.firstDay.month - 1]) \(period.firstDay.year)"
        }
    }

    /// The key of a period in JSON and CSV: `2026-11-23` (a day, or a week's first day) or `2026-11`.
    func periodKey(_ period: TimeReport.Period) -> String {
        report.grouping == .month ? String(period.firstDay.iso8601.prefix(7)) : period.firstDay.iso8601
    }

    func tagLabel(_ total: TimeReport.TagTotal) -> String {
        total.tagId == nil ? "(untagged)" : total.name
    }

    func color(_ total: TimeReport.TagTotal) -> String {
        total.tagId.flatMap { tags[$0]?.color } ?? TextFormat.untaggedColor
    }

    var filterLabel: String? {
        switch filter {
        case .none: return nil
        case .some(.none): return "untagged time"
        case .some(.some(let id)): return "tag " + (tags[id]?.name ?? id.uuidString)
        }
    }

    // MARK: Text

    /// The report for people.
    func text(style: TerminalStyle) -> String {
        var header = (range.title.map { $0.prefix(1).uppercased() + $0.dropFirst() + ", " } ?? "") + range.label(format)
        header += report.grouping == .tag ? ", by tag" : ", by \(report.grouping.rawValue)"
        if let filterLabel { header += ", " + filterLabel }
        header += " (\(format.calendar.timeZoneIdentifier))"
        var lines = [style.bold(header), ""]
        guard report.recordCount > 0 else {
            lines.append("No time recorded in this range.")
            return lines.joined(separator: "\n") + "\n"
        }
        // Rows: (indented label, duration, note); laid out in two aligned columns.
        var rows: [(label: String, plainWidth: Int, duration: String, note: String)] = []
        func row(_ label: String, _ styled: String? = nil, _ milliseconds: Int64, _ note: String = "") {
            rows.append(
                (
                    styled ?? label, TerminalColumns.of(label),
                    DurationFormatter.hoursMinutes(milliseconds: milliseconds), note
                ))
        }
        for period in report.periods {
            let title = periodTitle(period)
            row(title, style.bold(title), period.tagSum)
            for total in period.tags {
                row(
                    "  " + tagLabel(total), "  " + style.colored(tagLabel(total), hex: color(total)), total.milliseconds
                )
            }
            if period.wallClock != period.tagSum {
                row(
                    "  wall clock", "  " + style.dim("wall clock"), period.wallClock,
                    style.dim("overlapping timers counted once"))
            }
            rows.append(("", 0, "", ""))
        }
        rows.append((style.bold("Total by tag"), TerminalColumns.of("Total by tag"), "", ""))
        for total in report.tags {
            let percent = report.tagSum > 0 ? (total.milliseconds * 200 + report.tagSum) / (2 * report.tagSum) : 0
            row(
                "  " + tagLabel(total), "  " + style.colored(tagLabel(total), hex: color(total)), total.milliseconds,
                String(percent).leftPadded(3) + "%")
        }
        row("Sum of tags", style.bold("Sum of tags"), report.tagSum)
        row(
            "Wall clock", style.bold("Wall clock"), report.wallClock,
            style.dim(report.wallClock == report.tagSum ? "no timers overlapped" : "overlapping timers counted once"))
        let labelWidth = rows.map(\.plainWidth).max() ?? 0
        let durationWidth = rows.map(\.duration.count).max() ?? 0
        for entry in rows {
            guard !entry.label.isEmpty else {
                lines.append("")
                continue
            }
            guard !entry.duration.isEmpty else {
                lines.append(entry.label)
                continue
            }
            var line = entry.label + String(repeating: " ", count: labelWidth - entry.plainWidth + 2)
            line += entry.duration.leftPadded(durationWidth)
            if !entry.note.isEmpty { line += "  " + entry.note }
            lines.append(line)
        }
        lines.append("")
        lines.append(contentsOf: footer())
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sentences under the totals: records, running timers, midnight.
    func footer() -> [String] {
        let count = report.recordCount
        var sentence = "\(count) record\(count == 1 ? "" : "s")"
        if facts.running > 0 {
            sentence += ", \(facts.running) running (counted up to \(format.dateTime(now)))"
        }
        var lines = [sentence + "."]
        let crossing = facts.crossingMidnight
        if crossing > 0 {
            let one = crossing == 1
            let subject = one ? "1 record crosses midnight" : "\(crossing) records cross midnight"
            switch report.attribution {
            case .wholeOnStartDay:
                lines.append(
                    one
                        ? "\(subject) and counts whole on the day it started; --split-at-midnight apportions it."
                        : "\(subject) and count whole on the day they started; --split-at-midnight apportions them.")
            case .splitAtMidnight:
                lines.append(
                    one
                        ? "\(subject) and is apportioned to the days it covers."
                        : "\(subject) and are apportioned to the days they cover.")
            }
        }
        return lines
    }

    // MARK: JSON

    func json() -> JSON {
        var object = JSONObjectBuilder()
        let calendar = format.calendar
        object.add(
            "range",
            .object([
                "start": .string(range.interval.start.iso8601), "end": .string(range.interval.end.iso8601),
                "firstDay": .string(calendar.date(of: range.interval.start).iso8601),
                "lastDay": .string(calendar.date(of: range.interval.end.adding(milliseconds: -1)).iso8601),
            ]))
        object.add("timeZone", .string(calendar.timeZoneIdentifier))
        object.add("by", .string(report.grouping.rawValue))
        object.add("midnight", .string(report.attribution == .wholeOnStartDay ? "wholeOnStartDay" : "splitAtMidnight"))
        object.add("now", .string(now.iso8601))
        switch filter {
        case .none: object.add("tagFilter", JSON.null)
        case .some(let id):
            object.add(
                "tagFilter",
                .object([
                    "tagId": id.map { .string($0.uuidString) } ?? .null,
                    "name": id.flatMap { tags[$0]?.name }.map(JSON.string) ?? .null,
                ]))
        }
        object.add(
            "periods",
            .array(
                report.periods.map { period in
                    .object([
                        "period": .string(periodKey(period)), "start": .string(period.start.iso8601),
                        "end": .string(period.end.iso8601), "tags": .array(period.tags.map(tagJSON)),
                        "tagSum": JSON.seconds(milliseconds: period.tagSum),
                        "wallClock": JSON.seconds(milliseconds: period.wallClock),
                    ])
                }))
        object.add("tags", .array(report.tags.map(tagJSON)))
        object.add("tagSum", JSON.seconds(milliseconds: report.tagSum))
        object.add("wallClock", JSON.seconds(milliseconds: report.wallClock))
        object.add("records", .int(Int64(report.recordCount)))
        object.add("runningRecords", .int(Int64(facts.running)))
        return object.json
    }

    func tagJSON(_ total: TimeReport.TagTotal) -> JSON {
        .object([
            "tagId": total.tagId.map { .string($0.uuidString) } ?? .null,
            "tag": total.tagId == nil ? .null : .string(total.name), "color": .string(color(total)),
            "seconds": JSON.seconds(milliseconds: total.milliseconds),
        ])
    }

    // MARK: CSV

    func csv() -> String {
        var table = CSV(header: ["row", "period", "start", "end", "tag", "tag_id", "seconds", "duration"])
        func add(
            _ kind: String, _ key: String, _ start: Instant, _ end: Instant, _ tag: TimeReport.TagTotal?, _ ms: Int64
        ) {
            table.append([
                kind, key, start.iso8601, end.iso8601, tag.map { $0.tagId == nil ? "" : $0.name } ?? "",
                tag?.tagId?.uuidString ?? "", JSON.seconds(milliseconds: ms).encodedString,
                DurationFormatter.hoursMinutes(milliseconds: ms),
            ])
        }
        for period in report.periods {
            let key = periodKey(period)
            for total in period.tags { add("tag", key, period.start, period.end, total, total.milliseconds) }
            add("sum", key, period.start, period.end, nil, period.tagSum)
            add("wall-clock", key, period.start, period.end, nil, period.wallClock)
        }
        let (start, end) = (range.interval.start, range.interval.end)
        for total in report.tags { add("tag", "total", start, end, total, total.milliseconds) }
        add("sum", "total", start, end, nil, report.tagSum)
        add("wall-clock", "total", start, end, nil, report.wallClock)
        return table.text
    }
}
