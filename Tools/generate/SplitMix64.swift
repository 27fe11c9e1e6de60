import Glibc

/// A seeded generator (SplitMix64): the same seed always gives the same history.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    /// An index drawn from Zipf-like weights 1/(i+1)^s, so that a few items are used far more than others.
    mutating func zipf(_ count: Int, exponent: Double = 1.1) -> Int {
        var total = 0.0
        for index in 0..<count { total += 1 / pow(Double(index + 1), exponent) }
        var pick = Double.random(in: 0..<total, using: &self)
        for index in 0..<count {
            pick -= 1 / pow(Double(index + 1), exponent)
            if pick < 0 { return index }
        }
        return count - 1
    }
}
