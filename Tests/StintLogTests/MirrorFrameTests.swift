import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A mirror's writer takes the frames the device wrote, byte for byte, instead of compressing their batches
/// again, but only frames that decompress to exactly the lines it writes (``LogBatch/sourceFrame``,
/// ``LogWriter/appendRecorded(read:sealedCopies:)``).
@Suite struct MirrorFrameTests {
    static let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!

    /// A device's log of `count` batches, all in its active segment, and that segment's name.
    private func deviceLog(count: Int = 8) throws -> (fixture: LogFixture, segment: String) {
        let (fixture, _) = try LogFixture.deviceBatches(
            of: Self.device, count: count, sealThreshold: 1 << 20, sealedFrameTarget: 64 << 10)
        let names = try fixture.segmentNames()
        #expect(names.count == 1)
        return (fixture, names[0])
    }

    /// The log's batches read with ``LogReader/Options/keepsFrames`` (as ingestion reads, lines checked canonical),
    /// and why the reading stopped early, if it did.
    private func read(_ fixture: LogFixture, keepingFrames: Bool = true) throws -> ([LogBatch], LogProblem?) {
        var options = fixture.readOptions
        options.checksCanonical = true
        options.keepsFrames = keepingFrames
        let cursor = try LogReader(path: fixture.path, options: options).batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return (batches, cursor.warning)
    }

    /// The log's batches read keeping frames, the log read to its end.
    private func batchesKeepingFrames(_ fixture: LogFixture, keeping: Bool = true) throws -> [LogBatch] {
        let (batches, warning) = try read(fixture, keepingFrames: keeping)
        #expect(warning == nil)
        return batches
    }

    /// Rewrites every data frame of the segment at another compression level; returns the new bytes.
    private func recompress(_ name: String, of fixture: LogFixture, level: Int32) throws -> [UInt8] {
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        let bytes = frames.flatMap { SegmentSurgery.frame($0.content!, level: level) }
        try fixture.write(bytes, to: name)
        return bytes
    }

    /// A mirror of the device at `path` written from `batches` (the first creating it), closed.
    private func writeMirror(at path: String, _ batches: [LogBatch], _ fixture: LogFixture) throws {
        var configuration = fixture.configuration
        configuration.device = Self.device
        let mirror = try LogWriter.createMirror(at: path, first: batches[0], configuration: configuration)
        defer { mirror.close() }
        try mirror.appendRecorded(read: Array(batches.dropFirst()))
    }

    private func segment(_ name: String, of path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }

    @Test func theScannerHandsOutTheBytesOfTheDataFrameItReturned() throws {
        let (fixture, name) = try deviceLog()
        let bytes = try fixture.bytes(of: name)
        // Seven bytes a read: the frames straddle the reads and the buffer moves under them.
        let scanner = FrameScanner(source: .memory(bytes), chunkSize: 7, decompressor: ZstdDecompressor())
        var frames = 0
        scanning: while true {
            switch try scanner.next() {
            case .data(let offset, let size, _, _):
                let frame = try #require(scanner.lastDataFrame)
                #expect(Array(frame) == Array(bytes[Int(offset)..<(Int(offset) + size)]))
                frames += 1
            case .end:
                #expect(scanner.lastDataFrame == nil)
                break scanning
            default:
                Issue.record("the segment reads whole")
                break scanning
            }
        }
        #expect(frames == SegmentSurgery.frames(bytes).count && frames == 9, "the settings and the eight batches")
    }

    @Test func aReaderKeepsTheFrameOfEachBatchOfAnActiveSegmentWhenAsked() throws {
        let (fixture, name) = try deviceLog()
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        let batches = try batchesKeepingFrames(fixture)
        #expect(batches.map(\.sourceFrame) == frames.map(\.bytes))
        #expect(try batchesKeepingFrames(fixture, keeping: false).allSatisfy { $0.sourceFrame == nil })
        #expect(try batchesKeepingFrames(fixture, keeping: false) == batches, "the frame is not part of equality")
    }

