import StintCore

/// What a running verb may use: the host, the global options, the resolved clock and id generator,
/// and the output helpers.
final class CommandContext: @unchecked Sendable {
    let host: Host
    let globals: GlobalOptions
    let registry: VerbRegistry
    /// The current instant: `STINT_NOW` when set, else the host's clock, read once per command.
    let now: Instant
    let newID: @Sendable () -> EntityID
    /// `STINT_JOBS`: how many threads read a log directory's segments ahead; nil for the engine's default.
    let readWorkers: Int?

    init(host: Host, globals: GlobalOptions, registry: VerbRegistry) throws(CLIError) {
        self.host = host
        self.globals = globals
        self.registry = registry
        if let text = host.environment["STINT_NOW"], !text.isEmpty {
            guard case .instant(let instant) = ISO8601Timestamp.parse(text) else {
                throw CLIError.usage(
                    "STINT_NOW='\(text)' is not an ISO 8601 instant with a zone; use e.g. 2026-11-29T09:00:00Z",
                    verb: nil)
            }
            now = instant
        } else {
            now = host.clock()
        }
        if let text = host.environment["STINT_ID_SEED"], !text.isEmpty {
            guard let seed = UInt64(text) else {
                throw CLIError.usage("STINT_ID_SEED='\(text)' is not a whole number", verb: nil)
            }
            newID = SeededIDs(seed: seed).generator
        } else {
            newID = host.newID
        }
        if let text = host.environment["STINT_JOBS"], !text.isEmpty {
            // The rule of `verify --jobs`: a whole number ≥ 1 (the reader uses at most one thread a segment).
            guard let jobs = Int(text), jobs >= 1 else {
                throw CLIError.usage(
                    "STINT_JOBS='\(text)' is not a whole number ≥ 1 of threads; unset it for the default (one per "
                        + "processor, at most 4)", verb: nil)
            }
            readWorkers = jobs
        } else {
            readWorkers = nil
        }
    }

    // MARK: Output

    /// Writes a line to standard output.
    func print(_ line: String = "") {
        host.standardOutput.write(line + "\n")
    }

    /// Writes text to standard output as is.
    func write(_ text: String) {
        host.standardOutput.write(text)
    }

    /// Writes bytes to standard output as they are.
    func write(bytes: [UInt8]) {
        host.standardOutput.write(bytes: bytes)
    }

    /// Writes a JSON document (pretty, ending in a newline) to standard output.
    func printJSON(_ value: JSON) {
        host.standardOutput.write(value.prettyEncoded())
    }

    /// Writes a notice to standard error unless `--quiet`.
    func notice(_ line: String) {
        guard !globals.quiet else { return }
        host.standardError.write(line + "\n")
    }

    /// Writes a warning to standard error (even with `--quiet`).
    func warn(_ line: String) {
        host.standardError.write("warning: " + line + "\n")
    }

    /// Whether human output may use ANSI colors.
    var useColor: Bool {
        switch globals.color {
        case .always: return true
        case .never: return false
        case .auto:
            return host.standardOutputIsTerminal && (host.environment["NO_COLOR"] ?? "").isEmpty
                && host.environment["TERM"] != "dumb"
        }
    }
}

/// Deterministic ids from a seed (splitmix64), for reproducible demos and transcripts (`STINT_ID_SEED`).
final class SeededIDs: @unchecked Sendable {
    private var words: SplitMix64
    private let lock = NSLockLike()

    init(seed: UInt64) { words = SplitMix64(seed: seed) }

    private func nextWord() -> UInt64 { words.next() }

    var generator: @Sendable () -> EntityID {
        { [self] in
            lock.withLock { EntityID(randomBits: nextWord(), nextWord()) }
        }
    }
}
