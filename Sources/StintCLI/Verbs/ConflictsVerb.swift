import StintCore
import StintEngine

/// `stint conflicts`.
struct ConflictsVerb: Verb {
    static let all = Flag("all", "Also list what the rules applied without anything being lost (rule 4 and the like).")

    static let spec = VerbSpec(
        path: ["conflicts"],
        abstract: "What the merge rules decided when devices of the space did things that do not fit together.",
        options: [all] + PointArguments.options,
        discussion: """
            One line per case, in merge order: the rule (docs/sync.md), the record or tag, and the events
            involved as <device>:<seq>, with what won and what was ignored or lost. Nothing listed here is an
            error: every device computes the same list from the same events. Rule 9 lists devices whose clock
            reads more than a day ahead of this one's; rule 10 lists forks kept as new devices. --json prints
            one object per case with the rule's number, its subject, its events (full device ids) and the line.
            """,
        examples: [
            ("stint conflicts", "Lists what the rules decided."),
            ("stint conflicts --json | jq '.[] | select(.rule == 3)'", "The fields lost to a later edit."),
        ]
    )

    let includesMinor: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        includesMinor = arguments[Self.all]
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let source = try context.reader()
        // The point first, so that a wrong one is reported as for every read verb.
        let view = try context.view(point)
        guard source.isReplica else {
            throw CLIError.refused(
                "the log \(source.name) is not part of a space, so nothing was merged; conflicts exist only between "
                    + "devices of a space (docs/sync.md)")
        }
        let format = TextFormat(calendar: view.state.calendar)
        var entries = view.conflicts.filter { includesMinor || !$0.isMinor }.map { ($0.line, $0.json) }
        entries += try Self.forksAndClocks(source, upTo: view, format: format)
        if context.globals.json {
            context.printJSON(.array(entries.map(\.1)))
            return
        }
        if entries.isEmpty { context.print("No conflicts.") }
        for (line, _) in entries { context.print(line) }
    }

    /// Rules 9 and 10, which are not the fold's: devices whose clock reads more than a day ahead of the
    /// view's "now" (their latest such event), and the forks kept as new devices (`device.forked`).
    static func forksAndClocks(_ source: LogSource, upTo view: LogView, format: TextFormat) throws(CLIError)
        -> [(String, JSON)]
    {
        var ahead: [DeviceID: RecordedEvent] = [:]
        var forks: [(String, JSON)] = []
        do {
            let events = try source.events()
            while let event = try events.next() {
                guard let device = event.device ?? events.device else { continue }
                // The device whose own clock is ahead: its event's reading and its recorded time (that clock's)
                // both more than a day after this clock. A device that only adopted such a reading is not flagged.
                if let hlc = event.hlc, hlc.isFarAhead(of: view.now), HLC(impliedBy: event.at).isFarAhead(of: view.now)
                {
                    ahead[device] = event
                }
                if event.type == EventType.deviceForked.rawValue,
                    case .deviceForked(let from, let upTo, _)? = try? DomainEvent(event)
                {
                    let line =
                        "rule 10 device \(from.short)  forked at seq \(upTo + 1); branch kept as device \(device.short)"
                    forks.append(
                        (
                            line,
                            .object([
                                "rule": .int(10), "subject": .object(["device": .string(from.description)]),
                                "events": .array([
                                    .object(["device": .string(device.description), "seq": .int(event.seq)])
                                ]),
                                "minor": .bool(false),
                                "line": .string(line),
                            ])
                        ))
                }
            }
        } catch {
            throw CLIError(error)
        }
        var entries: [(String, JSON)] = []
        for (device, event) in ahead.sorted(by: { $0.key < $1.key }) {
            let reading = Instant(milliseconds: event.hlc!.milliseconds)
            let line =
                "rule 9  device \(device.short)  clock ahead: \(device.short):\(event.seq) reads "
                + "\(format.dateTime(reading)), \(Self.span(reading.milliseconds(since: view.now))) after this clock"
            entries.append(
                (
                    line,
                    .object([
                        "rule": .int(9), "subject": .object(["device": .string(device.description)]),
                        "events": .array([.object(["device": .string(device.description), "seq": .int(event.seq)])]),
                        "minor": .bool(false),
                        "line": .string(line),
                    ])
                ))
        }
        return entries + forks
    }

    /// `2 days 23 h`, `5 h 10 min`: a span of time, coarsely.
    static func span(_ milliseconds: Int64) -> String {
        let minutes = milliseconds / 60_000
        let (days, hours) = (minutes / 1440, minutes % 1440 / 60)
        if days > 0 { return "\(days) day\(days == 1 ? "" : "s") \(hours) h" }
        return "\(hours) h \(minutes % 60) min"
    }
}
