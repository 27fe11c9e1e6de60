public import StintCore
public import StintEngine

/// Everything the CLI takes from the process it runs in: arguments aside, the environment, the clock,
/// new ids, the standard streams and what the terminal is.
///
/// `Host.live` reads the real ones; tests build a host with a fixed clock and captured streams. Nothing
/// below `StintCLI.run(arguments:host:)` reads the process's clock, environment or time zone directly.
public struct Host: Sendable {
    public var environment: [String: String]
    /// The system clock (the CLI applies `STINT_NOW` on top of it).
    public var clock: @Sendable () -> Instant
    /// A generator of new random ids (the CLI applies `STINT_ID_SEED` on top of it).
    public var newID: @Sendable () -> EntityID
    public var standardOutput: any TextOutput
    public var standardError: any TextOutput
    /// Reads all of standard input (for `--log -` and `import … -`).
    public var readStandardInput: @Sendable () -> [UInt8]
    public var standardOutputIsTerminal: Bool
    public var standardErrorIsTerminal: Bool
    /// The machine's IANA time zone, the default of `stint init --tz`.
    public var systemTimeZone: String {
        get { readSystemTimeZone() }
        set { readSystemTimeZone = { newValue } }
    }
    /// The locale's first weekday (1 = Sunday … 7 = Saturday), the default of `stint init --first-weekday`.
    public var localeFirstWeekday: Int {
        get { readLocaleFirstWeekday() }
        set { readLocaleFirstWeekday = { newValue } }
    }
    /// What ``systemTimeZone`` and ``localeFirstWeekday`` read, when asked: only `stint init` asks, so the other
    /// commands do not load the system's zone and the locale's calendar data.
    var readSystemTimeZone: @Sendable () -> String
    var readLocaleFirstWeekday: @Sendable () -> Int
    /// The process's working directory, against which relative paths given to the space verbs are made
    /// absolute (`sync init DIR` records DIR for later commands run from elsewhere); nil refuses them.
    public var workingDirectory: String? = nil
    /// The machine's host name: what `stint sync join` names this device by default (nil: no name).
    public var hostName: String? = nil
    /// Changes the engine options of every command (nil: none); fault-injecting tests set the file
    /// operations every log access goes through, to fail a chosen write, sync or rename.
    @_spi(FaultInjection) public var configureEngine: (@Sendable (inout EngineOptions) -> Void)?

    public init(
        environment: [String: String], clock: @escaping @Sendable () -> Instant,
        newID: @escaping @Sendable () -> EntityID, standardOutput: any TextOutput, standardError: any TextOutput,
        readStandardInput: @escaping @Sendable () -> [UInt8] = { [] }, standardOutputIsTerminal: Bool = false,
        standardErrorIsTerminal: Bool = false, systemTimeZone: String = "UTC", localeFirstWeekday: Int = 2
    ) {
        self.environment = environment
        self.clock = clock
        self.newID = newID
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardErrorIsTerminal = standardErrorIsTerminal
        readSystemTimeZone = { systemTimeZone }
        readLocaleFirstWeekday = { localeFirstWeekday }
    }
}

/// A destination for text: a standard stream, or a buffer in tests.
public protocol TextOutput: AnyObject, Sendable {
    func write(_ text: String)
    func write(bytes: [UInt8])
    func flush()
}

/// Collects what the CLI writes, for tests and for callers that embed the CLI.
public final class CapturedOutput: TextOutput, @unchecked Sendable {
    private var storage: [UInt8] = []
    private let lock = NSLockLike()

    public init() {}

    public func write(_ text: String) { lock.withLock { storage.append(contentsOf: text.utf8) } }
    public func write(bytes: [UInt8]) { lock.withLock { storage.append(contentsOf: bytes) } }
    public func flush() {}

    /// Everything written so far.
    public var text: String { lock.withLock { String(decoding: storage, as: UTF8.self) } }
    public var bytes: [UInt8] { lock.withLock { storage } }
}
