import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Single-bit flips over a log's bytes. No flip may change the events a reader hands out, and no write after a
/// flip may be acknowledged where a cold read cannot reach it (issue 27, docs/decisions/0008): each flip is
/// either reported by `verify` with its segment, offset and seq and refused by the next writer (readers stop
/// before it, the log is left byte for byte) — in the very last frame too, since a writer acknowledged it — or
/// harmless (a bit the zstd format ignores, so that every event still decodes to the same bytes). When the writer opens, it appends a batch, and a new reader and `verify` must then read every event
/// up to and including that batch.
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
    enum Outcome: Hashable, CaseIterable {
        /// Reported by verify, refused by the next write (nothing changed), then salvaged by repair, which kept
        /// the events after the damaged frame after its gap (a known head, the `checked` file's, vouched).
        case keptAfterGap
        /// Reported by verify, refused by the next write (nothing changed), then salvaged by repair, which kept
        /// only the events before the damage.
        case reported
        /// Reported and refused; the repair lost no event, only sealed a segment again (a flip in a seal frame: the
        /// events after it follow the ones before).
        case resealed
        /// Reported and refused, and repair refused too: the first event is damaged (nothing changed).
        case reportedNothingKept
        case harmless
    }

    /// Where a flipped bit lies, for the damage table of docs/reliability.md.
    enum Region: String, CaseIterable {
        case firstFrame = "the first frame (`log.created`)"
        case sealed = "a sealed segment"
        case active = "the active segment, before its last frame"
        case lastFrame = "the last frame of the active segment"
    }

    /// A log on disk, its files' bytes, and its events.
    struct Sample {
        let fixture: LogFixture
        let files: [String: [UInt8]]
        let events: [RecordedEvent]
        /// The segment file names, in order.
        let segments: [String]
        /// The offset of the last frame of the last segment.
        let lastFrameOffset: Int
        /// Where the first frame of the first segment ends.
        let firstFrameEnd: Int

        init(batches: Int, sealThreshold: Int64, sealedFrameTarget: Int) throws {
            fixture = LogFixture(sealThreshold: sealThreshold, sealedFrameTarget: sealedFrameTarget)
            events = try fixture.populate(batches: batches, sizes: { $0 % 5 == 3 ? 3 : 1 })
            // A second writer's open checks the sealed segments the first one wrote and remembers them as
            // settled, as a user's log is after its first commands.
            try fixture.open().close()
            files = try fixture.snapshot()
            segments = try fixture.segmentNames()
            let last = SegmentSurgery.frames(files[segments.last!]!)
            lastFrameOffset = last.last!.offset
            let first = SegmentSurgery.frames(files[segments[0]]!)[0]
            firstFrameEnd = first.offset + first.bytes.count
        }

        func region(_ name: String, _ byte: Int) -> Region {
            if name == segments[0] && byte < firstFrameEnd { return .firstFrame }
            if name != segments.last { return .sealed }
            return byte >= lastFrameOffset ? .lastFrame : .active
        }

        /// Every bit position as (file, byte, bit), segments only (the format file has its own check).
        var positions: [(String, Int, UInt8)] {
            segments.flatMap { name in
                (0..<files[name]!.count).flatMap { byte in (0..<8).map { (name, byte, UInt8($0)) } }
            }
        }

        /// Puts back every file as it was and removes what a writer added.
        func restore() throws {
            try fixture.restore(files)
        }
    }

    /// Flips one bit and checks the reader, `verify`, the next writer and a cold read of what it appended;
    /// restores the log afterwards.
    static func flip(_ sample: Sample, _ name: String, _ byte: Int, _ bit: UInt8) throws -> Outcome {
        var bytes = sample.files[name]!
        bytes[byte] ^= 1 << bit
        try sample.fixture.write(bytes, to: name)
        defer { try? sample.restore() }
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

        let before = try sample.fixture.snapshot()
        let writer: LogWriter
        do {
            writer = try sample.fixture.open()
        } catch let opened as LogError {
            #expect(opened.code == .damaged, "\(place): \(opened.message)")
            #expect(opened.location?.segment != nil, "\(place)")
            #expect(try sample.fixture.snapshot() == before, "\(place): a refused open changed the log")
            #expect(!report.problems.isEmpty, "\(place): the writer refused a log that verify passed")
            return try expectRepair(sample, place: place, kept: read)
        }
        // The writer opened: what it appends must be read by a cold read and by verify.
        let repaired = try sample.fixture.bytes(of: name) != bytes
        let appended: [RecordedEvent]
        do {
            defer { writer.close() }
            appended = try writer.append([LogFixture.draft(9_999)])
        }
        let (cold, coldWarning) = try sample.fixture.readAll()
        #expect(coldWarning == nil, "\(place): the writer appended after damage a cold read stops at: \(coldWarning!)")
        #expect(Array(cold.suffix(appended.count)) == appended, "\(place): a cold read misses the acknowledged batch")
        let kept = Array(cold.dropLast(appended.count))
        #expect(kept == Array(sample.events.prefix(kept.count)), "\(place)")
        #expect(try sample.fixture.reader().verify().isIntact, "\(place): verify fails after an acknowledged write")
        if !repaired {
            #expect(report.problems.isEmpty, "\(place): the writer appended after damage that verify reports")
            #expect(kept == sample.events, "\(place)")
            if environment["STINT_BIT_FLIP_DEBUG"] != nil { print("harmless: \(place)") }
            return .harmless
        }
        // The writer changed the log. Every byte of it was acknowledged (the `checked` file says so), so even a
        // bad last frame is damage to refuse, not a torn append to set aside (docs/log-format.md §5.4).
        let region = isLastFrame ? "in the last frame" : "not even in the last frame"
        Issue.record("\(place): the writer set acknowledged bytes aside as a torn tail (\(region))")
        return .harmless
    }

    /// `stint repair`'s salvage of a refused log: it keeps exactly what a reader read — and, after its gap, the
    /// events after the damaged frame when the `checked` file's heads vouch for them — sets every original byte
    /// aside, records the loss, and leaves a log that the next writer appends to and a cold read and `verify`
    /// read whole; or, when the first event is damaged, refuses and changes nothing.
    static func expectRepair(_ sample: Sample, place: String, kept: [RecordedEvent]) throws -> Outcome {
        let before = try sample.fixture.snapshot()
        let result = Result { () throws(LogError) in
            try LogWriter.openRepairing(
                at: sample.fixture.path, configuration: sample.fixture.configuration, keepsAfterGap: true)
        }
        guard case .success(let opened) = result else {
            let message = (try? result.get()).map { _ in "" } ?? "\(result)"
            #expect(kept.isEmpty, "\(place): repair refused: \(message)")
            #expect(try sample.fixture.snapshot() == before, "\(place): a refused repair changed the log")
            return .reportedNothingKept
        }
        let repair = try #require(opened.repair, "\(place): a refused log was opened without a repair")
        // Events are lost from where the reader stopped, unless the events after it follow it (a seal between).
        if repair.lostEvents { #expect(repair.firstLostSeq == Int64(kept.count) + 1, "\(place): \(repair)") }
        for aside in repair.setAside {
            let original = String(aside.prefix { $0 != "." }) + ".jsonl.zst"
            #expect(try sample.fixture.bytes(of: aside) == before[original], "\(place): \(aside) is not \(original)")
        }
        if let resume = repair.resume {
            #expect(repair.lastLostSeq == resume.seq - 1, "\(place): \(repair)")
            #expect(resume.link == sample.events[Int(resume.seq - 1)].prev, "\(place): \(repair)")
        }
        let appended: [RecordedEvent]
        do {
            defer { opened.writer.close() }
            _ = try opened.writer.record(repair)
            appended = try opened.writer.append([LogFixture.draft(8_888)])
        }
        let (cold, warning) = try sample.fixture.readAll()
        #expect(warning == nil, "\(place): after repair: \(warning!)")
        let record = repair.lostEvents ? Array(cold.dropFirst(kept.count).prefix(1)) : []
        #expect(record.first.map { $0.type == "log.repaired" && $0.resumePoint == repair.resume } ?? true, "\(place)")
        let after =
            repair.lostEvents
            ? repair.resume.map { Array(sample.events[Int($0.seq - 1)...]) } ?? []
            : Array(sample.events[kept.count...])
        #expect(
            cold == kept + record + after + appended,
            "\(place): after repair, the log is not what was kept, the record, the events after the gap and the append")
        #expect(try sample.fixture.reader().verify().isIntact, "\(place): verify fails after repair")
        return repair.resume != nil ? .keptAfterGap : repair.lostEvents ? .reported : .resealed
    }

    @Test func everyBitOfASmallLogIsReportedRepairedOrHarmless() throws {
        let sample = try Sample(batches: 5, sealThreshold: 700, sealedFrameTarget: 300)
        #expect(sample.segments.count == 2)
        var outcomes: [Region: [Outcome: Int]] = [:]
        let positions = sample.positions
        for index in Swift.stride(from: 0, to: positions.count, by: Self.stride) {
            let (name, byte, bit) = positions[index]
            outcomes[sample.region(name, byte), default: [:]][try Self.flip(sample, name, byte, bit), default: 0] += 1
        }
        print(
            "bit flips, small log (\(positions.count) bits, every \(Self.stride == 1 ? "one" : "\(Self.stride)th")):\n"
                + Self.table(outcomes))
        let total = outcomes.values.reduce(into: [Outcome: Int]()) { $0.merge($1, uniquingKeysWith: +) }
        #expect(total[.keptAfterGap, default: 0] + total[.reported, default: 0] > total[.harmless, default: 0])
        #expect(outcomes[.firstFrame]?[.reported] == nil, "a flip in the first event was salvaged")
        // With the `checked` file's heads, a damaged frame before the last one costs only its own events.
        #expect(
            outcomes[.sealed, default: [:]][.keptAfterGap, default: 0]
                > 9 * outcomes[.sealed, default: [:]][.reported, default: 0], "\(outcomes[.sealed, default: [:]])")
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
        var outcomes: [Region: [Outcome: Int]] = [:]
        for index in 0..<flips {
            positions.swapAt(index, Int.random(in: index..<positions.count, using: &generator))
            let (name, byte, bit) = positions[index]
            outcomes[sample.region(name, byte), default: [:]][try Self.flip(sample, name, byte, bit), default: 0] += 1
        }
        print(
            "bit flips, larger log (\(positions.count) bits in \(sample.segments.count) segments, \(flips) distinct "
                + "bits sampled with seed \(Self.seed)):\n" + Self.table(outcomes))
    }

    /// The damage table: for each region, how many flips had each outcome (docs/reliability.md).
    static func table(_ outcomes: [Region: [Outcome: Int]]) -> String {
        var lines = [
            "| where the flip is | flips | refused by the next write, salvaged keeping the events after the gap | "
                + "refused, salvaged by a cut | refused, resealed (no event lost) | refused, repair refused (first "
                + "event) | harmless |",
            "|---|---|---|---|---|---|---|",
        ]
        for region in Region.allCases {
            let counts = outcomes[region, default: [:]]
            let cells = Outcome.allCases.map { "\(counts[$0, default: 0])" }
            lines.append(
                "| \(region.rawValue) | \(counts.values.reduce(0, +)) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
