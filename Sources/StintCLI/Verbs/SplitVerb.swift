import StintCore

/// `stint split`.
struct SplitVerb: Verb {
    static let at = Option("at", "TIME", "Where to cut (strictly inside the record).").required()

    static let spec = VerbSpec(
        path: ["split"],
        abstract: "Cut a record in two at a time inside it (same tag and comment).",
        arguments: [ArgumentSpec(name: "RECORD_ID", help: "The record's id or a unique prefix.")],
        options: [at],
        discussion: """
            The later part keeps the record's id (so a running timer keeps running); the earlier part gets a new one.
            It is refused (exit 1) when the earlier part would last more than 366 days, which no record may.
            """,
        examples: [("stint split 3f2a --at 12:00", "Makes 09:00–12:00 and 12:00–17:00 of 09:00–17:00.")]
    )
    .changingLog()

    let reference: String
    let at: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals[0]
        at = arguments[Self.at] ?? ""
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            let ref = try context.recordRef(reference)
            // A bare HH:MM names a time on the record's own day: the first of its days where the time is inside it.
            let calendar = state.calendar
            var day: CivilDate?
            let matching = state.records(matching: ref)
            if matching.count == 1, let record = matching.first {
                let end = record.end ?? context.now
                let days = [calendar.date(of: record.start), calendar.date(of: end)]
                day =
                    days.first { date in
                        guard let inside = try? TimeArgument.parse(at, now: context.now, calendar: calendar, day: date)
                        else { return false }
                        return inside.instant > record.start && inside.instant < end
                    } ?? days[0]
            }
            return .split(record: ref, at: try context.parsedTime(at, calendar: calendar, option: "--at", day: day))
        }
        guard case .split(let earlier, let later) = result.decision.outcome else { return }
        if context.globals.json {
            context.printJSON(
                .object([
                    "earlier": TextFormat.json(earlier, tags: state.tags),
                    "later": TextFormat.json(later, tags: state.tags),
                ]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice("Split \(TextFormat.short(later.id)) at \(format.moment(later.start, onDayOf: result.now)):")
            context.notice("  " + format.recordLine(earlier, tags: state.tags, now: result.now))
            context.notice("  " + format.recordLine(later, tags: state.tags, now: result.now))
            // The earlier part is the record the split created.
            context.print(earlier.id.uuidString)
        }
    }
}
