import StintCore
import StintEngine

/// `stint timeline`.
struct TimelineVerb: Verb {
    static let spec = VerbSpec(
        path: ["timeline"],
        abstract: "The widget timeline: the entries a widget shows until its next reload.",
        options: PointArguments.options + [AsPublished.flag, ExpectOption.option],
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
        asPublished = arguments[AsPublished.flag]
        expect = arguments[ExpectOption.option]
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
