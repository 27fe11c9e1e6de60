import StintCore
@_spi(FaultInjection) import StintEngine

/// How this command opens the log: the engine options (its clock, ids, notices, lock timeout), the writer and
/// the reader.
extension CommandContext {
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

    /// Runs an engine call, giving its error the CLI's form (same category, message and details).
    func engine<T>(_ body: () throws(StintError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw CLIError(error)
        }
    }
}
