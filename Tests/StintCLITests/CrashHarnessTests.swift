import Foundation
import Testing

/// The short CI versions of the process-level harnesses of `Tools/stint-reliability` (docs/reliability.md):
/// the kill -9 loop with at least 50 kills, and 4 racing writers with readers checking every batch is whole
/// plus the bounded lock wait. The full runs are `Tools/reliability/kill-loop.sh` and `race.sh`.
@Suite(.serialized) struct CrashHarnessTests {
    /// An executable built next to the test bundle.
    static func tool(_ name: String) -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = (executable as NSString).deletingLastPathComponent + "/" + name
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let harness = try #require(Self.tool("stint-reliability"), "build the tools first: swift build")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: harness)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text, terminator: "")
        return (process.terminationStatus, text)
    }

    @Test func fiftyKillsLoseNoAcknowledgedEvent() throws {
        let seed = ProcessInfo.processInfo.environment["STINT_TEST_SEED"] ?? "20261129"
        let (status, output) = try run(["kill-loop", "--kills", "50", "--seed", seed, "--check-every", "25"])
        #expect(status == 0, "kill-loop seed \(seed): \(output)")
        #expect(output.contains("PASS"))
    }

    @Test func racingWritersAndReadersSeeWholeBatchesOnly() throws {
        let (status, output) = try run(["race", "--processes", "4", "--appends", "10", "--readers", "2"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("40 batches acknowledged"))
    }
}
