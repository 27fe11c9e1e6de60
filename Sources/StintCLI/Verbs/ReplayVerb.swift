import StintCore
import StintEngine

/// `stint replay`.
struct ReplayVerb: Verb {
    static let since = Option(
        "since", "TIME", "Show the batches recorded at or after TIME (earlier ones are folded, not shown).")
    static let until = Option("until", "TIME", "Show the batches recorded before TIME.")

    /// WidgetKit budgets roughly 40–70 reloads per widget per day; replay warns above the low end.
    static let dailyReloadBudget = 40

    static let spec = VerbSpec(
        path: ["replay"],
        abstract:
            "What an app following the reference design did after each batch: snapshot writes, reloads, Live Activity.",
        options: [since, until],
        discussion: """
            The app publishes after every command (every committed batch): it builds the widget snapshot at
            the batch's recorded time and compares it with the snapshot on disk, lastUpdated excluded. A
            different snapshot is written and the widgets are reloaded ("write"); an equal one is neither
            written nor reloaded ("unchanged"), unless the file's is more than 24 hours old (a stale
            snapshot is rewritten, so the widget stops asking for a refresh). The first batch always writes (there is no file yet). Then
            the Live Activity follows the running timers: start, update (only when its content changed),
            end, or none. iOS ends an activity 8 hours after it started (updates do not extend it): a line
            "ended by iOS" shows when, and the next batch while timers run starts a new one. The replay
            always walks from the log's first batch, so an activity's age is exact with --since too.

            One line per batch: its seq range, recorded time (log zone), snapshot action, Live Activity
            action with the number of running timers, and its event types. Then, per day of the log's zone,
            the batches and widget reloads of the days shown, by kind: "write" (the app wrote a changed
            snapshot), "hourly" (a running timer's timeline ended after its 60 minute entries and the widget
            asked for the next one) and "midnight" (an idle timeline ended at midnight). The widget's own
            reloads go on until the next write, up to --until or now, and are counted for 31 days after a
            write at most. A warning follows for each day above
            \(dailyReloadBudget) reloads, the low end of WidgetKit's daily budget (reloads caused by an app intent or
            while the app is in the foreground do not count against it, so this is an upper bound).

            --json prints {"timeZone", "reloadBudget", "batches": [{"firstSeq", "lastSeq", "at", "date",
            "types", "snapshot": "write"|"unchanged", "liveActivity": {"action", "content"?}}], "days":
            [{"date", "batches", "reloads", "writeReloads", "hourlyReloads", "midnightReloads"}],
            "reloads": [{"at", "date", "kind"}], "warnings": [{"date", "reloads", "message"}],
            "liveActivitySystemEnds": [{"at", "date"}]}; "content" (the Live Activity content, as 'stint
            live-activity --json' prints it) is present for start and update.
            """,
        examples: [
            ("stint replay", "Every batch of the log."),
            ("stint replay --since 2026-11-23 --until 2026-11-30", "One week, with the state before it folded."),
            ("stint replay --since \"1d ago\" --json", "The last day as JSON."),
        ]
    )

    let since: String?
    let until: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        since = arguments[Self.since]
        until = arguments[Self.until]
    }

    /// How many days after a write its widget's own reloads are counted (the budget is per day, and a
    /// widget left alone for longer reloads once a night).
    static let reloadDays = 31

    func run(_ context: CommandContext) throws(CLIError) {
        let reader = try context.reader()
        let calendar = try context.settings(of: reader).calendar
        let (start, end) = try context.sinceUntil(since, until, calendar: calendar)
        if let start, let end, end < start {
            throw CLIError.usage("--since must not be after --until", verb: Self.spec.name)
        }
        // The walk starts at the log's first event whatever --since says: the Live Activity's age (iOS
        // ends it after 8 hours) depends on batches before --since.
        let replay: PublishReplay
        do {
            replay = try PublishReplay(source: reader, since: nil, options: context.engineOptions)
        } catch {
            throw CLIError(error)
        }
        let format = TextFormat(calendar: calendar)
        var lines = ReplayLines(format: format, json: context.globals.json)
        // Nothing after now has happened: an --until in the future shows up to now.
        let bound = min(end ?? context.now, context.now)
        var printedHeader = false
        func show(_ line: @autoclosure () -> String) {
            guard !context.globals.json else { return }
            if !printedHeader {
                context.print(ReplayLines.header)
                printedHeader = true
            }
            context.print(line())
        }
        func isShown(_ instant: Instant) -> Bool {
            (start.map { instant >= $0 } ?? true) && (end.map { instant < $0 } ?? (instant <= context.now))
        }
        // The widget's own reloads: each timeline ends (hourly while a timer runs, at midnight otherwise)
        // and the widget builds the next one for the same snapshot, until the app writes a new one — counted
        // for at most the days of ``reloadDays`` after a write, so that a clock or a gap of centuries
        // (STINT_NOW=9999-12-31) does not make replay walk every midnight of them.
        var written: (snapshot: WidgetData, builtAt: Instant, limit: Instant)?
        func reloads(before instant: Instant) {
            guard var chain = written else { return }
            while true {
                let next = WidgetTimelineBuilder.nextReload(
                    for: chain.snapshot, builtAt: chain.builtAt, calendar: calendar)
                guard next.date < instant, next.date < chain.limit, next.date > chain.builtAt else { break }
                if isShown(next.date) { lines.add(next) }
                chain.builtAt = next.date
            }
            written = chain
        }
        var beyond: PublishReplay.Step?
        while true {
            let step: PublishReplay.Step
            do {
                guard let next = try replay.next() else { break }
                step = next
            } catch {
                throw CLIError(error)
            }
            if let end, step.at >= end {
                beyond = step
                break
            }
            reloads(before: step.at)
            if step.writesSnapshot {
                let limit = calendar.startOfDay(calendar.date(of: step.at).adding(days: Self.reloadDays + 1))
                written = (step.snapshot, step.at, limit)
            }
            if let start, step.at < start { continue }
            if let ended = step.systemEndedActivity, start.map({ ended >= $0 }) ?? true {
                lines.addSystemEnd(ended)
                show(lines.systemEndLine(ended))
            }
            lines.add(step)
            show(lines.line(for: step))
        }
        // An activity still shown after the last batch shown ends 8 hours after it started.
        let trailing = beyond.map { $0.systemEndedActivity } ?? replay.systemEnd(atOrBefore: bound)
        if let ended = trailing, ended < bound || (end == nil && ended == bound),
            start.map({ ended >= $0 }) ?? true
        {
            lines.addSystemEnd(ended)
            show(lines.systemEndLine(ended))
        }
        let afterNow = context.now.adding(milliseconds: 1)
        reloads(before: min(end ?? afterNow, afterNow))
        if let warning = replay.warning {
            context.warn("the log is damaged; the replay stops before the damage: \(warning.message)")
        }
        if context.globals.json {
            context.printJSON(lines.json(timeZone: calendar.timeZoneIdentifier))
        } else {
            for line in lines.summary(timeZone: calendar.timeZoneIdentifier) { context.print(line) }
        }
    }
}
