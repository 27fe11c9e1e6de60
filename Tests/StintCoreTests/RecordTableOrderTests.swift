import Testing

@testable import StintCore

/// ``MergedFold/RecordTable/numbersInIdOrder()`` gives the numbers in the order of their ids, as sorting the
/// ids does: below the size where it spreads them into runs, above it with random ids, and with ids that
/// share their first 16 or 48 bits (the bits it sorts by before it looks at the whole ids).
@Suite struct RecordTableOrderTests {
    static func order(of ids: [EntityID]) -> [Int32] {
        var table = MergedFold.RecordTable()
        for id in ids { _ = table.add(id, stamps: MergedFold.RecordStamps()) }
        return table.numbersInIdOrder()
    }

    static func expected(_ ids: [EntityID]) -> [Int32] {
        ids.indices.sorted { ids[$0] < ids[$1] }.map { Int32($0) }
    }

    @Test(arguments: [100, 4_096, 4_097, 30_000])
    func randomIds(count: Int) {
        var random = SplitMix64(seed: 0x0D_0001 &+ UInt64(count))
        let ids = (0..<count).map { _ in EntityID(high: random.next(), low: random.next()) }
        #expect(Self.order(of: ids) == Self.expected(ids))
    }

    @Test func idsThatShareTheirFirstBits() {
        var random = SplitMix64(seed: 0x0D_0002)
        var ids: [EntityID] = []
        for _ in 0..<3_000 {
            // Counters: the same first 48 bits, told apart by the low half or the last 16 bits of the high.
            ids.append(EntityID(high: 0xABCD_0000_1234_0000 | random.next() % 8, low: random.next() % 64))
            // The same first 16 bits, the rest random.
            ids.append(EntityID(high: 0x0042 << 48 | random.next() >> 16, low: random.next()))
            ids.append(EntityID(high: random.next(), low: random.next()))
        }
        var seen: Set<EntityID> = []
        ids = ids.filter { seen.insert($0).inserted }
        #expect(ids.count > 4_096)
        #expect(Self.order(of: ids) == Self.expected(ids))
    }
}
