import Foundation
import Glibc

/// A process the harness started, with its output collected.
final class ChildProcess: @unchecked Sendable {
    let arguments: [String]
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `executable` with `arguments` and `environment` added to the harness's own.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        self.arguments = arguments
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends SIGKILL; true when the process was still running.
    @discardableResult
    func kill() -> Bool {
        guard process.isRunning else { return false }
        return Glibc.kill(process.processIdentifier, SIGKILL) == 0
    }

    /// The outcome once the process has ended.
    struct Outcome {
        var status: Int32
        var killed: Bool
        var stdout: String
        var stderr: String

        /// Whether it failed as `stint` fails: exit 1 and an `error:` line on stderr (after any `note:`
        /// lines, such as the one about a repair the command made first).
        var failedWithError: Bool {
            status == 1 && stderr.split(separator: "\n").contains { $0.hasPrefix("error: ") }
        }
    }

    /// Waits for the end and reads everything the process wrote.
    func wait() -> Outcome {
        // Standard error drains on another thread: a child that fills its pipe while standard output is
        // still open would otherwise block, and the harness with it.
        nonisolated(unsafe) var err = Data()
        let drained = DispatchGroup()
        drained.enter()
        let errors = errors
        DispatchQueue.global().async {
            err = errors.fileHandleForReading.readDataToEndOfFile()
            drained.leave()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return Outcome(
            status: process.terminationStatus, killed: killed, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs a command to its end.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Outcome
    {
        try ChildProcess(executable, arguments, environment: environment).wait()
    }
}
