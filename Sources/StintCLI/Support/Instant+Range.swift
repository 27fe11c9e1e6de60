import StintCore

extension Instant {
    /// An instant later than any a log holds.
    static let distantFuture = Instant(milliseconds: Int64.max / 2)
}
