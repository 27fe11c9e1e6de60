import StintCore
@_spi(FaultInjection) import StintEngine

extension CommandContext {
    /// The log path: `--log`, else `STINT_LOG`, else `$XDG_DATA_HOME/stint/log`, else
    /// `$HOME/.local/share/stint/log`.
    var logPath: String {
        get throws(CLIError) {
            if let path = globals.logPath { return path }
            if let path = host.environment["STINT_LOG"], !path.isEmpty { return path }
            if let data = host.environment["XDG_DATA_HOME"].flatMap(LocalPath.init), data.isAbsolute {
                return data.appending("stint/log").string
            }
            if let home = host.environment["HOME"].flatMap(LocalPath.init) {
                return home.appending(".local/share/stint/log").string
            }
            throw CLIError.usage("no log given and HOME is not set; pass --log PATH or set STINT_LOG", verb: nil)
        }
    }

    /// Engine options for this command: its clock is the command's `now`.
    var engineOptions: EngineOptions {
        let instant = now
        let notify: @Sendable (String) -> Void = { [host, globals] message in
            if !globals.quiet { host.standardError.write("note: \(message)\n") }
        }
        var options = EngineOptions(clock: { instant }, newID: newID, onNotice: notify, lockTimeout: lockTimeout)
        if let readWorkers { options.readWorkers = readWorkers }
        if let file = deviceIDFile {
            let newID = newID
            options.deviceIdentity = DeviceIdentity(file: file) {
                let bits = newID()
                return DeviceID(high: bits.high, low: bits.low)
            }
        }
        host.configureEngine?(&options)
        return options
    }

    /// This installation's device id file (docs/sync.md): `$XDG_STATE_HOME/stint/device`, else
    /// `$HOME/.local/state/stint/device`; nil when neither is set (the space verbs then say so).
    var deviceIDFile: String? {
        if let state = host.environment["XDG_STATE_HOME"].flatMap(LocalPath.init), state.isAbsolute {
            return state.appending("stint/device").string
        }
        return host.environment["HOME"].flatMap(LocalPath.init)?.appending(".local/state/stint/device").string
    }

    /// How long a writer waits for the lock: `STINT_LOCK_TIMEOUT` seconds, default 10; a value beyond a
    /// billion seconds (`inf`, `1e308`) waits that long, in effect for ever.
    var lockTimeout: Duration {
        if let text = host.environment["STINT_LOCK_TIMEOUT"], let seconds = Double(text), seconds >= 0 {
            return .milliseconds(Int64(min(seconds, 1e9) * 1000))
        }
        return .seconds(10)
    }

    /// Opens the log for writing, with a message that says how to create it when it is missing.
    func openForWriting() throws(CLIError) -> TimeLog {
        let path = try logPath
        guard path != "-" else {
            throw CLIError.usage("'-' (standard input) can only be read; give a log directory with --log", verb: nil)
        }
        do {
            return try TimeLog.open(at: path, options: engineOptions)
        } catch {
            if error.isMissingLog {
                throw CLIError.refused("there is no log at \(path); create one with 'stint init' (or pass --log PATH)")
            }
            throw CLIError(error)
        }
    }

    /// A reader of the log: a directory, a `.jsonl.zst` or `.jsonl` file, or `-` for standard input;
    /// `readWorkers` replaces the engine options' count of threads that read segments ahead (`verify --jobs`).
    func reader(readWorkers: Int? = nil) throws(CLIError) -> LogSource {
        let path = try logPath
        if path == "-" { return LogSource(bytes: host.readStandardInput(), name: "standard input") }
        var options = engineOptions
        if let readWorkers { options.readWorkers = readWorkers }
        do {
            return try LogSource.open(path: path, options: options)
        } catch {
            if error.isMissingLog {
                throw CLIError.refused("there is no log at \(path); create one with 'stint init' (or pass --log PATH)")
            }
            throw CLIError(error)
        }
    }

    /// The log's settings, read from its first event (to parse time arguments before folding).
    func settings(of reader: LogSource) throws(CLIError) -> LogSettings {
        do {
            return try reader.settings()
        } catch {
            throw CLIError(error)
        }
    }

    /// Reads the log at the point `--at` or `--seq` name (the latest state when neither is given), and
    /// prints a warning when damage cut the reading short.
    func view(_ point: PointArguments) throws(CLIError) -> LogView {
        let reader = try reader()
        return try view(at: resolve(point, of: reader), of: reader)
    }

    /// Reads `reader` at an already resolved `point`, and prints a warning when damage cut the reading short.
    func view(at point: ResolvedPoint, of reader: LogSource) throws(CLIError) -> LogView {
        let view = try engine { () throws(StintError) in try LogView.load(reader, at: point, options: engineOptions) }
        warnIfCut(view.warning?.message)
        return view
    }

