import StintCore

/// `stint start`.
struct StartVerb: Verb {
    static let at = Option("at", "TIME", "When the timer started (default: now). See 'Times' below.")
    static let switching = Flag("switch", "Stop every running timer first, at the new timer's start.")
    static let tagId = Option(
        "tag-id", "ID", "A tag by id, as widgets pass it; an unknown id starts an untagged timer."
    ).withCompletion(.nothing)

    static let spec = VerbSpec(
        path: ["start"],
        abstract: "Start a timer, optionally with a tag and a comment.",
        arguments: [
            ArgumentSpec(
                name: "TAG",
                help: "A tag name (matched ignoring case; an unknown name creates the tag; \"\" starts untagged).",
                arity: .optional)
        ],
        options: [SharedOptions.comment, at, switching, tagId, SharedOptions.force],
        discussion: TimeHelp.text
            + "\n\nSeveral timers may run at once; starting a tag that already runs says so on standard error, with"
            + "\nhow to switch instead (--switch stops every running timer first). Prints the new record's id on"
            + "\nstandard output (for scripts) and what started on standard error (unless --quiet).",
        examples: [
            ("stint start writing --comment \"chapter 3\"", "Starts a timer tagged writing."),
            ("stint start email --switch", "Stops whatever runs and starts email."),
            ("stint start meeting --at 9:30", "A timer that started at 9:30 today."),
            ("stint start \"$NAME\"", "Untagged when NAME is empty, as the app's Shortcuts action does."),
        ]
    )
    .changingLog()

    let tagName: String?
    let tagId: String?
    let comment: String?
    let at: String?
    let switching: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        tagName = arguments.positionals.first
        tagId = arguments[Self.tagId]
        comment = arguments[SharedOptions.comment]
        at = arguments[Self.at]
        switching = arguments[Self.switching]
        force = arguments[SharedOptions.force]
        if tagName != nil, tagId != nil {
            throw CLIError.usage("give a TAG name or --tag-id, not both", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        var alreadyRunning: [Record] = []
        let (result, state) = try context.mutate { (state, context) throws(CLIError) in
            alreadyRunning = state.runningRecords
            let tag: TagChoice
            if let tagId {
                guard let id = EntityID(tagId) else {
                    throw CLIError.usage("--tag-id takes a tag's UUID, not '\(tagId)'", verb: Self.spec.name)
                }
                tag = .id(id)
            } else if let tagName {
                tag = .name(tagName)
            } else {
                tag = .untagged
            }
            return .start(
                tag: tag, comment: comment,
                at: try at.map { (text) throws(CLIError) in
                    try context.parsedTime(text, calendar: state.calendar, option: "--at")
                }, switching: switching, force: force)
        }
        guard case .started(let record, let stopped) = result.decision.outcome else { return }
        let format = TextFormat(calendar: state.calendar)
        for timer in stopped {
            context.notice("Stopped \(format.recordLine(timer, tags: state.tags, now: result.now))")
        }
        for tag in result.decision.createdTags { context.notice("Created tag \(tag.name) (\(tag.color))") }
        context.notice("Started " + format.confirmation(record, tags: state.tags))
        // Starting a tag that already runs is more often a slip than a wish for two timers of it.
        if let tagId = record.tagId {
            let twins = alreadyRunning.filter { running in
                running.tagId == tagId && !stopped.contains { $0.id == running.id }
            }
            if let twin = twins.first {
                let name = format.tagName(tagId, tags: state.tags)
                let running =
                    twins.count == 1
                    ? "was already running as \(TextFormat.short(twin.id))"
                    : "already had \(twins.count) timers running, the first as \(TextFormat.short(twin.id))"
                let earlier = twins.map { TextFormat.short($0.id) }.joined(separator: " ")
                context.notice(
                    "note: \(name) \(running) (since \(format.moment(twin.start, onDayOf: result.now))); "
                        + "\(twins.count + 1) \(name) timers now run. To switch, stop the earlier: 'stint stop \(earlier)'; "
                        + "to keep only the earlier, 'stint cancel \(TextFormat.short(record.id))'; "
                        + "'stint start \(CheckRunner.quoted(name)) --switch' stops running timers first")
            }
        }
        if context.globals.json {
            context.printJSON(.object(["recordId": .string(record.id.uuidString)]))
        } else {
            context.print(record.id.uuidString)
        }
    }
}
