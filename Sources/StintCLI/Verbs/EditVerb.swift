import StintCore

/// `stint edit`.
struct EditVerb: Verb {
    static let start = Option("start", "TIME", "The new start.")
    static let end = Option("end", "TIME", "The new end (a running record stops at it).")
    static let tag = Option("tag", "NAME", "The new tag (an unknown name creates the tag).").withCompletion(.tags)
    static let untag = Flag("untag", "Remove the tag.")
    static let comment = Option("comment", "TEXT", "The new comment; an empty text removes it.")

    static let spec = VerbSpec(
        path: ["edit"],
        abstract: "Change a record's start, end, tag or comment.",
        arguments: [ArgumentSpec(name: "RECORD_ID", help: "The record's id or a unique prefix (4+ hex digits).")],
        options: [start, end, tag, untag, comment, SharedOptions.force],
        discussion: TimeHelp.text + """


            A bare HH:MM names a time on the record's own day: the day it starts for --start, the day it ends
            (today while it runs) for --end. Give a date to move a record to another day.
            """,
        examples: [
            ("stint edit 3f2a --start 08:45", "Moves the start of record 3f2a… to 08:45."),
            ("stint edit 3f2a --tag review --comment \"\"", "Retags it and removes its comment."),
        ]
    )
    .changingLog()

    let reference: String
    let start: String?
    let end: String?
    let tag: TagChoice?
    let comment: String?
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        reference = arguments.positionals[0]
        start = arguments[Self.start]
        end = arguments[Self.end]
        comment = arguments[Self.comment]
        force = arguments[SharedOptions.force]
        switch (arguments[Self.tag], arguments[Self.untag]) {
        case (let name?, false): tag = .name(name)
        case (nil, true): tag = .untagged
        case (nil, false): tag = nil
        case (_?, true): throw CLIError.usage("give --tag NAME or --untag, not both", verb: Self.spec.name)
        }
        if start == nil, end == nil, tag == nil, comment == nil {
            throw CLIError.usage(
                "nothing to change: give --start, --end, --tag, --untag or --comment", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            let ref = try context.recordRef(reference)
            // A bare HH:MM names a time of the record's own day: its start's for --start, its end's for --end.
            let matching = state.records(matching: ref)
            let record = matching.count == 1 ? matching.first : nil
            let calendar = state.calendar
            return .edit(
                record: ref,
                start: try start.map { (text) throws(CLIError) in
                    try context.parsedTime(
                        text, calendar: calendar, option: "--start", day: record.map { calendar.date(of: $0.start) })
                },
                end: try end.map { (text) throws(CLIError) in
                    try context.parsedTime(
                        text, calendar: calendar, option: "--end",
                        day: record.map { calendar.date(of: $0.end ?? context.now) })
                }, tag: tag, comment: comment, force: force)
        }
        guard case .edited(let before, let after) = result.decision.outcome else { return }
        for created in result.decision.createdTags { context.notice("Created tag \(created.name) (\(created.color))") }
        if context.globals.json {
            context.printJSON(
                .object([
                    "before": TextFormat.json(before, tags: state.tags),
                    "after": TextFormat.json(after, tags: state.tags),
                ]))
        } else {
            let format = TextFormat(calendar: state.calendar)
            context.notice("was  " + format.recordLine(before, tags: state.tags, now: result.now))
            context.notice("now  " + format.recordLine(after, tags: state.tags, now: result.now))
        }
    }
}
