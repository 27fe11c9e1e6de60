import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Reading and verifying with several workers (``LogReader/Options/workers``) gives exactly what one worker
/// gives: every batch, the warning, the error, and verification's whole report, on intact logs and on logs
/// damaged in each way the reader and the verifier tell apart.
@Suite struct ParallelReadTests {
    static let workerCounts = [1, 2, 8]
    static let seed: UInt64 = 0x5EED_0013

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Everything a reader and the verifier say about one log.
    struct Observation: Equatable, CustomStringConvertible {
        /// Each read, from a `seq`: its batches, then its warning or its error.
        var reads: [String] = []
        var report = ""
        /// What the verifier gave the validator: `seq` and `follows`, in order.
        var validated: [String] = []
        var head = ""

        var description: String { (reads + [report, head] + validated.suffix(5)).joined(separator: "\n") }
    }

    /// Reads `path` from several `seq`s, and verifies it, with `workers` workers.
    static func observe(_ path: String, workers: Int, fileSystem: any LogFileSystem = POSIXFileSystem())
        -> Observation
    {
        var options = LogReader.Options(readChunkSize: 4096, workers: workers)
        options.fileSystem = fileSystem
        var observation = Observation()
        let reader: LogReader
        do {
            reader = try LogReader(path: path, options: options)
        } catch {
            observation.report = "cannot open: \(error)"
            return observation
        }
        for from: Int64 in [1, 40, 133, 1_000] {
            var lines = ["from \(from)"]
            do {
                let cursor = try reader.batches(from: from)
                while let batch = try cursor.next() {
                    lines.append(batch.events.map { String(decoding: $0.encodedLine(), as: UTF8.self) }.joined())
                }
                lines.append("warning: \(cursor.warning.map(String.init(describing:)) ?? "none")")
            } catch {
                lines.append("error: \(error)")
            }
            observation.reads.append(lines.joined(separator: "\n"))
        }
        var validated: [String] = []
        do {
            let report = try reader.verify(validatingEach: { event, follows in
                validated.append("\(event.seq) \(follows)")
                return event.seq % 61 == 0 ? "rejected \(event.seq)" : nil
            })
            observation.report =
                "\(report.eventCount) events, \(report.segmentCount) segments, head \(report.head.map { "\($0.seq):\($0.hash)" } ?? "none")\n"
                + report.problems.map(String.init(describing:)).joined(separator: "\n")
        } catch {
            observation.report = "verify error: \(error)"
        }
        observation.validated = validated
        do {
            observation.head = try reader.head().map { "\($0.seq):\($0.hash)" } ?? "none"
        } catch {
            observation.head = "head error: \(error)"
        }
        return observation
    }

