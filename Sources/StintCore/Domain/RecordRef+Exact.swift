extension RecordRef {
    /// The id this reference names when it has all 32 digits, so that a lookup by id can replace a scan.
    ///
    /// A full reference matches exactly one id (``matches(_:)`` compares every digit), so looking it up in
    /// a dictionary or set gives the same answer as filtering all ids with ``matches(_:)``.
    var exactID: EntityID? {
        guard nibbles.count == 32 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<16 { high = high << 4 | UInt64(nibbles[index]) }
        for index in 16..<32 { low = low << 4 | UInt64(nibbles[index]) }
        return EntityID(high: high, low: low)
    }
}
