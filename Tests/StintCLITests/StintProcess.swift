import Foundation
import Testing

/// Runs the built `stint` executable (and scripts that call it) as a child process, for tests that must
/// see what a user's shell sees: the real process environment, time zone and locale.
enum StintProcess {
    /// The repository root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `stint` next to the test bundle (`swift test` builds every product into the same directory).
    static var binary: URL? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(repository.appendingPathComponent(".build/debug"))
        for directory in candidates {
            // The bundle may be a directory (.xctest) whose executable sits a few levels inside it.
            var current = directory
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent("stint")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                current = current.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// The binary, or a recorded issue saying how to build it.
    static func requireBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        guard let binary else {
            Issue.record(
                "no stint executable next to the test bundle; run 'swift build' first", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return binary
    }

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data

        var text: String { String(decoding: stdout, as: UTF8.self) }
        var errorText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` and exactly `environment` (nothing inherited), in `directory`.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the child runs, so that neither fills up and blocks it.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: outputData, stderr: errorData)
    }

    /// The locales `locale -a` lists (empty when the command is missing).
    static var installedLocales: [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/locale"),
            let output = try? run(URL(fileURLWithPath: "/usr/bin/locale"), ["-a"], environment: [:])
        else { return [] }
        return output.text.split(separator: "\n").map(String.init)
    }
}
