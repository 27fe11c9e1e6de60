import StintCore

/// `stint status`.
struct StatusVerb: Verb {
    static let spec = VerbSpec(
        path: ["status"],
        abstract: "The running timers with their elapsed time, and today's total.",
        options: PointArguments.options,
        examples: [("stint status", "What runs now."), ("stint status --at \"yesterday 17:00\"", "What ran then.")]
    )

    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view = try context.projectionView(point)
        let snapshot = WidgetData(source: view.source, now: view.now)
        let today = snapshot.todayTotal(at: view.now, calendar: view.calendar)
        // The source's records are ordered by start, then id: the running ones in the state's order.
        let running = view.source.records.filter(\.isRunning)
        let tags = view.source.tags
        if context.globals.json {
            context.printJSON(
                .object([
                    "now": .string(view.now.iso8601),
                    "running": .array(
                        running.map { record in
                            var json = TextFormat.json(record, tags: tags)
                            if case .object(var fields) = json {
                                fields.append(
                                    JSONField(
                                        "elapsed",
                                        JSON.seconds(milliseconds: max(0, view.now.milliseconds(since: record.start)))))
                                json = .object(fields)
                            }
                            return json
                        }),
                    "todayTotal": JSON.seconds(milliseconds: today),
                    "todayRecords": .int(Int64(snapshot.todayRecordsCount)),
                ]))
            return
        }
        let format = TextFormat(calendar: view.calendar)
        if running.isEmpty {
            context.print("No timer is running.")
        } else {
            for record in running {
                context.print(format.recordLine(record, tags: tags, now: view.now, style: context.style))
            }
        }
        let count = snapshot.todayRecordsCount
        context.print(
            "Today: \(DurationFormatter.hoursMinutes(milliseconds: today)) (\(count) record\(count == 1 ? "" : "s"))")
    }
}

/// `stint log`.
struct LogVerb: Verb {
    static let spec = VerbSpec(
        path: ["log"],
        abstract: "List the records that started in a range (default: today), by day.",
        options: [
            .value("since", "TIME", "The start of the range (default: today's midnight)."),
            .value("until", "TIME", "The end of the range, exclusive (default: the next midnight after --since)."),
            .flag("all", "Every record of the log."),
        ] + PointArguments.options,
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
        since = arguments.value("since")
        until = arguments.value("until")
        all = arguments.flag("all")
        point = try PointArguments(arguments, verb: Self.spec.name)
        if all, since != nil || until != nil {
            throw CLIError.usage("give --all or --since/--until, not both", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view =
            all
            ? try Progress.during("Reading the log", context: context) { () throws(CLIError) in
                try context.view(point)
            } : try context.view(point)
        let state = view.state
        let calendar = state.calendar
        var records = state.projectionSource.records
        if !all {
            let start =
                try since.map { (text) throws(CLIError) in
                    try context.parseTime(text, calendar: calendar, option: "--since")
                } ?? calendar.startOfDay(containing: view.now)
            let end =
                try until.map { (text) throws(CLIError) in
                    try context.parseTime(text, calendar: calendar, option: "--until")
                } ?? (since == nil ? calendar.startOfNextDay(after: view.now) : .distantFuture)
            guard start <= end else {
                throw CLIError.usage("--since must not be after --until", verb: Self.spec.name)
            }
            records = records.filter { $0.start >= start && $0.start < end }
        }
        if context.globals.json {
            context.printJSON(
                .array(
                    records.map { record in
                        var json = TextFormat.json(record, tags: state.tags)
                        if case .object(var fields) = json {
                            let end = record.end ?? max(view.now, record.start)
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
            dayTotal += (record.end ?? max(view.now, record.start)).milliseconds(since: record.start)
            context.print("  " + format.recordLine(record, tags: state.tags, now: view.now, style: context.style))
        }
        closeDay()
    }
}

extension Instant {
    /// An instant later than any a log holds.
    static let distantFuture = Instant(milliseconds: Int64.max / 2)
}
