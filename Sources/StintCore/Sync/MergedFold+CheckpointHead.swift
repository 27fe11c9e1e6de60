extension MergedFold {
    /// What a read at the head takes of a merged checkpoint's frame (a replica's read models keep one): the
    /// state's part (settings, tags, recent tags, the last event's instant) and the tags' name order, read
    /// without the devices, the stamps, the bookkeeping and the undo stacks that follow, which only a fold
    /// that goes on needs. Its ``LogState/withDisplayNames()`` shows tags as ``state`` does. Records in the
    /// state's part are skipped: a frame holds none.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) as ``init(checkpoint:)`` for the part it reads.
    public static func headState(checkpoint bytes: UnsafeRawBufferPointer) throws(DomainError) -> LogState {
        func fail(_ what: String) -> DomainError {
            DomainError(.invalidCheckpoint, "the merged checkpoint's \(what) is not readable; it will be rebuilt")
        }
        var input = CompactCheckpointReader(bytes)
        try input.header(magic: checkpointMagic, version: checkpointVersion, what: "the merged checkpoint")
        guard let stateSize = input.u32(), stateSize <= input.remaining else { throw fail("state") }
        let stateStart = input.consumed
        var state = try LogState(reading: &input, recordCount: { _ in }, record: { _ in true })
        guard input.consumed - stateStart == stateSize else { throw fail("state") }
        state.deletedRecordIds = []
        state.runningRecordIds = []
        guard let orderCount = input.count(minimumSize: 24) else { throw fail("tag name order") }
        for _ in 0..<orderCount {
            guard let id = input.id(), let order = input.i64() else { throw fail("tag name order") }
            state.tagNameOrder[id] = order
        }
        return state
    }
}
