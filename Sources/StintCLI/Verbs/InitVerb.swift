import Foundation
import StintCore
import StintEngine

/// `stint init`.
struct InitVerb: Verb {
    static let tz = Option("tz", "ZONE", "The IANA time zone days are computed in (default: $TZ, else the system's).")
    static let firstWeekday = Option(
        "first-weekday", "N", "The first day of the week, 1 = Sunday … 7 = Saturday (default: the locale's).")

    static let spec = VerbSpec(
        path: ["init"],
        abstract: "Create a log, recording its time zone and first weekday.",
        options: [tz, firstWeekday],
        discussion: """
            The zone and the first weekday are part of the log, so every machine replays it the same way.
            The log is a directory; it is created with its parent directories.
            """,
        examples: [
            ("stint init", "Creates the default log (~/.local/share/stint/log) in the system's zone."),
            (
                "stint --log work.stint init --tz Europe/Berlin --first-weekday 2",
                "A log in Berlin time, weeks from Monday."
            ),
        ]
    )
    .changingLog()

    let zone: String?
    let firstWeekday: Int?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        zone = arguments[Self.tz]
        if let text = arguments[Self.firstWeekday] {
            guard let value = Int(text), (1...7).contains(value) else {
                throw CLIError.usage(
                    "--first-weekday takes 1 (Sunday) … 7 (Saturday), not '\(text)'", verb: Self.spec.name)
            }
            firstWeekday = value
        } else {
            firstWeekday = nil
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let path = try context.logPath
        guard path != "-" else { throw CLIError.usage("cannot create a log on standard input", verb: nil) }
        let zone = zone ?? defaultZone(context)
        let weekday = firstWeekday ?? context.host.localeFirstWeekday
        // Refused before any directory is created for the log.
        guard LogCalendar(timeZone: zone, firstWeekday: weekday) != nil else {
            throw CLIError.usage(
                "'\(zone)' is not an IANA time zone; use a name such as Europe/Berlin or UTC", verb: Self.spec.name)
        }
        let created = try InitVerb.makeDirectories(LocalPath(path)?.parent ?? LocalPath(".")!)
        let log: TimeLog
        do {
            log = try TimeLog.create(at: path, timeZone: zone, firstWeekday: weekday, options: context.engineOptions)
        } catch {
            InitVerb.removeDirectories(created)
            if error.isOccupiedPath {
                throw CLIError.refused("\(error.message)")
            }
            throw CLIError(error)
        }
        log.close()
        let day = TextFormat.weekdayNames[weekday - 1]
        if context.globals.json {
            context.printJSON(
                .object([
                    "log": .string(path), "timeZone": .string(zone), "firstWeekday": .int(Int64(weekday)),
                    "logId": .string(log.state.settings.logId.uuidString),
                ]))
        } else {
            context.notice("Created a log at \(path) (time zone \(zone), weeks start on \(day)).")
        }
    }

    /// `TZ` when it names an IANA zone, else the system's zone.
    private func defaultZone(_ context: CommandContext) -> String {
        if var text = context.host.environment["TZ"], !text.isEmpty {
            if text.hasPrefix(":") { text.removeFirst() }
            if LogCalendar(timeZone: text, firstWeekday: 1) != nil, !text.hasPrefix("/") { return text }
        }
        return context.host.systemTimeZone
    }
}
