import Foundation
import StintCore
import Testing

@testable import StintLog

@Suite struct ZstdCompatibilityTests {
    static let zstd = "/usr/bin/zstd"

    /// The stock `zstd` tool decodes the segments, in name order, to exactly the event lines (it skips the
    /// seal frames). Skipped, visibly, where `/usr/bin/zstd` is not installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: zstd), "/usr/bin/zstd is not installed"))
    func theStockZstdToolDecodesTheSegmentsToTheLines() throws {
        let fixture = LogFixture(sealThreshold: 3000, sealedFrameTarget: 900)
        let events = try fixture.populate(batches: 50, sizes: { $0 % 5 == 0 ? 3 : 1 })
        let segments = try fixture.segmentNames()
        #expect(segments.count >= 3)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.zstd)
        process.arguments = ["-dc"] + segments.map { fixture.path + "/" + $0 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let decoded = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Array(decoded) == events.flatMap { $0.encodedLine() + [0x0A] })
    }
}
