import StintCore
import StintEngine

/// `stint report`.
struct ReportVerb: Verb {
    static let since = Option(
        "since", "TIME", "The start of the range (instead of a PERIOD); alone, up to the end of today.")
    static let until = Option("until", "TIME", "The end of the range, exclusive; alone, from the first record on.")
    static let all = Flag("all", "The whole history of the log.")
    static let by = Option("by", "GROUP", "Rows per day, week, month or tag only (default: day, month past 31 days).")
        .choices(TimeReport.Grouping.allCases.map(\.rawValue))
    static let tag = Option("tag", "NAME", "Only this tag's time.").withCompletion(.tags)
    static let untagged = Flag("untagged", "Only untagged time (records without a tag or on a deleted tag).")
    static let splitAtMidnight = Flag(
        "split-at-midnight", "Apportion a record that crosses midnight to the days it covers.")
    static let csv = Flag("csv", "Print CSV (RFC 4180) instead of text.")

    static let spec = VerbSpec(
        path: ["report"],
        abstract: "Totals over any range, per day, week, month or tag, with running timers counted up to now.",
        arguments: [
            ArgumentSpec(
                name: "PERIOD",
                help: "today, yesterday, week, last-week, month, last-month, year or last-year (default: week).",
                arity: .optional, completion: .choices(ReportRange.Period.names))
        ],
        options: [since, until, all, by, tag, untagged, splitAtMidnight, csv] + PointArguments.options,
        discussion: """
            Ranges are in the log's time zone; weeks start on the log's first weekday. A running timer
            counts up to now (or to --at). A record that crosses midnight counts whole on the day it
            started, as the app counts it, and belongs to the range it starts in; --split-at-midnight
            apportions it to the days it covers and counts only its part inside the range (a 22:00–02:00
            record gives 2:00 to each day).

            Two totals answer different questions when timers overlap: the sum of tags adds every record
            (two timers running for an hour give two hours, and each tag its hour), the wall clock counts
            each instant once (one hour). Timewarrior's totals extension adds an interval once per tag and
            Watson's report adds overlapping frames, so their totals are sums of tags; Stint prints both.

            --json prints {range: {start, end, firstDay, lastDay}, timeZone, by, midnight (wholeOnStartDay
            or splitAtMidnight), now, tagFilter (null, or {tagId, name}; both null for --untagged),
            periods: [{period, start, end, tags, tagSum, wallClock}], tags, tagSum, wallClock, records,
            runningRecords}; each tag is {tagId, tag, color, seconds} (tagId and tag null for untagged
            time), totals are seconds. A period is 2026-11-23 (day), the week's first day, or 2026-11.
            --csv prints the header row,period,start,end,tag,tag_id,seconds,duration and one row per tag
            and period (row tag), then the period's sum and wall-clock rows (row sum, wall-clock); the
            whole range's rows have period total. tag and tag_id are empty for untagged time; durations are
            seconds and H:MM.
            """,
        examples: [
            ("stint report", "This week, per day and tag."),
            ("stint report last-month --by tag", "Last month's time per tag."),
            ("stint report --since 2026-11-01 --until 2026-12-01 --by week --csv", "November by week, as CSV."),
            ("stint report --all --by month --json", "The whole history per month, as JSON."),
            ("stint report week --tag writing --split-at-midnight", "This week's writing, split at midnight."),
        ]
    )

