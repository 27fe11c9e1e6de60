import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Single-bit flips over a log's bytes. No flip may change the events a reader hands out: each is either
/// reported by `verify` with its segment, offset and seq (readers then stop before it), repaired by the next
/// writer as a torn tail when it lies in the very last frame, or harmless (a bit the zstd format ignores, so
/// that every event still decodes to the same bytes).
///
/// Every `STINT_BIT_FLIP_STRIDE`-th bit (default 4 in CI; 1, every bit, in `Tools/reliability/bit-flips.sh`)
/// of a small log with a sealed segment and an active one is flipped, and a seeded sample of distinct bits of a
/// larger log of `STINT_BIT_FLIP_BATCHES` batches (default 80; the full run uses 400, about 380 000 bits),
/// `STINT_BIT_FLIPS` of them (default 300; the full run does 100 000) from `STINT_BIT_FLIP_SEED`.
@Suite struct BitFlipTests {
    static let environment = ProcessInfo.processInfo.environment
    static let sampledFlips = environment["STINT_BIT_FLIPS"].flatMap(Int.init) ?? 300
    static let stride = max(1, environment["STINT_BIT_FLIP_STRIDE"].flatMap(Int.init) ?? 4)
    static let seed = environment["STINT_BIT_FLIP_SEED"].flatMap(UInt64.init) ?? 1
    static let largerBatches = environment["STINT_BIT_FLIP_BATCHES"].flatMap(Int.init) ?? 80

    /// What flipping one bit did.
    enum Outcome: Hashable {
        case reported, tornTailRepaired, harmless
    }

    /// A log on disk, its files' bytes, and its events.
    struct Sample {
        let fixture: LogFixture
        let files: [String: [UInt8]]
        let events: [RecordedEvent]
        /// The segment file names, in order.
        let segments: [String]
        /// The offset of the last frame of the last segment (a torn tail may only start there).
        let lastFrameOffset: Int

        init(batches: Int, sealThreshold: Int64, sealedFrameTarget: Int) throws {
            fixture = LogFixture(sealThreshold: sealThreshold, sealedFrameTarget: sealedFrameTarget)
            events = try fixture.populate(batches: batches, sizes: { $0 % 5 == 3 ? 3 : 1 })
            files = try fixture.snapshot()
            segments = try fixture.segmentNames()
            let last = SegmentSurgery.frames(files[segments.last!]!)
            lastFrameOffset = last.last!.offset
        }

        /// Every bit position as (file, byte, bit), segments only (the format file has its own check).
        var positions: [(String, Int, UInt8)] {
            segments.flatMap { name in
                (0..<files[name]!.count).flatMap { byte in (0..<8).map { (name, byte, UInt8($0)) } }
            }
        }

        /// Puts back the flipped file and whatever a writer changed (it only ever touches the last segment and
        /// adds files).
        func restore(_ flipped: String) throws {
            for name in try fixture.allFileNames() where files[name] == nil {
                try FileManager.default.removeItem(atPath: fixture.path + "/" + name)
            }
            for name in Set([flipped, segments.last!]) { try fixture.write(files[name]!, to: name) }
        }

        /// The listing, and the bytes of the files a writer could change.
        func state(_ flipped: String) throws -> [String: [UInt8]] {
            var state: [String: [UInt8]] = [:]
            for name in try fixture.allFileNames() { state[name] = [] }
            for name in Set([flipped, segments.last!]) { state[name] = try fixture.bytes(of: name) }
            return state
        }
    }

