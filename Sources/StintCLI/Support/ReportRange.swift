import StintCore

/// The span of time a report or chart covers: a named period, `--since`/`--until`, or `--all`.
struct ReportRange {
    /// The periods a person can name: `stint report last-week`.
    enum Period: String, CaseIterable, Sendable {
        case today, yesterday, week, lastWeek = "last-week", month, lastMonth = "last-month", year
        case lastYear = "last-year"

        /// The period a word names: `last-week`, `lastweek` and Timewarrior's `:lastweek` alike.
        init?(word: String) {
            var key = word.lowercased()
            if key.hasPrefix(":") { key.removeFirst() }
            key.removeAll { $0 == "-" || $0 == "_" }
            guard let match = Period.allCases.first(where: { $0.rawValue.filter { $0 != "-" } == key }) else {
                return nil
            }
            self = match
        }

        /// How the header names it: `this week`.
        var title: String {
            switch self {
            case .today: return "today"
            case .yesterday: return "yesterday"
            case .week: return "this week"
            case .lastWeek: return "last week"
            case .month: return "this month"
            case .lastMonth: return "last month"
            case .year: return "this year"
            case .lastYear: return "last year"
            }
        }

        /// The period's interval in `calendar` at `now`.
        func interval(at now: Instant, calendar: LogCalendar) -> TimeInterval64 {
            let today = calendar.date(of: now)
            let first: CivilDate
            let next: CivilDate
            switch self {
            case .today: (first, next) = (today, today.adding(days: 1))
            case .yesterday: (first, next) = (today.adding(days: -1), today)
            case .week:
                first = calendar.weekStart(of: today)
                next = first.adding(days: 7)
            case .lastWeek:
                next = calendar.weekStart(of: today)
                first = next.adding(days: -7)
            case .month: (first, next) = (calendar.monthStart(of: today), calendar.nextMonthStart(of: today))
            case .lastMonth:
                next = calendar.monthStart(of: today)
                first = calendar.monthStart(of: next.adding(days: -1))
            case .year:
                first = CivilDate(year: today.year, month: 1, day: 1)
                next = CivilDate(year: today.year + 1, month: 1, day: 1)
            case .lastYear:
                first = CivilDate(year: today.year - 1, month: 1, day: 1)
                next = CivilDate(year: today.year, month: 1, day: 1)
            }
            return TimeInterval64(start: calendar.startOfDay(first), end: calendar.startOfDay(next))
        }

        static let names = allCases.map(\.rawValue)

        /// The period `word` names, or a usage error that suggests the nearest name.
        static func parse(_ word: String, verb: String) throws(CLIError) -> Period {
            if let period = Period(word: word) { return period }
            var message = "unknown period '\(word)'; use one of \(names.joined(separator: ", "))"
            if let nearest = Suggestion.nearest(to: word, among: names) {
                message =
                    "unknown period '\(word)'. Did you mean '\(nearest)'? Periods: " + names.joined(separator: ", ")
            }
            throw CLIError.usage(message, verb: verb)
        }
    }

    var interval: TimeInterval64
    /// `this week`, `all records`; nil for a range given with `--since`/`--until`.
    var title: String?
    /// Whether the range is the whole history (`--all`).
    var isAll = false

    /// Whether the range depends on the records (`--all`, `--until` alone: they start at the first record),
    /// so that they must be read before it is known.
    static func needsRecords(since: String?, until: String?, all: Bool) -> Bool {
        all || (since == nil && until != nil)
    }

    /// `--all`: from the day of the first record's start (`firstStart`) to the end of the day of the latest
    /// end (`lastEnd`, a running record's `now`) or of `now`, whichever is later.
    static func all(firstStart: Instant?, lastEnd: Instant?, calendar: LogCalendar, now: Instant) -> ReportRange {
        ReportRange(
            interval: TimeInterval64(
                start: calendar.startOfDay(containing: firstStart ?? now),
                end: calendar.startOfNextDay(after: max(lastEnd ?? now, now))),
            title: "all records", isAll: true)
    }

    /// Resolves the range options of `verb` at `now`; with none, `defaultPeriod`.
    ///
    /// `bounds` gives the first record's start and the latest end of a record (``bounds(of:now:)``); it is
    /// called only when ``needsRecords(since:until:all:)``: `--all` and an open `--since` start at the first
    /// record.
    static func resolve(
        period: String?, since: String?, until: String?, all: Bool, defaultPeriod: Period, verb: String,
        calendar: LogCalendar, bounds: () -> (firstStart: Instant?, lastEnd: Instant?), now: Instant,
        context: CommandContext
    ) throws(CLIError) -> ReportRange {
        let given = [period != nil, since != nil || until != nil, all].filter { $0 }.count
        guard given <= 1 else {
            throw CLIError.usage("give a PERIOD, --since/--until, or --all, not several", verb: verb)
        }
        if all {
            let (firstStart, lastEnd) = bounds()
            return .all(firstStart: firstStart, lastEnd: lastEnd, calendar: calendar, now: now)
        }
        if since != nil || until != nil {
            let start =
                try since.map { (text) throws(CLIError) in
                    try context.parseTime(text, calendar: calendar, option: "--since")
                } ?? calendar.startOfDay(containing: bounds().firstStart ?? now)
            let end =
                try until.map { (text) throws(CLIError) in
                    try context.parseTime(text, calendar: calendar, option: "--until")
                } ?? calendar.startOfNextDay(after: max(now, start))
            guard start < end else {
                let format = TextFormat(calendar: calendar)
                throw CLIError.usage(
                    "--since (\(format.dateTime(start))) must be before --until (\(format.dateTime(end)))", verb: verb)
            }
            return ReportRange(interval: TimeInterval64(start: start, end: end), title: nil)
        }
        let chosen = try period.map { (word) throws(CLIError) in try Period.parse(word, verb: verb) } ?? defaultPeriod
        return ReportRange(interval: chosen.interval(at: now, calendar: calendar), title: chosen.title)
    }

    /// The first start of `records` (ordered by start, as `LogState.projectionSource` orders them) and their
    /// latest end (`now` for a running one).
    static func bounds(of records: [Record], now: Instant) -> (firstStart: Instant?, lastEnd: Instant?) {
        (records.first?.start, records.map { max($0.end ?? now, $0.start) }.max())
    }

    /// The local dates the range touches, first to last.
    func days(in calendar: LogCalendar) -> [CivilDate] {
        let first = calendar.date(of: interval.start)
        let last = calendar.date(of: interval.end.adding(milliseconds: -1))
        var days: [CivilDate] = []
        var day = first
        while day <= last {
            days.append(day)
            day = day.adding(days: 1)
        }
        return days
    }

    /// `Mon 2026-11-23 – Sun 2026-11-29`, with times when the range does not start or end at midnight.
    func label(_ format: TextFormat) -> String {
        let calendar = format.calendar
        let startsAtMidnight = calendar.startOfDay(containing: interval.start) == interval.start
        let endsAtMidnight = calendar.startOfDay(containing: interval.end) == interval.end
        let from =
            startsAtMidnight
            ? format.day(calendar.date(of: interval.start)) : format.dateTime(interval.start)
        let to =
            endsAtMidnight
            ? format.day(calendar.date(of: interval.end.adding(milliseconds: -1)))
            : format.dateTime(interval.end)
        return from == to ? from : "\(from) – \(to)"
    }
}
