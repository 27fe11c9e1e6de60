import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A mirror (docs/decisions/0007 §6.2) holds another device's batches as that device wrote them, and a
/// ``LogWriter`` appends to it only what continues it.
@Suite struct MirrorWriterTests {
    static let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!

    /// A device's log of a few batches, sealed into several segments, as a reader hands them out.
    private func deviceBatches() throws -> (LogFixture, [LogBatch]) {
        try LogFixture.deviceBatches(of: Self.device, count: 10, sealThreshold: 600, sealedFrameTarget: 300)
    }

    /// Every batch of the log at `path`, which must read to its end without a warning.
    static func batches(at path: String) throws -> [LogBatch] {
        let cursor = try LogReader(path: path).batches()
        var read: [LogBatch] = []
        while let batch = try cursor.next() { read.append(batch) }
        #expect(cursor.warning == nil)
        return read
    }

    /// A new mirror of the device at `path`, holding its first batch.
    private func createMirror(at path: String, holding first: LogBatch, _ fixture: LogFixture) throws -> LogWriter {
        try LogWriter.createMirror(at: path, firstBatch: first.events, configuration: mirrorConfiguration(fixture))
    }

    private func mirrorConfiguration(_ fixture: LogFixture) -> LogConfiguration {
        var configuration = fixture.configuration
        configuration.device = Self.device
        return configuration
    }

    @Test func aMirrorHoldsTheSameLinesAndHeadAsTheDevicesLog() throws {
        let (fixture, batches) = try deviceBatches()
        let path = fixture.directory.appending("mirror")
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        for batch in batches.dropFirst() { try mirror.appendRecorded(batch.events) }
        #expect(mirror.head == (try fixture.reader().head()))
        mirror.close()
        #expect(try Self.batches(at: path) == batches)
        #expect(try SegmentCopier().copy(from: path, to: fixture.directory.appending("copy")).contains("format"))
    }

