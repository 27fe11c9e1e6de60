import StintCore
import StintEngine

/// `stint snapshot`.
struct SnapshotVerb: Verb {
    static let spec = VerbSpec(
        path: ["snapshot"],
        abstract: "Print the widget snapshot (WidgetData JSON) as of now, --at TIME or --seq N.",
        options: PointArguments.options + [AsPublished.spec, ExpectOption.spec],
        discussion: """
            The snapshot is what an app following the reference design publishes for its widgets. By default
            it is the snapshot a publish at the point would write: built from the events recorded by then,
            with the point as lastUpdated. With --as-published it is what the snapshot file held at the
            point: the snapshot of the app's last write at or before it (the app publishes after every
            batch but writes only when the snapshot changed or the file's is stale, see 'stint replay'),
            with that write's time as lastUpdated.
            """,
        examples: [
            ("stint snapshot", "Today's snapshot."),
            ("stint snapshot --at \"2026-11-24T09:00\"", "What a publish at 9:00 on Tuesday writes."),
            ("stint snapshot --at \"2026-11-24T09:00\" --as-published", "What the widget's file held then."),
        ]
    )

    let point: PointArguments
    let asPublished: Bool
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
        asPublished = arguments.flag(AsPublished.name)
        expect = arguments.value("expect")
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let snapshot: WidgetData
        if asPublished {
            snapshot = try PublishedMoment.load(point, context: context).snapshot
        } else {
            let view = try context.projectionView(point)
            snapshot = WidgetData(source: view.source, now: view.now)
        }
        try ExpectOption.emit(snapshot.json.prettyEncoded(), expect: expect, context: context)
    }
}

/// `stint summary`.
struct SummaryVerb: Verb {
    static let spec = VerbSpec(
        path: ["summary"],
        abstract: "Time by tag for today, this week or this month (the \"Time by Tag\" widget's numbers).",
        options: [
            .value("period", "PERIOD", "today, week or month (default: week)."),
            .value("limit", "N", "At most N rows; the last row folds the rest into \"Other\"."),
        ] + PointArguments.options + [ExpectOption.spec],
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
        let name = arguments.value("period") ?? "week"
        guard let period = WidgetPeriod(name: name) else {
            throw CLIError.usage("--period takes today, week or month, not '\(name)'", verb: Self.spec.name)
        }
        self.period = period
        if let text = arguments.value("limit") {
            guard let limit = Int(text), limit >= 1 else {
                throw CLIError.usage("--limit takes a whole number ≥ 1, not '\(text)'", verb: Self.spec.name)
            }
            self.limit = limit
        } else {
            limit = nil
        }
        point = try PointArguments(arguments, verb: Self.spec.name)
        expect = arguments.value("expect")
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

/// `stint timeline`.
struct TimelineVerb: Verb {
    static let spec = VerbSpec(
        path: ["timeline"],
        abstract: "The widget timeline: the entries a widget shows until its next reload.",
        options: PointArguments.options + [AsPublished.spec, ExpectOption.spec],
        discussion: """
            With a timer running: an entry now and at each of the next 60 minute boundaries; with none: now
            and the next midnight. Entries from midnight on show the rolled-over day. Policy: atEnd.

            By default the timeline is the one a publish at the point would give the widget: built at the
            point for the snapshot of the events recorded by then. With --as-published it is the timeline
            the widget was showing at the point: built for the snapshot in the file then (see 'stint
            snapshot --as-published') at the widget's last reload at or before the point, which is the
            app's write or, when that timeline had ended, the widget's own reload at its last entry.
            """,
        examples: [
            ("stint timeline --json", "The timeline as JSON."), ("stint timeline --seq 40", "After event 40."),
            ("stint timeline --at \"yesterday 15:10\" --as-published", "The timeline on screen then."),
        ]
    )

    let point: PointArguments
    let asPublished: Bool
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
        asPublished = arguments.flag(AsPublished.name)
        expect = arguments.value("expect")
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let calendar: LogCalendar
        let timeline: WidgetTimeline
        if asPublished {
            let loaded = try PublishedMoment.load(point, context: context)
            calendar = loaded.calendar
            guard
                let shown = WidgetTimelineBuilder.timeline(
                    for: loaded.snapshot, publishedAt: loaded.snapshot.lastUpdated, showingAt: loaded.moment,
                    calendar: calendar)
            else {
                throw CLIError.refused("nothing was published at or before \(loaded.moment.iso8601); give a later --at")
            }
            timeline = shown
        } else {
            let view = try context.projectionView(point)
            calendar = view.calendar
            let snapshot = WidgetData(source: view.source, now: view.now)
            timeline = WidgetTimelineBuilder.timeline(for: snapshot, now: view.now, calendar: calendar)
        }
        if context.globals.json || expect != nil {
            try ExpectOption.emit(timeline.json.prettyEncoded(), expect: expect, context: context)
            return
        }
        let format = TextFormat(calendar: calendar)
        context.print("\(timeline.entries.count) entries, reload policy: at end")
        for entry in timeline.entries {
            var line =
                "\(format.dateTime(entry.date))  today \(DurationFormatter.hoursMinutes(milliseconds: entry.todayTotal))"
            if entry.isRolledOver { line += "  (new day)" }
            for (timer, elapsed) in zip(entry.data.runningTimers, entry.timers) {
                line += "  \(timer.tagName ?? "Timer") \(elapsed.text)"
            }
            context.print(line)
        }
    }
}

/// `stint live-activity`.
struct LiveActivityVerb: Verb {
    static let spec = VerbSpec(
        path: ["live-activity"],
        abstract: "The Live Activity content: the first 8 running timers and how many run.",
        options: PointArguments.options + [ExpectOption.spec],
        examples: [("stint live-activity --json", "The content as the app hands it to ActivityKit.")]
    )

    let point: PointArguments
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
        expect = arguments.value("expect")
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view = try context.projectionView(point)
        let content = LiveActivityContent(source: view.source)
        if context.globals.json || expect != nil {
            try ExpectOption.emit(
                JSON.object(["content": content.json]).prettyEncoded(), expect: expect, context: context)
            return
        }
        guard content.runningCount > 0 else {
            context.print("No timer is running: no Live Activity.")
            return
        }
        let format = TextFormat(calendar: view.calendar)
        for timer in content.timers {
            var line = "\(timer.tagName ?? "Timer")  since \(format.runningStart(timer.startTime, now: view.now))  "
            line += DurationFormatter.hoursMinutes(milliseconds: timer.duration(at: view.now))
            if let comment = timer.comment { line += "  " + comment.replacingNewlines() }
            context.print(line)
        }
        if content.runningCount > content.timers.count {
            context.print("+\(content.runningCount - content.timers.count) more")
        }
    }
}

/// `--as-published`: what the app had published at the point rather than what a publish there would give.
enum AsPublished {
    static let name = "as-published"
    static let spec = OptionSpec.flag(
        name, "Show what the widget had at the point: the app's last write at or before it, not a publish at it.")
}
