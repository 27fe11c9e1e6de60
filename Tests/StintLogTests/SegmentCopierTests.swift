import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A copy brought up to a log after appends: from its last segment on it is the log's, byte for byte; a segment
/// lost further back is left to a whole copy, which brings it back.
@Suite struct SegmentCopierTests {
    private func bytes(_ directory: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }

    @Test func aCopyFromItsLastSegmentBringsWhatAppendsChanged() throws {
        let fixture = LogFixture(sealThreshold: 2048)
        try fixture.populate(batches: 20, sizes: { _ in 5 })
        let copy = fixture.directory.appending("copy")
        try SegmentCopier().copy(from: fixture.path, to: copy)
        let before = try fixture.segmentNames()
        #expect(before.count > 3, "the log spans several segments")
        let writer = try fixture.open()
        for n in 0..<30 { _ = try writer.append([LogFixture.draft(1000 + n)]) }
        writer.close()
        let after = try fixture.segmentNames()
        #expect(after.count > before.count, "the appends sealed the active segment")
        let lost = before[1]
        try FileManager.default.removeItem(atPath: copy + "/" + lost)

        let written = try SegmentCopier().copy(from: fixture.path, to: copy, fromItsLastSegment: true)
        #expect(Set(written) == Set(after.filter { $0 >= before.last! }), "the sealed segment and the new ones")
        for name in after where name != lost {
            #expect(try bytes(copy, name) == (try fixture.bytes(of: name)), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: copy + "/" + lost), "left for a whole copy")
        #expect(try SegmentCopier().copy(from: fixture.path, to: copy, fromItsLastSegment: true).isEmpty)

        #expect(try SegmentCopier().copy(from: fixture.path, to: copy) == [lost])
        for name in after { #expect(try bytes(copy, name) == (try fixture.bytes(of: name)), "\(name)") }
    }
}