    /// Observes `path` with every worker count and expects the same as with one; returns that.
    @discardableResult
    static func expectSameForEveryWorkerCount(
        _ path: String, fileSystem: () -> any LogFileSystem = { POSIXFileSystem() },
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Observation {
        let reference = observe(path, workers: 1, fileSystem: fileSystem())
        for workers in workerCounts.dropFirst() {
            let observed = observe(path, workers: workers, fileSystem: fileSystem())
            #expect(
                observed.reads == reference.reads, "reads with \(workers) workers (seed \(seed))",
                sourceLocation: sourceLocation)
            #expect(
                observed.report == reference.report, "verify with \(workers) workers (seed \(seed))",
                sourceLocation: sourceLocation)
            #expect(
                observed.validated == reference.validated, "validator calls with \(workers) workers",
                sourceLocation: sourceLocation)
            #expect(observed.head == reference.head, "head with \(workers) workers", sourceLocation: sourceLocation)
        }
        return reference
    }

    /// A log of many small segments with batches of one to four events, from the seed.
    static func multiSegmentLog() throws -> LogFixture {
        let fixture = LogFixture(sealThreshold: 4096, sealedFrameTarget: 1024)
        var random = SplitMix64(seed: seed)
        let sizes = (0..<220).map { _ in Int(random.next() % 4) + 1 }
        try fixture.populate(batches: sizes.count, sizes: { sizes[$0] })
        return fixture
    }

    @Test func theSampleLogReadsTheSameWithEveryWorkerCount() {
        let observed = Self.expectSameForEveryWorkerCount(
            Self.repository.appendingPathComponent("Events/sample/log").path)
        #expect(observed.report.hasPrefix("45 events, 1 segments"))
    }

    @Test func theGoldenLogsReadTheSameWithEveryWorkerCount() throws {
        let golden = Self.repository.appendingPathComponent("Events/golden")
        let cases = try FileManager.default.contentsOfDirectory(atPath: golden.path).filter {
            FileManager.default.fileExists(atPath: golden.appendingPathComponent("\($0)/events.jsonl").path)
        }.sorted()
        #expect(cases.count >= 5)
        for name in cases {
            let file = golden.appendingPathComponent("\(name)/events.jsonl").path
            Self.expectSameForEveryWorkerCount(file)
            // The same events appended to a log of many small segments.
            let fixture = LogFixture(sealThreshold: 1024, sealedFrameTarget: 512)
            let events = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
                try RecordedEvent(line: Array($0.utf8))
            }
            let writer = try LogWriter.create(
                at: fixture.path, settingsEvent: Self.draft(events[0]), configuration: fixture.configuration)
            var index = 1
            while index < events.count {
                var batch = [events[index]]
                index += 1
                while index < events.count, let tx = events[index].tx, tx != events[index].seq {
                    batch.append(events[index])
                    index += 1
                }
                _ = try writer.append(batch.map(Self.draft))
            }
            writer.close()
            let observed = Self.expectSameForEveryWorkerCount(fixture.path)
            #expect(observed.report.hasPrefix("\(events.count) events"), "\(name)")
        }
    }

    static func draft(_ event: RecordedEvent) -> EventDraft {
        EventDraft(type: event.type, version: event.version, data: event.data)
    }

    @Test func anIntactMultiSegmentLogReadsTheSameWithEveryWorkerCount() throws {
        let fixture = try Self.multiSegmentLog()
        #expect(try fixture.segmentNames().count >= 10)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        #expect(observed.report.contains("segments, head"))
        #expect(observed.reads.allSatisfy { $0.hasSuffix("warning: none") })
    }

    /// The names of the segments of `fixture`, and one in the middle.
    static func middle(_ fixture: LogFixture) throws -> (names: [String], middle: String) {
        let names = try fixture.segmentNames()
        return (names, names[names.count / 2])
    }

    @Test func aFlippedByteInAMiddleSegmentIsReportedTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        var bytes = try fixture.bytes(of: middle)
        bytes[bytes.count / 3] ^= 0x20
        try fixture.write(bytes, to: middle)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        #expect(observed.report.contains(middle))
    }

    @Test func aTornTailIsReportedTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let last = try fixture.segmentNames().last!
        let bytes = try fixture.bytes(of: last)
        try fixture.write(Array(bytes.dropLast(7)), to: last)
        // A torn append was never acknowledged: no `checked` file vouches for its bytes.
        try FileManager.default.removeItem(atPath: fixture.path + "/checked")
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        #expect(observed.report.contains("torn") || observed.report.contains("incomplete"))
    }

    @Test func aRemovedMiddleSegmentIsReportedTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        try FileManager.default.removeItem(atPath: fixture.path + "/" + middle)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        #expect(observed.report.contains("missing"))
    }

    @Test func aSegmentWithAWrongNameIsReportedTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        let firstSeq = Int64(middle.prefix(20))!
        let wrong = String(format: "%020lld.jsonl.zst", firstSeq + 1)
        try FileManager.default.moveItem(atPath: fixture.path + "/" + middle, toPath: fixture.path + "/" + wrong)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        #expect(observed.report.contains(wrong))
    }

    @Test func aChainBrokenAtASegmentJoinIsReportedTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        // A forger's edit: the first event of the segment gets another prev, and the segment is rebuilt with
        // valid checksums and a matching seal index, so only the join between the segments shows it.
        let frames = SegmentSurgery.frames(try fixture.bytes(of: middle))
        var rebuilt: [UInt8] = []
        var entries: [SealIndex.Entry] = []
        var firstSeq: Int64 = 0
        var lastSeq: Int64 = 0
        for (index, frame) in frames.dropLast().enumerated() {
            var lines = SegmentSurgery.lines(frame.content!)
            if index == 0 {
                var edited = SegmentSurgery.event(lines[0])
                edited.prev = String(repeating: "ab", count: 16)
                lines[0] = edited.encodedLine()
                firstSeq = edited.seq
            }
            lastSeq = SegmentSurgery.event(lines.last!).seq
            entries.append(
                SealIndex.Entry(offset: Int64(rebuilt.count), firstSeq: SegmentSurgery.event(lines[0]).seq))
            rebuilt += SegmentSurgery.frame(SegmentSurgery.content(lines))
        }
        rebuilt += SealIndex(firstSeq: firstSeq, lastSeq: lastSeq, entries: entries).encodedFrame()
        try fixture.write(rebuilt, to: middle)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path)
        let broken = observed.report.split(separator: "\n").filter { $0.contains("is not the hash of") }
        // The edited line's own hash changed too, so the next link breaks as well.
        #expect(broken.count == 2, "\(observed.report)")
        #expect(broken.first?.contains("line 1, seq \(firstSeq): prev abab") == true, "\(observed.report)")
        #expect(observed.report.contains("prev abab"))
        #expect(observed.reads[0].contains("prev abab"))
    }

    @Test func aReadErrorInAMiddleSegmentIsThrownTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path) {
            ReadFailingFileSystem(segment: middle, failingReadsFrom: 1500)
        }
        #expect(observed.report.hasPrefix("verify error:"))
        #expect(observed.reads[0].contains("error:"))
    }

    @Test func anOpenErrorOnAMiddleSegmentIsThrownTheSame() throws {
        let fixture = try Self.multiSegmentLog()
        let (_, middle) = try Self.middle(fixture)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path) {
            ReadFailingFileSystem(segment: middle, failingOpen: true)
        }
        #expect(observed.report.contains("open segment \(middle)"))
    }

    @Test func aDamagedSegmentAfterAReadErrorDoesNotChangeTheError() throws {
        // A worker reads ahead past the segment whose read fails; what it finds there is never reported.
        let fixture = try Self.multiSegmentLog()
        let (names, middle) = try Self.middle(fixture)
        let later = names[names.count / 2 + 2]
        var bytes = try fixture.bytes(of: later)
        bytes[bytes.count / 2] ^= 0x01
        try fixture.write(bytes, to: later)
        let observed = Self.expectSameForEveryWorkerCount(fixture.path) {
            ReadFailingFileSystem(segment: middle, failingReadsFrom: 0)
        }
        #expect(!observed.report.contains(later))
    }

    @Test func theDefaultWorkerCountIsBetweenOneAndFour() {
        #expect((1...4).contains(LogReader.Options().workers))
        #expect(LogReader.Options(workers: 0).workers == 1)
    }
}

