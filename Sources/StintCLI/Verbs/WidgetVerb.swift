import StintCore
import StintEngine

/// `stint widget`.
struct WidgetVerb: Verb {
    static let family = Option(
        "family", "NAME", "The widget to draw, such as systemSmall; the families are listed below."
    ).required().choices(WidgetFamily.allCases.map(\.name))
    static let format = Option("format", "FORMAT", "text (a box of plain text, the default) or svg (an SVG document).")
        .choices(WidgetRenderFormat.allCases.map(\.name))
    static let period = Option(
        "period", "PERIOD", "today, week or month: the Time by Tag widgets' period (default: week)."
    ).choices(WidgetPeriod.allCases.map(\.name))
    static let asComputed = Flag(
        "as-computed",
        "Draw the widget of a publish at the moment (the snapshot computed then), not the one the file held.")

    static let spec = VerbSpec(
        path: ["widget"],
        abstract:
            "Draw a widget as it looked at a moment: home screen, lock screen, Time by Tag, Live Activity, Dynamic Island.",
        options: [family, format, period, asComputed] + PointArguments.options,
        discussion: """
            Families: systemSmall, systemMedium, systemLarge (home screen); accessoryCircular,
            accessoryRectangular, accessoryInline (lock screen); summaryMedium, summaryLarge (Time by Tag);
            liveActivity, dynamicIslandCompact, dynamicIslandExpanded (the Live Activity on the lock screen
            and in the Dynamic Island).

            The widget shows the snapshot file as it was at the moment: --at TIME, --seq N (the time event N
            was recorded, after the batches that end at or before N), or now. The app publishes after every
            command but, by the unchanged-snapshot rule, writes the file and reloads its widgets only when the
            snapshot changed (or the file's was more than 24 hours old); so the file holds the snapshot of
            the last batch that wrote it, with that batch's time as lastUpdated, and the widget shows the
            entry, in effect at the moment, of the timeline built at that reload (past the timeline's end,
            of the one it reloaded with the same snapshot). A snapshot older than 24 hours shows "\(WidgetWording.staleSnapshot)" in place of its
            caption (home and Time by Tag widgets).

            With --as-computed the widget is drawn from the snapshot computed at the moment, as if the app
            had published then (what 'stint snapshot' prints without --as-published), with the timeline built
            at the moment; it reads --seq DEVICE:N and --as-known-by too.

            The Live Activity shows the running timers from the batch that started it; iOS ends it 8 hours
            after it started, so a moment after that and before the next batch shows "\(WidgetWording.liveActivityEndedBySystem)".

            Finding that batch replays the publishes from the log's start up to the moment; 'stint replay'
            lists every write. The text box and the SVG have the family's size (systemSmall: 26 × 9
            characters, 170 × 170 points).
            """,
        examples: [
            ("stint widget --family systemSmall", "The small home screen widget now."),
            ("stint widget --family summaryLarge --period month --format svg > month.svg", "Time by Tag as an image."),
            ("stint widget --family accessoryRectangular --at \"yesterday 17:00\"", "The lock screen yesterday."),
            ("stint widget --family systemSmall --at 09:00 --as-computed", "A publish at 09:00, drawn."),
        ]
    )
    .noJSON(
        "it draws a widget (--format text or svg); for its data use 'stint snapshot --json' or 'stint timeline --json'")

    let family: WidgetFamily
    let format: WidgetRenderFormat
    let period: WidgetPeriod
    let computed: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let name = arguments[Self.family] else {
            throw CLIError.usage("widget needs --family NAME, one of: \(WidgetFamily.allNames)", verb: Self.spec.name)
        }
        guard let family = WidgetFamily(name: name) else {
            var message = "unknown widget family '\(name)'; use one of: \(WidgetFamily.allNames)"
            if let nearest = Suggestion.nearest(to: name, among: WidgetFamily.allCases.map(\.name)) {
                message =
                    "unknown widget family '\(name)'. Did you mean '\(nearest)'? The families: \(WidgetFamily.allNames)"
            }
            throw CLIError.usage(message, verb: Self.spec.name)
        }
        self.family = family
        let formatName = arguments[Self.format] ?? WidgetRenderFormat.text.name
        guard let format = WidgetRenderFormat(rawValue: formatName) else {
            throw CLIError.usage(
                "--format takes \(WidgetRenderFormat.allCases.map(\.name).joined(separator: " or ")), not '\(formatName)'",
                verb: Self.spec.name)
        }
        self.format = format
        if let periodName = arguments[Self.period] {
            guard let period = WidgetPeriod(name: periodName) else {
                throw CLIError.usage(
                    "--period takes today, week or month, not '\(periodName)'",
                    verb: Self.spec.name)
            }
            guard family.isSummary else {
                throw CLIError.usage(
                    "--period applies to the Time by Tag widgets (summaryMedium, summaryLarge), not to \(family.name)",
                    verb: Self.spec.name)
            }
            self.period = period
        } else {
            period = .thisWeek
        }
        computed = arguments[Self.asComputed]
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        if computed {
            // A publish at the moment: the snapshot computed then, its timeline built then.
            let view = try context.projectionView(point)
            let snapshot = WidgetData(source: view.source, now: view.now)
            let shown = PublishedMoment(snapshot: snapshot, liveActivity: nil, at: view.now)
            guard
                let drawn = Self.draw(
                    family, period: period, format: format, shown: shown, published: snapshot, at: view.now,
                    calendar: view.calendar)
            else {
                throw CLIError.refused("the timeline built at \(view.now.iso8601) has no entry for it")
            }
            context.write(drawn)
            return
        }
        // The file at the moment holds the snapshot of the last batch that wrote it.
        let (shown, published, moment, calendar) = try PublishedMoment.load(point, context: context)
        guard
            let drawn = Self.draw(
                family, period: period, format: format, shown: shown, published: published, at: moment,
                calendar: calendar)
        else {
            throw CLIError.refused(
                "nothing was published at or before \(moment.iso8601); give a later --at")
        }
        context.write(drawn)
    }

    /// `family` as the app had it on screen at `moment` (`shown`, whose snapshot file held `published`): the
    /// entry of the timeline in effect then; nil when the timeline has none for the moment.
    static func draw(
        _ family: WidgetFamily, period: WidgetPeriod, format: WidgetRenderFormat, shown: PublishedMoment,
        published: WidgetData, at moment: Instant, calendar: LogCalendar
    ) -> String? {
        guard
            let entry = WidgetTimelineBuilder.entry(
                for: published, publishedAt: published.lastUpdated, at: moment, calendar: calendar)
        else { return nil }
        if family.isLiveActivity, shown.liveActivityEndedBySystem != nil {
            let content = WidgetContent(family: family, entry: entry, calendar: calendar, period: period)
            return WidgetRenderer.render(content.endedBySystem(), format: format)
        }
        return WidgetRenderer.render(family, entry: entry, calendar: calendar, period: period, format: format)
    }
}
