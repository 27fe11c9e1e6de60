import StintCore
import StintEngine

/// `stint summary`.
struct SummaryVerb: Verb {
    static let period = Option("period", "PERIOD", "today, week or month (default: week).")
    static let limit = Option("limit", "N", "At most N rows; the last row folds the rest into \"Other\".")

    static let spec = VerbSpec(
        path: ["summary"],
        abstract: "Time by tag for today, this week or this month (the \"Time by Tag\" widget's numbers).",
        options: [period, limit] + PointArguments.options + [ExpectOption.option],
        examples: [
            ("stint summary", "This week's time by tag."),
            ("stint summary --period month --limit 4 --json", "This month's top tags as JSON."),
        ]
    )

    let period: WidgetPeriod
    let limit: Int?
    let point: PointArguments
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        let name = arguments[Self.period] ?? "week"
        guard let period = WidgetPeriod(name: name) else {
            throw CLIError.usage("--period takes today, week or month, not '\(name)'", verb: Self.spec.name)
        }
        self.period = period
        if let text = arguments[Self.limit] {
            guard let limit = Int(text), limit >= 1 else {
                throw CLIError.usage("--limit takes a whole number ≥ 1, not '\(text)'", verb: Self.spec.name)
            }
            self.limit = limit
        } else {
            limit = nil
        }
        point = try PointArguments(arguments, verb: Self.spec.name)
        expect = arguments[ExpectOption.option]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view = try context.projectionView(point)
        let calendar = view.calendar
        let snapshot = WidgetData(source: view.source, now: view.now)
        var summary = snapshot.summary(for: period, at: view.now, calendar: calendar)
        if let limit { summary = summary.limited(to: limit) }
        if context.globals.json || expect != nil {
            try ExpectOption.emit(summary.json.prettyEncoded(), expect: expect, context: context)
            return
        }
        let format = TextFormat(calendar: calendar)
        let title: String
        switch period {
        case .today: title = "Today, " + format.day(calendar.date(of: summary.start))
        case .thisWeek:
            title =
                "This week, \(format.day(calendar.date(of: summary.start))) – "
                + format.day(calendar.date(of: summary.end.adding(milliseconds: -1)))
        case .thisMonth: title = "This month, " + String(calendar.date(of: summary.start).iso8601.prefix(7))
        }
        context.print("\(title): \(DurationFormatter.compact(milliseconds: summary.total))")
        guard !summary.rows.isEmpty else {
            context.print("  No records")
            return
        }
        let width = summary.rows.map(\.name.count).max() ?? 0
        for row in summary.rows {
            context.print("  \(row.name.padding(width))  \(DurationFormatter.compact(milliseconds: row.milliseconds))")
        }
    }
}