/// The real file system, except that reads of one segment fail with `EIO` from a given offset on, or its
/// opening fails.
final class ReadFailingFileSystem: ForwardingFileSystem, @unchecked Sendable {
    let base: any LogFileSystem = POSIXFileSystem()
    private let segment: String
    private let failingReadsFrom: Int64?
    private let failingOpen: Bool
    private let lock = NSLock()
    private var descriptors: Set<Int32> = []

    init(segment: String, failingReadsFrom: Int64? = nil, failingOpen: Bool = false) {
        self.segment = segment
        self.failingReadsFrom = failingReadsFrom
        self.failingOpen = failingOpen
    }

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        let isSegment = path.hasSuffix("/" + segment)
        if isSegment && failingOpen { throw SystemCallError(operation: "open", path: path, errno: EIO) }
        let descriptor = try base.openFile(path, mode)
        if isSegment { lock.withLock { _ = descriptors.insert(descriptor) } }
        return descriptor
    }

    func close(_ descriptor: Int32) {
        lock.withLock { _ = descriptors.remove(descriptor) }
        base.close(descriptor)
    }

    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        if let failingReadsFrom, let offset, offset + Int64(buffer.count) > failingReadsFrom,
            lock.withLock({ descriptors.contains(descriptor) })
        {
            throw SystemCallError(operation: "pread", errno: EIO)
        }
        return try base.read(descriptor, into: buffer, at: offset)
    }
}
