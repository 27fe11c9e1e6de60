extension HLC {
    /// The envelope's form, `[ms,counter]`.
    public var json: JSON { .array([.int(milliseconds), .int(Int64(counter))]) }

    /// Reads the envelope's form, `[ms,counter]`, strictly.
    ///
    /// The value must be an array of exactly two integers, `ms` in 0…``maximumMilliseconds`` and `counter`
    /// in 0…2³² − 1. (`JSON`'s parser reads `1.0` and `1E3` as integers; a line holding them is still refused
    /// by verification, which requires canonical bytes.)
    ///
    /// - Throws: ``SyncError`` with ``SyncError/Code/hlcNotAnArray``, ``SyncError/Code/hlcArity``,
    ///   ``SyncError/Code/hlcNotAnInteger``, ``SyncError/Code/hlcNegative`` or ``SyncError/Code/hlcOutOfRange``.
    public init(json: JSON) throws(SyncError) {
        guard case .array(let elements) = json else {
            throw SyncError(.hlcNotAnArray, "\"hlc\" must be an array [milliseconds, counter]")
        }
        guard elements.count == 2 else {
            throw SyncError(
                .hlcArity, "\"hlc\" must hold exactly two integers [milliseconds, counter], not \(elements.count)")
        }
        guard case .int(let milliseconds) = elements[0], case .int(let counter) = elements[1] else {
            throw SyncError(.hlcNotAnInteger, "\"hlc\" must hold two integers [milliseconds, counter]")
        }
        guard milliseconds >= 0, counter >= 0 else {
            throw SyncError(.hlcNegative, "\"hlc\" must not hold a negative number")
        }
        guard counter <= Int64(UInt32.max), let reading = HLC(milliseconds: milliseconds, counter: UInt32(counter))
        else {
            throw SyncError(
                .hlcOutOfRange,
                "\"hlc\" must have milliseconds up to \(HLC.maximumMilliseconds) (the end of year 9999) and a "
                    + "counter up to \(UInt32.max)")
        }
        self = reading
    }
}
