import StintCore
import StintEngine

/// `stint live-activity`.
struct LiveActivityVerb: Verb {
    static let spec = VerbSpec(
        path: ["live-activity"],
        abstract: "The Live Activity content: the first 8 running timers and how many run.",
        options: PointArguments.options + [ExpectOption.option],
        examples: [("stint live-activity --json", "The content as the app hands it to ActivityKit.")]
    )

    let point: PointArguments
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
        expect = arguments[ExpectOption.option]
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
            var line = "\(timer.tagName ?? "Timer")  since \(format.moment(timer.startTime, onDayOf: view.now))  "
            line += DurationFormatter.hoursMinutes(milliseconds: timer.duration(at: view.now))
            if let comment = timer.comment { line += "  " + comment.replacingNewlines() }
            context.print(line)
        }
        if content.runningCount > content.timers.count {
            context.print("+\(content.runningCount - content.timers.count) more")
        }
    }
}
