import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Two copies of one log compared by their last segments' bytes: the same, a prefix with a whole frame, or
/// different for anything a reader would have to look at.
@Suite struct LastSegmentComparisonTests {
    /// A log of `batches` batches after the first, and a copy of it.
    private func logAndCopy(batches: Int) throws -> (LogFixture, String) {
        let fixture = LogFixture()
        _ = try fixture.populate(batches: batches)
        let copy = fixture.directory.appending("copy")
        try SegmentCopier().copy(from: fixture.path, to: copy)
        return (fixture, copy)
    }

    private func compare(_ prefix: String, _ whole: String) -> LastSegmentComparison {
        LastSegmentComparison.of(prefix, in: whole, fileSystem: POSIXFileSystem())
    }

    @Test func aCopyIsTheSameAndAnOlderCopyIsAPrefix() throws {
        let (fixture, copy) = try logAndCopy(batches: 5)
        #expect(compare(copy, fixture.path) == .same)
        let writer = try fixture.open()
        _ = try writer.append([LogFixture.draft(6)])
        writer.close()
        #expect(compare(copy, fixture.path) == .prefix)
        #expect(compare(fixture.path, copy) == .different, "the longer is not a prefix of the shorter")
    }

    @Test(arguments: ["flipped", "cut in the first frame", "no format", "another format", "no segment"])
    func anythingElseIsDifferent(_ kind: String) throws {
        let (fixture, copy) = try logAndCopy(batches: 5)
        let segment = try fixture.segmentNames().last!
        let path = copy + "/" + segment
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        switch kind {
        case "flipped": bytes[bytes.count - 10] ^= 0x01
        case "cut in the first frame": bytes = Array(bytes.prefix(12))
        case "no format": try FileManager.default.removeItem(atPath: copy + "/format")
        case "another format": try Data("stint-log 2\n".utf8).write(to: URL(fileURLWithPath: copy + "/format"))
        default: try FileManager.default.removeItem(atPath: path)
        }
        if kind != "no segment" { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        #expect(compare(copy, fixture.path) == .different)
    }
}
