import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A comparison that found two copies of a log the same, remembered by the fingerprints of what it read
/// (``LastSegmentVouch``): it holds while nothing changed, and any change to either directory or segment, or a
/// file that changed after the stamp, ends it.
@Suite struct LastSegmentVouchTests {
    /// A log, a copy of it, and a stamp given after both were written (the file system's clock moved on).
    private func settledCopy() throws -> (LogFixture, String, LastSegmentVouch.Stamp) {
        let fixture = LogFixture()
        _ = try fixture.populate(batches: 5)
        let copy = fixture.directory.appending("copy")
        try SegmentCopier().copy(from: fixture.path, to: copy)
        Thread.sleep(forTimeInterval: 0.03)
        return (fixture, copy, try stamp(in: fixture))
    }

    private func stamp(in fixture: LogFixture) throws -> LastSegmentVouch.Stamp {
        let fileSystem = POSIXFileSystem()
        let lock = fixture.directory.appending("stamp")
        let descriptor = try fileSystem.openFile(lock, .createIfMissing)
        defer { fileSystem.close(descriptor) }
        let changed = try #require(try fileSystem.stampChangeTime(descriptor))
        let device = try #require(try fileSystem.fingerprint(of: lock)).device
        return LastSegmentVouch.Stamp(device: device, changed: changed)
    }

    private func vouchOf(_ copy: String, _ whole: String, _ stamp: LastSegmentVouch.Stamp?) -> LastSegmentVouch? {
        let (comparison, vouch) = LastSegmentComparison.vouched(
            copy, in: whole, fileSystem: POSIXFileSystem(), stamp: stamp)
        #expect(comparison == .same)
        return vouch
    }

    @Test func aVouchHoldsWhileNothingChangedAndReadsBackFromItsLine() throws {
        let (fixture, copy, stamp) = try settledCopy()
        let vouch = try #require(vouchOf(copy, fixture.path, stamp))
        #expect(vouch.segment == (try fixture.segmentNames().last))
        #expect(vouch.holds(prefix: copy, whole: fixture.path, fileSystem: POSIXFileSystem()))
        #expect(LastSegmentVouch(line: Substring(vouch.line)) == vouch)
        #expect(LastSegmentVouch(line: Substring(vouch.line + " 1")) == nil)
        #expect(LastSegmentVouch(line: "segment 1:2:3:4:5 1:2:3:4:5 1:2:3:4:5 1:2:3:4:5") == nil)
    }

    @Test(arguments: ["appended", "same size, other bytes", "rewritten as it was", "new segment", "copy's segment"])
    func anyChangeEndsAVouch(_ change: String) throws {
        let (fixture, copy, stamp) = try settledCopy()
        let vouch = try #require(vouchOf(copy, fixture.path, stamp))
        let segment = try #require(try fixture.segmentNames().last)
        let bytes = try fixture.bytes(of: segment)
        switch change {
        case "appended":
            let writer = try fixture.open()
            _ = try writer.append([LogFixture.draft(6)])
            writer.close()
        case "same size, other bytes":
            var flipped = bytes
            flipped[bytes.count / 2] ^= 0x01
            try fixture.write(flipped, to: segment)
        case "rewritten as it was":
            try fixture.write(bytes, to: segment)
        case "new segment":
            try fixture.write(bytes, to: String(format: "%020d.jsonl.zst", 999))
        default:
            try Data(bytes).write(to: URL(fileURLWithPath: copy + "/" + segment))
        }
        #expect(!vouch.holds(prefix: copy, whole: fixture.path, fileSystem: POSIXFileSystem()), "\(change)")
    }

    /// Files that changed at or after the stamp, or on another file system than the stamp's, are not settled.
    @Test func nothingIsVouchedForThatIsNotSettled() throws {
        let (fixture, copy, stamp) = try settledCopy()
        #expect(vouchOf(copy, fixture.path, LastSegmentVouch.Stamp(device: stamp.device, changed: 0)) == nil)
        #expect(
            vouchOf(copy, fixture.path, LastSegmentVouch.Stamp(device: stamp.device &+ 1, changed: stamp.changed))
                == nil)
        #expect(vouchOf(copy, fixture.path, nil) == nil)
        // Written after the stamp: the same bytes, not settled.
        let segment = try #require(try fixture.segmentNames().last)
        try fixture.write(try fixture.bytes(of: segment), to: segment)
        #expect(vouchOf(copy, fixture.path, stamp) == nil)
    }
}