    /// Every record and tag at the point `--at` or `--seq` name (``RecordsView``: from the read models at
    /// the log's head), with a warning when damage cut the reading short.
    ///
    /// - Parameter window: at the log's head, the interval whose records are enough, from the log's calendar
    ///   and the command's `now` (nil: every record); the view then holds only the records that overlap it.
    func recordsView(
        _ point: PointArguments, window: ((LogCalendar, Instant) throws(CLIError) -> TimeInterval64?)? = nil
    ) throws(CLIError) -> RecordsView {
        try load(point, warning: \.warning?.message) { (source, resolved) throws(CLIError) in
            let interval = try window.flatMap { (window) throws(CLIError) in
                resolved.isLatest ? try window(try settings(of: source).calendar, now) : nil
            }
            return try engine { () throws(StintError) in
                try RecordsView.load(source, at: resolved, options: engineOptions, window: interval)
            }
        }
    }

    /// Every record at the log's head, one at a time (``RecordStream``), with a warning when damage cut the
    /// reading short.
    func recordStream() throws(CLIError) -> RecordStream {
        let reader = try reader()
        let stream = try engine { () throws(StintError) in try RecordStream.open(reader, options: engineOptions) }
        warnIfCut(stream.warning?.message)
        return stream
    }

    /// What the widget projections read at a point (``ProjectionView``): the same outputs as ``view(_:)``'s
    /// state, from the read models or a projection checkpoint close to the point when there is one.
    func projectionView(_ point: PointArguments) throws(CLIError) -> ProjectionView {
        let reader = try reader()
        return try projectionView(at: resolve(point, of: reader), of: reader)
    }

    /// What the widget projections read at an already resolved `point` of `reader`.
    func projectionView(at point: ResolvedPoint, of reader: LogSource) throws(CLIError) -> ProjectionView {
        let view = try engine { () throws(StintError) in
            try ProjectionView.load(reader, at: point, options: engineOptions)
        }
        warnIfCut(view.warning?.message)
        return view
    }

    /// Resolves `point` against the log and loads a view there, warning when damage cut the reading short.
    private func load<View>(
        _ point: PointArguments, warning: (View) -> String?,
        _ load: (LogSource, ResolvedPoint) throws(CLIError) -> View
    ) throws(CLIError) -> View {
        let reader = try reader()
        let view = try load(reader, try resolve(point, of: reader))
        warnIfCut(warning(view))
        return view
    }

    /// Runs an engine call, giving its error the CLI's form (same category, message and details).
    private func engine<T>(_ body: () throws(StintError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw CLIError(error)
        }
    }

    private func warnIfCut(_ damage: String?) {
        guard let damage else { return }
        warn("the log is damaged; showing what was recorded before the damage: \(damage)")
    }

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

/// `--at TIME` / `--seq N` / `--as-known-by` of a read verb: the engine's ``PointQuery``, parsed from the
/// command line (its syntax checked before the log is opened: a usage error, exit 64).
typealias PointArguments = PointQuery

extension PointQuery {
    static let atOption = Option(
        "at", "TIME",
        "Show the log as it was at TIME (a time that has passed): the events recorded by then, with TIME as now (in a space: the events whose hybrid logical clock reads TIME or earlier)."
    )
    static let seqOption = Option(
        "seq", "N",
        "Show the log after its first N events, as of the time event N was recorded. In a space, DEVICE:N is that device's event N and every event merged before it (N alone: this device's)."
    )
    static let knownByOption = Option(
        "as-known-by", "DEVICE[@TIME]",
        "In a space: show exactly what DEVICE had seen at TIME (default: all it has written), its own events and those it had brought in from the others: what its widget showed."
    )
    static let options: [any OptionDeclaration] = [atOption, seqOption, knownByOption]

    init(_ arguments: ParsedArguments, verb: String) throws(CLIError) {
        let given = [arguments[Self.atOption], arguments[Self.seqOption], arguments[Self.knownByOption]]
        guard given.compactMap({ $0 }).count <= 1 else {
            throw CLIError.usage("give one of --at, --seq and --as-known-by", verb: verb)
        }
        if let at = arguments[Self.atOption] {
            self = .at(at)
        } else if let text = arguments[Self.seqOption] {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let n = Int64(parts[parts.count - 1]), n >= 1, parts.count == 1 || !parts[0].isEmpty else {
                throw CLIError.usage(
                    "--seq takes a whole number ≥ 1, or DEVICE:N in a space, not '\(text)'", verb: verb)
            }
            self = parts.count == 1 ? .seq(n) : .deviceSeq(String(parts[0]), n)
        } else if let text = arguments[Self.knownByOption] {
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            guard !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
                throw CLIError.usage(
                    "--as-known-by takes DEVICE or DEVICE@TIME (a device id or its first digits), not '\(text)'",
                    verb: verb)
            }
            self = .knownBy(String(parts[0]), parts.count == 2 ? String(parts[1]) : nil)
        } else {
            self = .latest
        }
    }
}

extension CLIError {
    /// The CLI form of an engine error: the same category, message and details.
    init(_ error: StintError) {
        self.init(code: error.category, message: error.message, verb: nil, details: error.details)
    }
}
