import Foundation
import Testing

@testable import StintCore

@Suite struct CompactCheckpointTests {
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0xC0DE_C4EC, UInt64.random(in: 0...UInt64.max)]
    }

    /// Folds a small history with tags, running and completed records, an archive and an undo.
    func history() throws -> LogState {
        var log = TestLog(zone: "Europe/Berlin", now: "2026-11-23T08:00:00.000Z")
        let hour: Int64 = 3_600_000
        func run(_ command: Command) throws {
            try log.run(command)
            log.now = log.now.adding(milliseconds: hour)
        }
        try run(.start(tag: .name("write"), comment: "chapter 1"))
        try run(.stop())
        try run(.addTag(name: "email", color: "#FF0000"))
        try run(.start(tag: .name("email")))
        try run(
            .track(
                start: ParsedTime(log.now.adding(milliseconds: -2 * hour)), end: ParsedTime(log.now), tag: .name("x")))
        try run(.archiveTag(name: "x"))
        try run(.undo)
        return log.state
    }

    func restore(_ bytes: [UInt8]) throws(DomainError) -> LogState {
        var result: Result<LogState, DomainError> = .failure(DomainError(.invalidCheckpoint, "not read"))
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(DomainError) in try LogState(compactCheckpoint: raw) }
        }
        return try result.get()
    }

    /// The checkpoints' sort by id gives the order a plain sort gives: random ids (spread over its runs),
    /// ids that share their first bits (one run), and a mix, around the size where it starts spreading.
    @Test(arguments: [0, 1, 4096, 4097, 60_000])
    func entriesSortByIDAsAPlainSortDoes(count: Int) {
        var random = SplitMix64(seed: 0x50_27ED + UInt64(count))
        let shapes: [(Int) -> EntityID] = [
            { _ in EntityID(randomBits: random.next(), random.next()) },
            { index in EntityID(high: 0x0123_0000_0000_0000, low: UInt64(count - index)) },
            { index in
                index % 3 == 0
                    ? EntityID(high: 0xFFFF_0000_0000_0000 | random.next() >> 40, low: random.next())
                    : EntityID(randomBits: random.next(), random.next())
            },
        ]
        for shape in shapes {
            var entries = (0..<count).map { (id: shape($0), position: Int32($0)) }
            let expected = entries.sorted { $0.id < $1.id }
            LogState.sortByID(&entries)
            let same = entries.elementsEqual(expected) { $0.id == $1.id && $0.position == $1.position }
            #expect(same, "sorted as a plain sort does")
        }
    }

    @Test func aStateRoundTripsThroughItsCompactCheckpoint() throws {
        let state = try history()
        let bytes = state.compactCheckpoint
        let restored = try restore(bytes)
        #expect(restored == state)
        #expect(restored.compactCheckpoint == bytes)
    }

    /// States at many batch boundaries of random histories (tags archived and deleted, running timers,
    /// comments with escapes, undo and redo stacks) survive the round trip, and folding on from a restored
    /// state gives the same result as folding on from the original.
    @Test(arguments: seeds)
    func randomStatesRoundTripAndFoldOnIdentically(seed: UInt64) throws {
        print("CompactCheckpointTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var run = RandomRun(seed: seed)
        try run.go(commands: 400)
        var random = SplitMix64(seed: seed ^ 0xC4EC)
        for _ in 0..<20 {
            let boundary = run.boundaries.randomElement(using: &random)!
            let state = try #require(run.statesAtBoundaries[boundary])
            var restored = try restore(state.compactCheckpoint)
            #expect(restored == state, "seed \(seed), prefix \(boundary)")
            for event in run.log.events[boundary...] { try restored.apply(event) }
            #expect(restored == run.log.state, "seed \(seed), prefix \(boundary)")
        }
    }

    @Test func importProvenanceRoundTrips() throws {
        var log = ImportPlans.log()
        try log.importing(try ImportPlans.watson(), from: .watson)
        try log.importing(try ImportPlans.timewarrior(), from: .timewarrior)
        try log.run(.renameTag(name: "clientA", newName: "Client A"))
        let restored = try restore(log.state.compactCheckpoint)
        #expect(restored == log.state)
        #expect(!restored.importProvenance.isEmpty)
        // The lines of an import log decode the same through the fast path and the general decoder.
        for event in log.events { CanonicalLineDecoderTests.compare(event.encodedLine(), "import seq \(event.seq)") }
    }

    @Test func truncatedOrDamagedCheckpointsAreRefused() throws {
        let bytes = try history().compactCheckpoint
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: DomainError.self) { try restore(Array(bytes.prefix(length))) }
        }
        var otherVersion = bytes
        otherVersion[4] &+= 1
        #expect(throws: DomainError.self) { try restore(otherVersion) }
        #expect(throws: DomainError.self) { try restore(bytes + [0]) }
        let error = domainError { () throws(DomainError) in _ = try restore([]) }
        #expect(error?.code == .invalidCheckpoint)
    }
}
