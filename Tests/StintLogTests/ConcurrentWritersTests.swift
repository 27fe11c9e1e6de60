import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct ConcurrentWritersTests {
    /// The `stint-log-stress` executable, built next to the test bundle.
    static var stressTool: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = (executable as NSString).deletingLastPathComponent + "/stint-log-stress"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    private func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let tool = try #require(
            Self.stressTool, "stint-log-stress is not next to the test bundle; build it with `swift build`")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    @Test func twoProcessesAppendingAtOnceKeepTheLogGapless() throws {
        let fixture = LogFixture()
        try fixture.create().close()
        let count = 150
        let first = try launch([fixture.path, "\(count)", "--writer", "a", "--seal-threshold", "4096"])
        let second = try launch([fixture.path, "\(count)", "--writer", "b", "--seal-threshold", "4096"])
        let third = try launch([fixture.path, "\(count / 3)", "--writer", "c", "--seal-threshold", "4096", "--hold"])
        var acknowledged: [Int64] = []
        for (process, output) in [first, second, third] {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            acknowledged += text.split(separator: "\n").compactMap { Int64($0.dropFirst(4)) }
        }
        let total = count * 2 + count / 3
        #expect(acknowledged.count == total)
        #expect(acknowledged.sorted() == Array(2...Int64(total + 1)))

        let (events, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(events.map(\.seq) == Array(1...Int64(total + 1)))
        for writer in ["a", "b", "c"] {
            let indices = events.filter { $0.data["writer"] == .string(writer) }.compactMap {
                $0.data["index"]?.intValue
            }
            #expect(indices == Array(0..<Int64(writer == "c" ? count / 3 : count)))
        }
        #expect(try fixture.segmentNames().count > 2)
        #expect(try fixture.reader().verify().problems == [])
    }
}
