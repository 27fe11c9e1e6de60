import Glibc
import StintCore

/// The draws the history simulator makes besides `SplitMix64`'s uniform ones.
extension SplitMix64 {
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
