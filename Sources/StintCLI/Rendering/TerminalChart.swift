import StintCore

/// A chart of a range's days for a terminal: one row per day, the day's tags as stacked bar segments,
/// the day's total, and a legend.
///
/// Readable without color: every tag gets its own fill character (`█ ▓ ▒ ░ # = + * o x ~ :`, then
/// again), and the legend names them. With color the segments are `█` in each tag's color.
struct TerminalChart {
    let report: TimeReport
    let range: ReportRange
    let tags: [EntityID: Tag]
    let now: Instant
    let format: TextFormat
    let style: TerminalStyle
    /// The width to fit.
    let columns: Int

    static let fills: [Character] = ["█", "▓", "▒", "░", "#", "=", "+", "*", "o", "x", "~", ":"]
    /// Minutes per cell the scale chooses from, finest first.
    static let scales: [Int64] = [5, 10, 15, 20, 30, 60, 120, 240, 480, 960]

    /// The tag keys in legend order (the range's longest first), with their fill and color.
    struct Series {
        var key: EntityID?
        var name: String
        var color: String
        var fill: Character
        var milliseconds: Int64
    }

    var series: [Series] {
        report.tags.enumerated().map { index, total in
            Series(
                key: total.tagId, name: total.tagId == nil ? "(untagged)" : total.name,
                color: total.tagId.flatMap { tags[$0]?.color } ?? TextFormat.untaggedColor,
                fill: style.isEnabled ? "█" : TerminalChart.fills[index % TerminalChart.fills.count],
                milliseconds: total.milliseconds)
        }
    }

    func render() -> String {
        let calendar = format.calendar
        let days = range.days(in: calendar)
        let today = calendar.date(of: now)
        let periods = Dictionary(report.periods.map { ($0.firstDay, $0) }, uniquingKeysWith: { first, _ in first })
        let series = series
        let label = { (day: CivilDate) in TextFormat.weekdays[day.weekday - 1] + " " + CivilDate.pad(day.day, 2) }
        let totals = days.map { day in periods[day].map { DurationFormatter.hoursMinutes(milliseconds: $0.tagSum) } }
        let totalWidth = max(4, totals.compactMap { $0?.count }.max() ?? 0)
        // label (6) + 2 + bar + 2 + total + a note such as "  wall 3:00  today" (up to 22).
        let barWidth = max(10, min(72, columns - 6 - 2 - 2 - totalWidth - 22))
        let longest = report.periods.map(\.tagSum).max() ?? 0
        let minutesPerCell =
            TerminalChart.scales.first { (longest / 60_000 + $0 - 1) / $0 <= Int64(barWidth) }
            ?? TerminalChart.scales.last!

        var title = (range.title.map { $0.prefix(1).uppercased() + $0.dropFirst() + ", " } ?? "") + range.label(format)
        title += " (\(calendar.timeZoneIdentifier))"
        var lines = [style.bold(title), ""]
        for (day, total) in zip(days, totals) {
            var line = label(day) + "  "
            var used = 0
            if let period = periods[day] {
                var cumulative: Int64 = 0
                var drawn = 0
                let byKey = Dictionary(period.tags.map { ($0.tagId, $0.milliseconds) }, uniquingKeysWith: +)
                for entry in series {
                    guard let milliseconds = byKey[entry.key], milliseconds > 0 else { continue }
                    cumulative += milliseconds
                    let end = Int((cumulative / 60_000 * 2 + minutesPerCell) / (2 * minutesPerCell))
                    let cells = max(0, end - drawn)
                    drawn += cells
                    guard cells > 0 else { continue }
                    line += style.colored(String(repeating: entry.fill, count: cells), hex: entry.color)
                }
                used = drawn
            }
            line += String(repeating: " ", count: max(0, barWidth - used) + 2)
            let isFuture = day > today
            line += (isFuture ? "" : (total ?? "0:00")).leftPadded(totalWidth)
            if let period = periods[day], period.wallClock != period.tagSum {
                line += style.dim("  wall \(DurationFormatter.hoursMinutes(milliseconds: period.wallClock))")
            }
            if day == today { line += "  " + style.bold("today") }
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        lines.append("")
        if series.isEmpty {
            lines.append("No time recorded in this range.")
        } else {
            lines += legend(series)
            let scale =
                minutesPerCell < 60
                ? "\(minutesPerCell) min" : "\(minutesPerCell / 60) hour\(minutesPerCell == 60 ? "" : "s")"
            var summary = "Total \(DurationFormatter.hoursMinutes(milliseconds: report.tagSum))"
            if report.wallClock != report.tagSum {
                summary += ", wall clock \(DurationFormatter.hoursMinutes(milliseconds: report.wallClock))"
                summary += " (overlapping timers counted once)"
            }
            lines.append(summary + ". One cell is \(scale).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `█ writing 3:00   ▓ email 1:00`, wrapped to the width.
    func legend(_ series: [Series]) -> [String] {
        var lines: [String] = []
        var line = ""
        var width = 0
        for entry in series {
            let plain =
                "\(entry.fill) \(entry.name) \(DurationFormatter.hoursMinutes(milliseconds: entry.milliseconds))"
            let styled =
                style.colored(String(entry.fill), hex: entry.color) + " " + style.colored(entry.name, hex: entry.color)
                + " " + DurationFormatter.hoursMinutes(milliseconds: entry.milliseconds)
            let plainWidth = TerminalColumns.of(plain)
            if width > 0, width + 3 + plainWidth > columns {
                lines.append(line)
                line = ""
                width = 0
            }
            line += (width > 0 ? "   " : "") + styled
            width += (width > 0 ? 3 : 0) + plainWidth
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
