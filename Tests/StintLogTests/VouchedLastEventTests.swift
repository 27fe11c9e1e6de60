import Foundation
import StintCore
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintLog

/// ``LogReader/vouchedLastEvent()``: the end of a log its last writer vouched for (the `checked` file's entry for
/// the active segment, the `tail` file's frame), taken from the last frame alone while the segment has the bytes
/// the entry names; anything else is left to the read that checks the chain (nil).
@Suite struct VouchedLastEventTests {
    /// A log of `batches` batches after the first, written by a writer that keeps the tail file (a replica's).
    private func written(batches: Int) throws -> LogFixture {
        let fixture = LogFixture()
        var configuration = fixture.configuration
        configuration.keepsTailFile = true
        let writer = try LogWriter.create(
            at: fixture.path, settingsEvent: LogFixture.settings, configuration: configuration)
        defer { writer.close() }
        for n in 1...batches { _ = try writer.append([LogFixture.draft(n), LogFixture.draft(1000 + n)]) }
        return fixture
    }

    @Test func theVouchedEndIsTheOneTheChainCheckedReadFinds() throws {
        let fixture = try written(batches: 20)
        let reader = try fixture.reader()
        let vouched = try #require(try reader.vouchedLastEvent())
        let checked = try #require(try reader.lastEvent(checkingChain: true))
        #expect(vouched.event == checked)
        #expect(vouched.head == LogHead(of: checked))
        #expect(vouched.head.seq == 41)
    }

    /// The frames before the last one are not decoded: a segment whose entry vouches for bytes a cold read
    /// refuses (as a writer's `checked` file would after a later change by hand) still gives the entry's end.
    /// This is what makes it cheap, and why it is taken only where the entry names the bytes exactly.
    @Test func onlyTheLastFrameIsDecoded() throws {
        let fixture = try written(batches: 20)
        let tail = try #require(TailFile.read(in: LogDirectory(path: fixture.path, fileSystem: POSIXFileSystem())))
        var bytes = try fixture.bytes(of: tail.segment)
        bytes[Int(tail.lastFrameOffset) / 2] ^= 0x40
        try fixture.write(bytes, to: tail.segment)
        var checked = try #require(CheckedSegments(bytes: try fixture.bytes(of: CheckedSegments.name)))
        checked.entries[tail.segment]?.digest = SHA256Digest(of: bytes)
        try fixture.write(checked.bytes, to: CheckedSegments.name)
        let reader = try fixture.reader()
        #expect(try reader.vouchedLastEvent()?.head.seq == 41)
        #expect(try fixture.readAll().warning != nil, "a cold read stops at the changed frame")
    }

    @Test(arguments: ["changed byte", "appended bytes", "no checked file", "no tail file", "other line", "new segment"])
    func whatTheEntryDoesNotVouchForIsLeftToTheCheckedRead(_ change: String) throws {
        let fixture = try written(batches: 20)
        let tail = try #require(TailFile.read(in: LogDirectory(path: fixture.path, fileSystem: POSIXFileSystem())))
        let segment = try fixture.bytes(of: tail.segment)
        switch change {
        case "changed byte":
            // Before the last frame: only the entry's digest tells.
            var bytes = segment
            bytes[Int(tail.lastFrameOffset) / 2] ^= 0x10
            try fixture.write(bytes, to: tail.segment)
        case "appended bytes":
            try fixture.write(segment + [0x28, 0xB5, 0x2F, 0xFD, 0x64], to: tail.segment)
        case "no checked file":
            try FileManager.default.removeItem(atPath: fixture.path + "/" + CheckedSegments.name)
        case "no tail file":
            try FileManager.default.removeItem(atPath: fixture.path + "/" + TailFile.name)
        case "other line":
            // The entry names another last line than the one the segment ends with.
            var checked = try #require(CheckedSegments(bytes: try fixture.bytes(of: CheckedSegments.name)))
            checked.entries[tail.segment]?.lastLineDigest = SHA256Digest(of: [0x0A])
            try fixture.write(checked.bytes, to: CheckedSegments.name)
        default:
            // A segment after the one the files describe.
            try fixture.write(segment, to: String(format: "%020d.jsonl.zst", 42))
        }
        #expect(try fixture.reader().vouchedLastEvent() == nil)
    }