    /// Flips one bit and checks the reader, `verify` and the next writer; restores the log afterwards.
    static func flip(_ sample: Sample, _ name: String, _ byte: Int, _ bit: UInt8) throws -> Outcome {
        var bytes = sample.files[name]!
        bytes[byte] ^= 1 << bit
        try sample.fixture.write(bytes, to: name)
        defer { try? sample.restore(name) }
        let place = "\(name) byte \(byte) bit \(bit)"

        // Readers never hand out a changed event: what they return is a prefix of the log, batch-whole.
        let (read, warning) = try sample.fixture.readAll()
        #expect(read == Array(sample.events.prefix(read.count)), "\(place): a reader returned a changed event")

        let report = try sample.fixture.reader().verify()
        let isLastFrame = name == sample.segments.last && byte >= sample.lastFrameOffset
        if let first = report.problems.first {
            #expect(first.location.segment == name, "\(place): reported in \(first.location)")
            #expect(first.location.offset != nil && first.location.seq != nil, "\(place): \(first)")
            if let offset = first.location.offset { #expect(offset <= Int64(byte), "\(place): reported after it") }
        } else {
            // Not reported: every event must have decoded to exactly the same bytes.
            #expect(read == sample.events, "\(place): not reported, but the events differ")
            #expect(warning == nil)
        }

        let before = try sample.state(name)
        let opened = logError { try sample.fixture.open().close() }
        if let opened {
            #expect(opened.code == .damaged, "\(place): \(opened.message)")
            #expect(opened.location?.segment != nil, "\(place)")
            #expect(try sample.state(name) == before, "\(place): a refused open changed the log")
            #expect(!report.problems.isEmpty, "\(place): the writer refused a log that verify passed")
            return .reported
        }
        let after = try sample.state(name)
        if after == before {
            if report.problems.isEmpty {
                if environment["STINT_BIT_FLIP_DEBUG"] != nil { print("harmless: \(place)") }
                return .harmless
            }
            // Damage the writer does not read (a sealed segment before the last two): readers and verify see it.
            #expect(!isLastFrame, "\(place): the last frame was damaged but the writer did not repair it")
            return .reported
        }
        // The writer changed the log: only a torn-tail repair of the very last frame is allowed.
        #expect(isLastFrame, "\(place): the writer repaired damage that is not in the last frame")
        let repaired = try sample.fixture.bytes(of: name)
        #expect(repaired == Array(sample.files[name]![..<sample.lastFrameOffset]), "\(place)")
        #expect(
            try sample.fixture.bytes(of: "\(name).torn-\(sample.lastFrameOffset)")
                == Array(bytes[sample.lastFrameOffset...]), "\(place): the torn bytes were not kept")
        let (kept, keptWarning) = try sample.fixture.readAll()
        #expect(keptWarning == nil)
        #expect(kept == Array(sample.events.prefix(kept.count)) && kept.count < sample.events.count, "\(place)")
        #expect(try sample.fixture.reader().verify().isIntact, "\(place)")
        return .tornTailRepaired
    }

    @Test func everyBitOfASmallLogIsReportedRepairedOrHarmless() throws {
        let sample = try Sample(batches: 5, sealThreshold: 700, sealedFrameTarget: 300)
        #expect(sample.segments.count == 2)
        var outcomes: [Outcome: Int] = [:]
        let positions = sample.positions
        for index in Swift.stride(from: 0, to: positions.count, by: Self.stride) {
            let (name, byte, bit) = positions[index]
            outcomes[try Self.flip(sample, name, byte, bit), default: 0] += 1
        }
        print(
            "bit flips, small log (\(positions.count) bits, every \(Self.stride == 1 ? "one" : "\(Self.stride)th")): "
                + Self.describe(outcomes))
        #expect(outcomes[.reported, default: 0] > outcomes[.harmless, default: 0])
    }

    @Test func sampledBitsOfALargerLogAreReportedRepairedOrHarmless() throws {
        let sample = try Sample(batches: Self.largerBatches, sealThreshold: 3000, sealedFrameTarget: 1024)
        #expect(sample.segments.count >= 5)
        var positions = sample.positions
        #expect(
            Self.sampledFlips <= positions.count,
            "asked for more distinct bits than the \(positions.count) of the log; raise STINT_BIT_FLIP_BATCHES")
        // A partial Fisher–Yates shuffle: the first `flips` positions become a sample without repetition.
        let flips = min(Self.sampledFlips, positions.count)
        var generator = SplitMix64(seed: Self.seed)
        var outcomes: [Outcome: Int] = [:]
        for index in 0..<flips {
            positions.swapAt(index, Int.random(in: index..<positions.count, using: &generator))
            let (name, byte, bit) = positions[index]
            outcomes[try Self.flip(sample, name, byte, bit), default: 0] += 1
        }
        print(
            "bit flips, larger log (\(positions.count) bits in \(sample.segments.count) segments, \(flips) distinct "
                + "bits sampled with seed \(Self.seed)): " + Self.describe(outcomes))
    }

    static func describe(_ outcomes: [Outcome: Int]) -> String {
        "\(outcomes[.reported, default: 0]) reported by verify with segment, offset and seq, "
            + "\(outcomes[.tornTailRepaired, default: 0]) repaired as a torn tail of the last frame, "
            + "\(outcomes[.harmless, default: 0]) harmless (events unchanged, e.g. the ignored bits of a zstd header)"
    }
}
