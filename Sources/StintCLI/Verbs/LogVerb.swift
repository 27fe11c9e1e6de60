import StintCore

/// `stint log`.
struct LogVerb: Verb {
    static let since = Option("since", "TIME", "The start of the range (default: today's midnight).")
    static let until = Option(
        "until", "TIME", "The end of the range, exclusive (default: the next midnight after --since).")
    static let all = Flag("all", "Every record of the log.")

    static let spec = VerbSpec(
        path: ["log"],
        abstract: "List the records that started in a range (default: today), by day.",
        options: [since, until, all] + PointArguments.options,
        discussion: TimeHelp.text,
        examples: [
            ("stint log", "Today's records."), ("stint log --since \"3d ago\"", "The records of the last three days."),
            ("stint log --all --json", "Every record as JSON."),
        ]
    )

    let since: String?
    let until: String?
    let all: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        since = arguments[Self.since]
        until = arguments[Self.until]
        all = arguments[Self.all]
        point = try PointArguments(arguments, verb: Self.spec.name)
        if all, since != nil || until != nil {
            throw CLIError.usage("give --all or --since/--until, not both", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (source, now) = try records(context)
        let records = source.records
        let calendar = source.calendar
        if context.globals.json {
            context.printJSON(
                .array(
                    records.map { record in
                        var json = TextFormat.json(record, tags: source.tags)
                        if case .object(var fields) = json {
                            let end = record.end ?? max(now, record.start)
                            fields.append(
                                JSONField("seconds", JSON.seconds(milliseconds: end.milliseconds(since: record.start))))
                            fields.append(JSONField("running", .bool(record.isRunning)))
                            json = .object(fields)
                        }
                        return json
                    }))
            return
        }
        guard !records.isEmpty else {
            context.print("No records.")
            return
        }
        let format = TextFormat(calendar: calendar)
        var day: CivilDate?
        var dayTotal: Int64 = 0
        func closeDay() {
            if day != nil { context.print("  total \(DurationFormatter.hoursMinutes(milliseconds: dayTotal))") }
        }
        for record in records {
            let date = calendar.date(of: record.start)
            if date != day {
                closeDay()
                context.print(context.style.bold(format.day(date)))
                day = date
                dayTotal = 0
            }
            dayTotal += (record.end ?? max(now, record.start)).milliseconds(since: record.start)
            context.print("  " + format.recordLine(record, tags: source.tags, now: now, style: context.style))
        }
        closeDay()
    }

    /// The records of the range (or every record with `--all`), ordered by start, with the tags and the
    /// instant they are shown at. A range that starts inside the widget window is read from the projection
    /// view; an earlier one, or `--all`, from a records view (the read models at the log's head).
    private func records(_ context: CommandContext) throws(CLIError) -> (ProjectionSource, Instant) {
        if all {
            let view = try Progress.during("Reading the log", context: context) { () throws(CLIError) in
                try context.recordsView(point)
            }
            return (view.source, view.now)
        }
        let projection = try context.projectionView(point)
        let calendar = projection.calendar
        let given = try context.sinceUntil(since, until, calendar: calendar)
        let start = given.since ?? calendar.startOfDay(containing: projection.now)
        let end = given.until ?? (since == nil ? calendar.startOfNextDay(after: projection.now) : .distantFuture)
        guard start <= end else {
            throw CLIError.usage("--since must not be after --until", verb: Self.spec.name)
        }
        var source = projection.source
        if let horizon = projection.horizon, start < horizon {
            // Before the projection view's horizon: the records that overlap the range (at the log's head,
            // from the read models), a superset of those that start in it.
            source = try context.recordsView(point) { (_, _) throws(CLIError) in
                TimeInterval64(start: start, end: end)
            }.source
        }
        source.records = source.records.filter { $0.start >= start && $0.start < end }
        return (source, projection.now)
    }
}
