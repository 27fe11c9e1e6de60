extension MergedFold {
    /// What a read at the head takes of a merged checkpoint's frame (a replica's read models keep one): the
    /// state's part (settings, tags, recent tags, the last event's instant) and the tags' name order, read
    /// without the devices, the stamps, the bookkeeping and the undo stacks that follow, which only a fold
    /// that goes on needs. Its ``LogState/withDisplayNames()`` shows tags as ``state`` does. Records in the
    /// state's part are skipped: a frame holds none.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) as ``init(checkpoint:)`` for the part it reads.
    public static func headState(checkpoint bytes: UnsafeRawBufferPointer) throws(DomainError) -> LogState {
        var input = CompactCheckpointReader(bytes)
        var state = try readStatePart(&input) { (input) throws(DomainError) in
            try LogState(reading: &input, recordCount: { _ in }, record: { _ in true })
        }
        state.deletedRecordIds = []
        state.runningRecordIds = []
        try readTagNameOrder(&input, into: &state)
        return state
    }

    /// Reads the layout's start: the signature and version, then the state's compact checkpoint behind its length
    /// prefix, which `state` reads and must read whole.
    static func readStatePart(
        _ input: inout CompactCheckpointReader, _ state: (inout CompactCheckpointReader) throws(DomainError) -> LogState
    ) throws(DomainError) -> LogState {
        try input.header(magic: checkpointMagic, version: checkpointVersion, what: "the merged checkpoint")
        guard let stateSize = input.u32(), stateSize <= input.remaining else { throw unreadablePart("state") }
        let stateStart = input.consumed
        let read = try state(&input)
        guard input.consumed - stateStart == stateSize else { throw unreadablePart("state") }
        return read
    }

    /// Reads the tags' name order, which follows the state's part, into `state`.
    static func readTagNameOrder(_ input: inout CompactCheckpointReader, into state: inout LogState)
        throws(DomainError)
    {
        guard let orderCount = input.count(minimumSize: 24) else { throw unreadablePart("tag name order") }
        for _ in 0..<orderCount {
            guard let id = input.id(), let order = input.i64() else { throw unreadablePart("tag name order") }
            state.tagNameOrder[id] = order
        }
    }

    /// The error of a part of a merged checkpoint that does not read.
    static func unreadablePart(_ what: String) -> DomainError {
        DomainError(.invalidCheckpoint, "the merged checkpoint's \(what) is not readable; it will be rebuilt")
    }
}