    @Test func aFrameHoldingTwoBatchesIsKeptForNeither() throws {
        let (fixture, name) = try deviceLog()
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        // A sealed segment's frames hold many batches: the frame is no batch's own.
        let merged = SegmentSurgery.frame(frames[0].content! + frames[1].content!)
        try fixture.write(merged + frames[2...].flatMap(\.bytes), to: name)
        let (batches, _) = try read(fixture)
        #expect(batches.count >= 2, "the merged frame's batches are read")
        for batch in batches {
            #expect(batch.sourceFrame != merged)
            if let frame = batch.sourceFrame { #expect(frames.map(\.bytes).contains(frame)) }
        }
    }

    @Test func aFrameWhoseBatchIsFollowedByDamageIsNotKept() throws {
        let (fixture, name) = try deviceLog()
        let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
        // The frame of the second batch, then a line that is not an event: the batch is whole and handed out,
        // the reading stops at the line after it, and the frame is not the batch's alone.
        let damaged = SegmentSurgery.frame(frames[1].content! + Array("not an event\n".utf8))
        try fixture.write(frames[0].bytes + damaged + frames[2...].flatMap(\.bytes), to: name)
        let (batches, warning) = try read(fixture)
        #expect(warning != nil, "the reading stops at the damage")
        #expect(batches.count == 2)
        #expect(batches.first?.sourceFrame == frames[0].bytes)
        #expect(batches.last?.sourceFrame == nil)
    }

    @Test func framesCompressedAtAnotherLevelLandInTheMirrorByteForByte() throws {
        let (fixture, name) = try deviceLog()
        let original = try fixture.bytes(of: name)
        let recompressed = try recompress(name, of: fixture, level: 19)
        #expect(recompressed != original, "level 19 makes other frames than the writer's level 3")
        let batches = try batchesKeepingFrames(fixture)
        let path = fixture.directory.appending("mirror")
        try writeMirror(at: path, batches, fixture)
        #expect(try segment(name, of: path) == recompressed)
        #expect(try MirrorWriterTests.batches(at: path) == batches)
        #expect(try LogReader(path: path).verify().problems.isEmpty)
        // The writer's own records (the checked file, the tail) vouch for what it wrote: it opens and appends.
        var configuration = fixture.configuration
        configuration.device = Self.device
        let reopened = try LogWriter.open(at: path, configuration: configuration)
        #expect(reopened.lastSeq == batches.last?.lastSeq)
        reopened.close()
    }

    @Test func aFrameThatDoesNotHoldExactlyTheBatchIsCompressedInstead() throws {
        let (fixture, name) = try deviceLog()
        let batches = try batchesKeepingFrames(fixture)
        let expected = fixture.directory.appending("expected")
        try writeMirror(at: expected, batches.map { LogBatch(events: $0.events) }, fixture)
        let frame = try #require(batches[2].sourceFrame)
        var wrong = batches
        wrong[1].sourceFrame = batches[2].sourceFrame  // another batch's lines
        wrong[2].sourceFrame = SegmentSurgery.withoutContentSize(frame)
        wrong[3].sourceFrame = Array(try #require(batches[3].sourceFrame).dropLast())  // torn
        wrong[4].sourceFrame = try #require(batches[4].sourceFrame) + [0]  // bytes after the frame
        var flipped = try #require(batches[5].sourceFrame)
        flipped[flipped.count - 1] ^= 0x01  // the content checksum does not verify
        wrong[5].sourceFrame = flipped
        wrong[6].sourceFrame = []
        // A whole, checksummed frame of the batch's size whose lines differ by one byte: only the comparison of
        // the content refuses it.
        var altered = SegmentSurgery.frames(try fixture.bytes(of: name))[7].content!
        let digit = try #require(altered.lastIndex { (0x30...0x38).contains($0) })
        altered[digit] += 1
        wrong[7].sourceFrame = SegmentSurgery.frame(altered)
        let path = fixture.directory.appending("mirror")
        try writeMirror(at: path, wrong, fixture)
        #expect(try segment(name, of: path) == (try segment(name, of: expected)))
        #expect(try MirrorWriterTests.batches(at: path) == batches)
    }
}