    /// `fixture`'s log settled by a writer that settles and appends nothing, once the file system's clock has moved on from
    /// the segment's last change (change times are coarse: within one tick, nothing is settled).
    private func settle(_ fixture: LogFixture, fileSystem: (any LogFileSystem)? = nil) throws {
        Thread.sleep(forTimeInterval: 0.03)
        var configuration = fixture.configuration
        configuration.keepsTailFile = true
        configuration.settlesActiveSegment = true
        if let fileSystem { configuration.fileSystem = fileSystem }
        try LogWriter.open(at: fixture.path, configuration: configuration).close()
    }

    /// The active segment's entry, as the `checked` file remembers it.
    private func activeEntry(of fixture: LogFixture) throws -> CheckedSegments.Entry {
        let checked = try #require(CheckedSegments(bytes: try fixture.bytes(of: CheckedSegments.name)))
        return try #require(checked.entries.values.first { !$0.sealed })
    }

    @Test func aSettledFingerprintVouchesForTheEndWithoutReadingTheSegment() throws {
        let fixture = try written(batches: 20)
        let hashed = try #require(try fixture.reader().vouchedLastEvent())
        #expect(hashed.unsettled, "an appending writer leaves the active segment without a fingerprint")
        #expect(try activeEntry(of: fixture).fingerprint == nil)
        try settle(fixture)
        #expect(try activeEntry(of: fixture).settled)

        let counting = CountingFileSystem()
        var options = fixture.readOptions
        options.fileSystem = counting
        let vouched = try #require(try LogReader(path: fixture.path, options: options).vouchedLastEvent())
        #expect(!vouched.unsettled)
        #expect(vouched.event == hashed.event)
        #expect(vouched.head == hashed.head)
        let segment = try #require(try fixture.segmentNames().last)
        #expect(
            counting.bytesRead(of: segment) < (try fixture.bytes(of: segment)).count / 4,
            "only the last frame is read")
    }

    @Test func anAppendEndsWhatASettledFingerprintVouchesFor() throws {
        let fixture = try written(batches: 20)
        try settle(fixture)
        // A writer that settles, as a mirror's does, and then appends.
        var configuration = fixture.configuration
        configuration.keepsTailFile = true
        configuration.settlesActiveSegment = true
        let writer = try LogWriter.open(at: fixture.path, configuration: configuration)
        #expect(try activeEntry(of: fixture).settled, "settled as it opened")
        _ = try writer.append([LogFixture.draft(99)])
        writer.close()
        #expect(try activeEntry(of: fixture).fingerprint == nil)
        let vouched = try #require(try fixture.reader().vouchedLastEvent())
        #expect(vouched.unsettled)
        #expect(vouched.head.seq == 42)
    }

    /// A change to a settled segment changes its change time, so its fingerprint: the digest is compared again
    /// and finds it (the same size, the same file: only the bytes differ).
    @Test func aChangeToASettledSegmentIsNotVouchedFor() throws {
        let fixture = try written(batches: 20)
        try settle(fixture)
        let tail = try #require(TailFile.read(in: LogDirectory(path: fixture.path, fileSystem: POSIXFileSystem())))
        var bytes = try fixture.bytes(of: tail.segment)
        bytes[Int(tail.lastFrameOffset) / 2] ^= 0x10
        try fixture.write(bytes, to: tail.segment)
        #expect(try fixture.reader().vouchedLastEvent() == nil)
    }

    /// A segment whose last change is not strictly before the settling writer's stamp keeps no fingerprint: a
    /// write in the same tick of the file system's clock would leave it as it is.
    @Test func aFingerprintNotSettledIsNotKept() throws {
        let fixture = try written(batches: 20)
        try settle(fixture, fileSystem: StampInThePast())
        #expect(try activeEntry(of: fixture).fingerprint == nil)
        #expect(try !activeEntry(of: fixture).settled)
        #expect(try fixture.reader().vouchedLastEvent()?.unsettled == true)
    }
}

/// A file system whose stamps on the lock file read as an hour ago: no segment is ever settled.
private struct StampInThePast: ForwardingFileSystem {
    let base: any LogFileSystem = POSIXFileSystem()

    func stampChangeTime(_ descriptor: Int32) throws(SystemCallError) -> Int64? {
        try base.stampChangeTime(descriptor).map { $0 - 3_600_000_000_000 }
    }
}
