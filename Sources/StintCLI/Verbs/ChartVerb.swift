import StintCore
import StintEngine

/// `stint chart`.
struct ChartVerb: Verb {
    static let week = Flag("week", "This week (the default).")
    static let month = Flag("month", "This month.")
    static let last = Flag("last", "The week or month before this one.")
    static let splitAtMidnight = Flag(
        "split-at-midnight", "Apportion a record that crosses midnight to the days it covers.")

    static let spec = VerbSpec(
        path: ["chart"],
        abstract: "A terminal chart of a week or month: one row per day, a bar per tag, the day's total.",
        options: [week, month, last, splitAtMidnight] + PointArguments.options,
        discussion: """
            Each day's bar stacks its tags, longest first across the chart, in the tags' colors on a
            terminal. Without color (a pipe, NO_COLOR, --color never) each tag has its own fill character,
            and the legend under the chart says which is which in both cases. The scale is chosen so the
            longest day fits (COLUMNS wide, 80 by default) and is printed under the chart. Totals are sums
            of tags; a day whose timers overlapped also shows its wall-clock time. Records count on the day
            they started unless --split-at-midnight is given, as in 'stint report'.
            """,
        examples: [
            ("stint chart", "This week, day by day."), ("stint chart --month --last", "Last month."),
            ("stint chart --at \"2026-11-29T18:00\"", "The week as it looked on Sunday evening."),
        ]
    )
    .noJSON(
        "it draws for people; for the numbers use 'stint report --by day --json'")

    let month: Bool
    let last: Bool
    let attribution: TimeReport.Attribution
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        if arguments[Self.week], arguments[Self.month] {
            throw CLIError.usage("give --week or --month, not both", verb: Self.spec.name)
        }
        month = arguments[Self.month]
        last = arguments[Self.last]
        attribution = arguments[Self.splitAtMidnight] ? .splitAtMidnight : .wholeOnStartDay
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let period: ReportRange.Period = month ? (last ? .lastMonth : .month) : (last ? .lastWeek : .week)
        // Only the period's records are read (at the log's head, from the read models).
        let view = try context.recordsView(point) { (calendar, now) throws(CLIError) in
            period.interval(at: now, calendar: calendar)
        }
        let range = ReportRange(interval: period.interval(at: view.now, calendar: view.calendar), title: period.title)
        let report = TimeReport(
            source: view.source, range: range.interval, grouping: .day, attribution: attribution, now: view.now)
        let chart = TerminalChart(
            report: report, range: range, tags: view.tags, now: view.now,
            format: TextFormat(calendar: view.calendar), style: context.style, columns: context.terminalColumns)
        context.write(chart.render())
    }
}
