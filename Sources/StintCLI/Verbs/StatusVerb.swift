import StintCore

/// `stint status`.
struct StatusVerb: Verb {
    static let spec = VerbSpec(
        path: ["status"],
        abstract: "The running timers with their elapsed time, and today's total.",
        options: PointArguments.options,
        examples: [("stint status", "What runs now."), ("stint status --at \"yesterday 17:00\"", "What ran then.")]
    )

    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let view = try context.projectionView(point)
        let snapshot = WidgetData(source: view.source, now: view.now)
        let today = snapshot.todayTotal(at: view.now, calendar: view.calendar)
        // The source's records are ordered by start, then id: the running ones in the state's order.
        let running = view.source.records.filter(\.isRunning)
        let tags = view.source.tags
        if context.globals.json {
            context.printJSON(
                .object([
                    "now": .string(view.now.iso8601),
                    "running": .array(
                        running.map { record in
                            var json = TextFormat.json(record, tags: tags)
                            if case .object(var fields) = json {
                                fields.append(
                                    JSONField(
                                        "elapsed",
                                        JSON.seconds(milliseconds: max(0, view.now.milliseconds(since: record.start)))))
                                json = .object(fields)
                            }
                            return json
                        }),
                    "todayTotal": JSON.seconds(milliseconds: today),
                    "todayRecords": .int(Int64(snapshot.todayRecordsCount)),
                ]))
            return
        }
        let format = TextFormat(calendar: view.calendar)
        if running.isEmpty {
            context.print("No timer is running.")
        } else {
            for record in running {
                context.print(format.recordLine(record, tags: tags, now: view.now, style: context.style))
            }
        }
        let count = snapshot.todayRecordsCount
        context.print(
            "Today: \(DurationFormatter.hoursMinutes(milliseconds: today)) (\(count) record\(count == 1 ? "" : "s"))")
    }
}
