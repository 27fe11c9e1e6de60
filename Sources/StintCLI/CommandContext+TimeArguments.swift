import StintCore
@_spi(FaultInjection) import StintEngine

/// Read points and time arguments as the engine resolves them, in the log's calendar at this command's `now`.
extension CommandContext {
    /// The engine's form of a `--at`/`--seq`/`--as-known-by` point, resolved once by the engine.
    func resolve(_ point: PointArguments, of reader: LogSource) throws(CLIError) -> ResolvedPoint {
        try engine { () throws(StintError) in try reader.resolve(point, options: engineOptions) }
    }

    /// The device of the space `reader` reads whose id is, or begins with, `text`.
    func device(named text: String, in reader: LogSource, option: String) throws(CLIError) -> DeviceID {
        try engine { () throws(StintError) in try reader.device(named: text, option: option) }
    }

    /// Parses a time argument in the log's calendar at this command's `now`, printing its notice if any.
    func parseTime(_ text: String, calendar: LogCalendar, option: String) throws(CLIError) -> Instant {
        try parsedTime(text, calendar: calendar, option: option).instant
    }

    /// A read verb's `--since` and `--until`, each parsed in the log's calendar; nil for one not given.
    func sinceUntil(_ since: String?, _ until: String?, calendar: LogCalendar) throws(CLIError) -> (
        since: Instant?, until: Instant?
    ) {
        let start = try since.map { (text) throws(CLIError) in
            try parseTime(text, calendar: calendar, option: "--since")
        }
        let end = try until.map { (text) throws(CLIError) in try parseTime(text, calendar: calendar, option: "--until")
        }
        return (start, end)
    }

    /// Parses a read verb's point (`--at`) and refuses one in the future (exit 1): the log has nothing to show
    /// there yet, and a timer would seem to run through hours that have not passed.
    func parsePoint(_ text: String, calendar: LogCalendar, option: String) throws(CLIError) -> Instant {
        try engine { () throws(StintError) in
            try TimeText.pastPoint(text, option: option, calendar: calendar, options: engineOptions)
        }
    }

    /// - Parameter day: the date a bare `HH:MM` names (default: today in the log's zone).
    func parsedTime(
        _ text: String, calendar: LogCalendar, option: String, day: CivilDate? = nil
    ) throws(CLIError) -> ParsedTime {
        try engine { () throws(StintError) in
            try TimeText.parse(text, option: option, calendar: calendar, day: day, options: engineOptions)
        }
    }
}
