@_spi(FaultInjection) import StintCLI
import StintCore
import StintEngine
import TestSupport

/// The result of one in-process run of the CLI.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the CLI in process with a fixed clock, predictable ids and captured streams.
struct CLIRunner {
    var environment: [String: String] = [:]
    var now = Instant(canonical: "2026-11-29T13:00:00.000Z")!
    let ids = IncrementingIDs()
    var stdin: [UInt8] = []
    var systemTimeZone = "UTC"
    /// Changes the engine's options (worker threads, the fold, fault injection) for every run.
    var configureEngine: (@Sendable (inout EngineOptions) -> Void)?

    init(log: String? = nil, now: String? = nil) {
        if let log { environment["STINT_LOG"] = log }
        if let now { self.now = Instant(canonical: now)! }
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) -> CLIResult {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let input = stdin
        let instant = now
        var host = Host(
            environment: environment.merging(extra) { $1 }, clock: { instant }, newID: ids.generator,
            standardOutput: out, standardError: err, readStandardInput: { input }, systemTimeZone: systemTimeZone)
        host.configureEngine = configureEngine
        let status = StintCLI.run(arguments: arguments, host: host)
        return CLIResult(status: status, stdout: out.text, stderr: err.text)
    }

    func run(_ line: String, environment extra: [String: String] = [:]) -> CLIResult {
        run(line.split(separator: " ").map(String.init), environment: extra)
    }
}
