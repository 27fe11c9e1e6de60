import StintCore

/// `stint track`.
struct TrackVerb: Verb {
    static let spec = VerbSpec(
        path: ["track"],
        abstract: "Add a completed record from START to END.",
        arguments: [
            ArgumentSpec(name: "START", help: "When it started."),
            ArgumentSpec(name: "END", help: "When it ended (after START)."),
            ArgumentSpec(name: "TAG", help: "A tag name (an unknown name creates the tag).", arity: .optional),
        ],
        options: [SharedOptions.comment, SharedOptions.force],
        discussion: TimeHelp.text
            + "\n\nPrints the new record's id on standard output and what was tracked on standard error.",
        examples: [
            ("stint track 09:00 10:30 writing", "Adds 1:30 of writing this morning."),
            ("stint track \"yesterday 14:00\" \"yesterday 15:00\" call --comment review", "Adds a call yesterday."),
        ]
    )
    .changingLog()

    let start: String
    let end: String
    let tagName: String?
    let comment: String?
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        start = arguments.positionals[0]
        end = arguments.positionals[1]
        tagName = arguments.positionals.count > 2 ? arguments.positionals[2] : nil
        comment = arguments[SharedOptions.comment]
        force = arguments[SharedOptions.force]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            .track(
                start: try context.parsedTime(start, calendar: state.calendar, option: "START"),
                end: try context.parsedTime(end, calendar: state.calendar, option: "END"),
                tag: tagName.map(TagChoice.name) ?? .untagged, comment: comment, force: force)
        }
        guard case .tracked(let record) = result.decision.outcome else { return }
        for tag in result.decision.createdTags { context.notice("Created tag \(tag.name) (\(tag.color))") }
        context.notice("Tracked " + TextFormat(calendar: state.calendar).confirmation(record, tags: state.tags))
        if context.globals.json {
            context.printJSON(.object(["recordId": .string(record.id.uuidString)]))
        } else {
            context.print(record.id.uuidString)
        }
    }
}