    let period: String?
    let since: String?
    let until: String?
    let all: Bool
    let grouping: TimeReport.Grouping?
    let tagName: String?
    let untagged: Bool
    let attribution: TimeReport.Attribution
    let csv: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        period = arguments.positionals.first
        if let period { _ = try ReportRange.Period.parse(period, verb: Self.spec.name) }
        since = arguments[Self.since]
        until = arguments[Self.until]
        all = arguments[Self.all]
        if let text = arguments[Self.by] {
            guard let grouping = TimeReport.Grouping(rawValue: text.lowercased()) else {
                let names = TimeReport.Grouping.allCases.map(\.rawValue)
                let hint = Suggestion.nearest(to: text, among: names).map { " Did you mean '\($0)'?" } ?? ""
                throw CLIError.usage(
                    "--by takes \(names.joined(separator: ", ")), not '\(text)'.\(hint)", verb: Self.spec.name)
            }
            self.grouping = grouping
        } else {
            grouping = nil
        }
        tagName = arguments[Self.tag]
        untagged = arguments[Self.untagged]
        if tagName != nil, untagged {
            throw CLIError.usage("give --tag NAME or --untagged, not both", verb: Self.spec.name)
        }
        attribution = arguments[Self.splitAtMidnight] ? .splitAtMidnight : .wholeOnStartDay
        csv = arguments[Self.csv]
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        if csv, context.globals.json {
            throw CLIError.usage("give --json or --csv, not both", verb: Self.spec.name)
        }
        if let (totals, range, filter) = try fromTotals(context) {
            write(
                ReportOutput(
                    report: totals.report, range: range,
                    facts: ReportFacts(running: totals.running, crossingMidnight: totals.crossingMidnight),
                    tags: totals.tags, filter: filter, now: totals.basis.now,
                    format: TextFormat(calendar: totals.basis.calendar)),
                context)
            return
        }
        // A range that does not depend on the records is resolved first, so that only its records are read.
        var resolved: ReportRange?
        let window = { (calendar: LogCalendar, now: Instant) throws(CLIError) -> TimeInterval64? in
            guard !ReportRange.needsRecords(since: since, until: until, all: all) else { return nil }
            resolved = try resolveRange(calendar: calendar, bounds: { (nil, nil) }, now: now, context: context)
            return resolved?.interval
        }
        let view =
            all
            ? try Progress.during("Reading the log", context: context) { () throws(CLIError) in
                try context.recordsView(point)
            } : try context.recordsView(point, window: window)
        let source = view.source
        let range: ReportRange
        if let resolved {
            range = resolved
        } else {
            range = try resolveRange(
                calendar: view.calendar, bounds: { ReportRange.bounds(of: source.records, now: view.now) },
                now: view.now, context: context)
        }
        let filter = try tagFilter(tags: view.tags)
        let calendar = view.calendar
        let report = TimeReport(
            source: source, range: range.interval, grouping: grouping(of: range, calendar: calendar),
            attribution: attribution, tagFilter: filter, now: view.now)
        let facts = ReportFacts(
            source: source, range: range.interval, attribution: attribution, tagFilter: filter, now: view.now)
        write(
            ReportOutput(
                report: report, range: range, facts: facts, tags: view.tags, filter: filter, now: view.now,
                format: TextFormat(calendar: calendar)), context)
    }

    /// The report from the read models' day-and-tag totals, with its range and tag filter, when the command
    /// reads the head and the models reflect it; nil otherwise (the records are read instead).
    func fromTotals(_ context: CommandContext) throws(CLIError) -> (ReportTotalsView, ReportRange, EntityID??)? {
        var asked: (ReportRange, EntityID??)?
        var failure: CLIError?
        let totals = try context.reportTotalsView(point) { basis in
            do throws(CLIError) {
                let range = try resolveRange(
                    calendar: basis.calendar, bounds: { (basis.firstStart, basis.lastEnd) }, now: basis.now,
                    context: context)
                let filter = try tagFilter(tags: basis.tags)
                asked = (range, filter)
                return ReportTotalsView.Query(
                    range: range.interval, grouping: grouping(of: range, calendar: basis.calendar),
                    attribution: attribution, tagFilter: filter)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        guard let totals, let asked else { return nil }
        return (totals, asked.0, asked.1)
    }

    /// `--by`, or per day up to 31 days and per month past them.
    func grouping(of range: ReportRange, calendar: LogCalendar) -> TimeReport.Grouping {
        if let grouping { return grouping }
        let days =
            calendar.date(of: range.interval.end.adding(milliseconds: -1)).daysSinceEpoch
            - calendar.date(of: range.interval.start).daysSinceEpoch + 1
        return days > 31 ? .month : .day
    }

    func write(_ output: ReportOutput, _ context: CommandContext) {
        if csv {
            context.write(output.csv())
        } else if context.globals.json {
            context.printJSON(output.json())
        } else {
            context.write(output.text(style: context.style))
        }
    }

    /// The report's range in `calendar` at `now`; `bounds` is called only for `--all` or `--until` alone.
    func resolveRange(
        calendar: LogCalendar, bounds: () -> (firstStart: Instant?, lastEnd: Instant?), now: Instant,
        context: CommandContext
    ) throws(CLIError) -> ReportRange {
        try ReportRange.resolve(
            period: period, since: since, until: until, all: all, defaultPeriod: .week, verb: Self.spec.name,
            calendar: calendar, bounds: bounds, now: now, context: context)
    }

    /// `--tag NAME` as a tag id, `--untagged` as `.some(nil)`, neither as nil.
    func tagFilter(tags: [EntityID: Tag]) throws(CLIError) -> EntityID?? {
        if untagged { return .some(nil) }
        guard let tagName else { return nil }
        if let tag = Tag.live(named: tagName, in: tags) { return .some(tag.id) }
        if tagName.lowercased() == "untagged" || tagName.lowercased() == "(untagged)" {
            throw CLIError.usage("there is no tag named \(tagName); for time without a tag, use --untagged", verb: nil)
        }
        let names = tags.values.filter { !$0.isDeleted }.map(\.name)
        let hint = Suggestion.nearest(to: tagName, among: names).map { " Did you mean '\($0)'?" } ?? ""
        throw CLIError.refused("there is no tag named \(tagName).\(hint) 'stint tags' lists the tags.")
    }
}
