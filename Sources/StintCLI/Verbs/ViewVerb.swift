import Foundation
import StintCore
import StintEngine

/// `stint view`.
struct ViewVerb: Verb {
    static let out = Option("out", "FILE", "Write the page to FILE (.html); '-' writes it to standard output.")
        .required()
    static let since = Option("since", "TIME", "Show the points at or after TIME (the batches before are folded).")
    static let until = Option("until", "TIME", "Show the points before TIME.")
    static let at = Option("at", "TIME", "Show the points up to TIME (at it included); the page opens there.")
    static let points = Option(
        "points", "N",
        "At most N points, evenly spread (default: \(ReplayPage.defaultPoints), at most \(ReplayPage.maximumPoints)).")

    static let spec = VerbSpec(
        path: ["view"],
        abstract: "Write the history as one HTML page: the widgets and the batches at every point, offline.",
        options: [out, since, until, at, points],
        discussion: """
            The page is one self-contained file: no network, nothing fetched, it works from file:// offline.
            A scrubber (with First, Previous, Play, Next and Last, and the keys ← → Home End) moves over the
            points of the history: the instants at which batches were recorded. At each point it shows what an
            app following the reference design had on screen — the home screen, lock screen, Time by Tag
            (today, week, month) and Live Activity widgets (on the lock screen and in the Dynamic Island,
            compact and expanded), each the SVG that 'stint widget --family F --format
            svg --at T' prints for the point's instant T — the SHA-256 of 'stint snapshot --at T' (check it with
            'stint snapshot --at T | sha256sum'), what the batches changed (each record they changed, the
            running timers, today's total and today's time by tag, before and after), their 'stint replay' rows,
            and their events, each with its place in the hash chain (the first digits of the hash of the line
            before it, which it names; every event shown was checked as the log was read). A dot on the
            scrubber and in the list marks a point where the app wrote the snapshot file. On a space's replica
            a lane per device under the scrubber marks the points holding its batches (the points are in merge
            order), and the points where the merge resolved conflicts are marked and list them as 'stint
            conflicts --all' prints them.

            Every point of the range is kept up to --points N; a longer history keeps every second, fourth …
            point, evenly spread, and always the last one, and the page says how many batches each point
            stands for. The page is made by one replay from the log's first batch (a Live Activity's age
            depends on every batch before); the same log and arguments give the same bytes.
            """,
        examples: [
            ("stint view --out history.html", "Every point of the log (at most 400)."),
            ("stint view --since 2026-11-23 --until 2026-11-30 --out week.html", "One week."),
            ("stint view --at \"yesterday 17:00\" --points 100 --out yesterday.html", "Up to yesterday 17:00."),
        ]
    )
    .noJSON("it writes an HTML page; for the data use 'stint replay --json' and 'stint snapshot --json --at'")

    let out: String
    let since: String?
    let until: String?
    let at: String?
    let points: Int

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let out = arguments[Self.out], !out.isEmpty else {
            throw CLIError.usage(
                "view needs --out FILE, the page to write ('-' for standard output)", verb: Self.spec.name)
        }
        self.out = out
        since = arguments[Self.since]
        until = arguments[Self.until]
        at = arguments[Self.at]
        if at != nil, until != nil {
            throw CLIError.usage(
                "--at and --until both end the range; give one (--at includes its instant, --until does not)",
                verb: Self.spec.name)
        }
        if let text = arguments[Self.points] {
            guard let points = Int(text), (1...ReplayPage.maximumPoints).contains(points) else {
                throw CLIError.usage(
                    "--points takes a whole number from 1 to \(ReplayPage.maximumPoints), not '\(text)'",
                    verb: Self.spec.name)
            }
            self.points = points
        } else {
            points = ReplayPage.defaultPoints
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let reader = try context.reader()
        let calendar = try context.settings(of: reader).calendar
        let (start, end) = try context.sinceUntil(since, until, calendar: calendar)
        let through = try at.map { (text) throws(CLIError) in
            try context.parsePoint(text, calendar: calendar, option: "--at")
        }
        if let start, let bound = end ?? through, bound < start {
            throw CLIError.usage("--since must not be after \(end != nil ? "--until" : "--at")", verb: Self.spec.name)
        }
        let range = ReplayPage.Range(since: start, until: end, through: through ?? context.now)
        let page = try ReplayPage.collect(reader, range: range, limit: points, calendar: calendar, context: context)
        if let warning = page.warning {
            context.warn("the log is damaged; the page shows what was recorded before the damage: \(warning)")
        }
        guard !page.points.isEmpty else {
            throw CLIError.refused(
                "no batch was recorded in the range; widen it (--since, --until, --at) or leave it out for every point")
        }
        let html = page.html(calendar: calendar)
        guard out != "-" else {
            context.write(html)
            return
        }
        // Written to a temporary file and renamed over FILE: never over what is not a regular file (a device such as
        // /dev/full, a directory), which the rename would replace.
        if let type = (try? FileManager.default.attributesOfItem(atPath: out))?[.type] as? FileAttributeType,
            type != .typeRegular
        {
            throw CLIError.refused(
                "\(out) is not a regular file, and the page replaces FILE; give a file's path, or '-' for standard output"
            )
        }
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw CLIError.refused(
                "cannot write \(out) (\((error as NSError).localizedDescription)); check that its folder exists and is "
                    + "writable")
        }
        context.print("wrote \(out): \(page.points.count) points of \(page.batchesInRange) batches")
    }
}
