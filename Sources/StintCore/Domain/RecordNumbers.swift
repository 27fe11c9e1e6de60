/// Dense numbers for entity ids: an open-addressing hash table (linear probing, no removals) of numbers into
/// an array of ids that the caller keeps.
///
/// Four bytes a slot instead of a dictionary's key, value and metadata (a million records: 8 MiB instead
/// of about 40), and a lookup is one hash and, in the common case, one comparison of two 64-bit halves.
struct RecordNumbers: Sendable {
    /// Record numbers, or -1 for an empty slot; the count is a power of two at least twice the numbers held.
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// The most numbers a table is sized for up front. Capacities come from a log's last `seq`, which a damaged
    /// or crafted seal index or segment name can make absurd (a forged seal's `lastSeq` of 2^62 made every cold
    /// read and `verify` abort, asking for 32 GiB); a longer log grows its table as it goes.
    static let largestReservation = 1 << 22

    /// A table sized for `capacity` numbers without growing (at most ``largestReservation``).
    init(capacity: Int) {
        let capacity = min(max(0, capacity), Self.largestReservation)
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
    }

    @inline(__always) private static func hash(_ id: EntityID) -> Int {
        // SplitMix64's finalizer over both halves: ids from a counter spread as well as random ones.
        var z = id.high &+ id.low &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// The number of `id`, where `ids` holds the id of every number.
    @inline(__always) func find(_ id: EntityID, in ids: [EntityID]) -> Int32? {
        var slot = Self.hash(id) & mask
        while true {
            let number = slots[slot]
            if number < 0 { return nil }
            if ids[Int(number)] == id { return number }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `number` for `id`, which must not be in the table; `ids[number]` must already be `id`.
    mutating func insert(_ id: EntityID, number: Int32, in ids: [EntityID]) {
        if (count + 1) * 2 > slots.count { grow(ids) }
        var slot = Self.hash(id) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = number
        count += 1
    }

    private mutating func grow(_ ids: [EntityID]) {
        let old = slots
        slots = Array(repeating: -1, count: old.count * 2)
        mask = slots.count - 1
        for number in old where number >= 0 {
            var slot = Self.hash(ids[Int(number)]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = number
        }
    }
}