    @Test func batchesAppendedTogetherAreTheSameFramesAndSegmentsAsOneByOne() throws {
        let (fixture, batches) = try deviceBatches()
        let together = fixture.directory.appending("together")
        let mirror = try createMirror(at: together, holding: batches[0], fixture)
        try mirror.appendRecorded(batches: batches.dropFirst().map(\.events))
        #expect(mirror.head == (try fixture.reader().head()))
        mirror.close()
        let oneByOne = fixture.directory.appending("one-by-one")
        let single = try createMirror(at: oneByOne, holding: batches[0], fixture)
        for batch in batches.dropFirst() { try single.appendRecorded(batch.events) }
        single.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: oneByOne).filter { $0.hasSuffix(".zst") }
            .sorted()
        #expect(names.count > 1, "the batches span sealed segments")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: together).filter { $0.hasSuffix(".zst") }.sorted()
                == names)
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: together + "/" + name))
            #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: oneByOne + "/" + name))), "\(name)")
        }
    }

    @Test func aRunOfBatchesWithOneThatDoesNotContinueIsRefusedWhole() throws {
        let (fixture, batches) = try deviceBatches()
        let path = fixture.directory.appending("mirror")
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        defer { mirror.close() }
        #expect(throws: LogError.self) {
            try mirror.appendRecorded(batches: [batches[1].events, batches[3].events])
        }
        #expect(throws: LogError.self) { try mirror.appendRecorded(batches: [batches[1].events, []]) }
        #expect(mirror.lastSeq == batches[0].lastSeq, "nothing was appended")
        try mirror.appendRecorded(batches: [])
        try mirror.appendRecorded(batches: [batches[1].events, batches[2].events])
        #expect(mirror.lastSeq == batches[2].lastSeq)
    }

    @Test func aBatchThatDoesNotContinueTheMirrorIsRefusedAndNothingIsWritten() throws {
        let (fixture, batches) = try deviceBatches()
        let path = fixture.directory.appending("mirror")
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        defer { mirror.close() }
        var relinked = batches[1].events
        relinked[0] = RecordedEvent(
            seq: relinked[0].seq, at: relinked[0].at, type: relinked[0].type, version: relinked[0].version,
            tx: relinked[0].tx, clock: relinked[0].clock, device: relinked[0].device, hlc: relinked[0].hlc,
            prev: String(repeating: "1", count: 32), data: relinked[0].data)
        var foreign = batches[1].events
        foreign[0] = RecordedEvent(
            seq: foreign[0].seq, at: foreign[0].at, type: foreign[0].type, version: foreign[0].version,
            tx: foreign[0].tx, clock: foreign[0].clock, device: DeviceID(high: 7, low: 7), hlc: foreign[0].hlc,
            prev: foreign[0].prev, data: foreign[0].data)
        for refused in [batches[2].events, relinked, foreign, []] {
            #expect(throws: LogError.self) { try mirror.appendRecorded(refused) }
        }
        #expect(mirror.lastSeq == batches[0].lastSeq, "nothing was appended")
        try mirror.appendRecorded(batches[1].events)
        #expect(mirror.lastSeq == batches[1].lastSeq)
    }

    /// Batches appended together to the active segment rewrite it (a copy with the frames after it, renamed
    /// over it): a segment changed or cut under the writer is not copied, and nothing is written.
    @Test(arguments: [false, true])
    func anActiveSegmentChangedUnderTheWriterIsNotRewritten(cut: Bool) throws {
        let (fixture, batches) = try LogFixture.deviceBatches(
            of: Self.device, count: 6, sealThreshold: 1 << 20, sealedFrameTarget: 64 << 10)
        let path = fixture.directory.appending("mirror")
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        defer { mirror.close() }
        try mirror.appendRecorded(batches: batches[1..<3].map(\.events))
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: path).first { $0.hasSuffix(".jsonl.zst") })
        let url = URL(fileURLWithPath: path + "/" + name)
        var bytes = Array(try Data(contentsOf: url))
        if cut { bytes.removeLast() } else { bytes[bytes.count / 2] ^= 0x20 }
        try Data(bytes).write(to: url)
        let error = try #require(throws: LogError.self) {
            try mirror.appendRecorded(batches: batches[3..<5].map(\.events))
        }
        #expect(error.code == .damaged)
        #expect(error.message.contains(cut ? "became shorter" : "changed while this writer held the lock"))
        #expect(Array(try Data(contentsOf: url)) == bytes, "the segment is left as it was found")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func aWriterReceivingARemoteReadingStampsItsBatchAfterIt() throws {
        let fixture = LogFixture(sealThreshold: 1 << 20, sealedFrameTarget: 1 << 16)
        fixture.device = Self.device
        let writer = try fixture.create()
        defer { writer.close() }
        let remote = try #require(HLC(milliseconds: fixture.clock.now.milliseconds + 3_600_000, counter: 5))
        let received = try writer.append([LogFixture.draft(1)], receiving: remote)
        #expect(received[0].hlc == HLC(milliseconds: remote.milliseconds, counter: 6))
        let next = try writer.append([LogFixture.draft(2)])
        #expect(try #require(next[0].hlc) > (try #require(received[0].hlc)), "the clock kept the received reading")
    }

    /// The device's sealed segments, by name (every segment of its log but the last), as the sync folder holds them.
    private func sealedSegments(_ fixture: LogFixture) throws -> [String: [UInt8]] {
        var sealed: [String: [UInt8]] = [:]
        for name in try fixture.segmentNames().dropLast() { sealed[name] = try fixture.bytes(of: name) }
        return sealed
    }

    private func zstdNames(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".zst") }.sorted()
    }

    @Test func theDevicesSealedSegmentsArePlacedByteForByteAndNotSealedAgain() throws {
        let (fixture, batches) = try deviceBatches()
        let sealed = try sealedSegments(fixture)
        #expect(sealed.count > 1)
        let path = fixture.directory.appending("mirror")
        // Half the batches first (the mirror's active segment then holds a part of a segment the device sealed),
        // then the rest with the sealed copies.
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        try mirror.appendRecorded(batches: batches[1..<5].map(\.events))
        var asked: [String] = []
        try mirror.appendRecorded(batches: batches[5...].map(\.events)) { name in
            asked.append(name)
            return sealed[name]
        }
        #expect(mirror.head == (try fixture.reader().head()))
        mirror.close()
        #expect(!asked.isEmpty)
        for name in sealed.keys {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))) == sealed[name], "\(name)")
        }
        #expect(try zstdNames(path) == (try fixture.segmentNames()))
        let cursor = try LogReader(path: path).batches()
        var read: [LogBatch] = []
        while let batch = try cursor.next() { read.append(batch) }
        #expect(cursor.warning == nil)
        #expect(read == batches)
        #expect(try LogReader(path: path).verify().problems.isEmpty)
    }

    @Test(arguments: ["flipped", "another segment", "cut", "trailing bytes"])
    func sealedBytesThatAreNotTheSegmentAreNotPlaced(_ kind: String) throws {
        let (fixture, batches) = try deviceBatches()
        let sealed = try sealedSegments(fixture)
        let names = sealed.keys.sorted()
        func wrong(_ name: String) -> [UInt8]? {
            guard var bytes = sealed[name] else { return nil }
            switch kind {
            case "flipped": bytes[bytes.count / 3] ^= 0x20
            case "another segment": return sealed[names[(names.firstIndex(of: name)! + 1) % names.count]]
            case "cut": bytes.removeLast(3)
            default: bytes += [0x28, 0xB5, 0x2F, 0xFD]
            }
            return bytes
        }
        let path = fixture.directory.appending("mirror")
        let mirror = try createMirror(at: path, holding: batches[0], fixture)
        try mirror.appendRecorded(batches: batches.dropFirst().map(\.events), sealedCopies: wrong)
        #expect(mirror.head == (try fixture.reader().head()))
        mirror.close()
        #expect(try Self.batches(at: path) == batches, "the batches were appended and sealed as without the copies")
        #expect(try LogReader(path: path).verify().problems.isEmpty)
    }
}
