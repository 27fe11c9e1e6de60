extension ProjectionState {
    /// The projection state of the state `fold` holds, cut at its horizon: what ``init(_:)`` makes of its
    /// ``CompactFold/logState``, without building the whole state (one pass over the start and end
    /// columns). With `now` before the fold's last event (a clock behind the log), it is cut at the horizon
    /// of `now` instead, which keeps the older records the projections at `now` read.
    public init(_ fold: CompactFold, now: Instant? = nil) {
        let horizon = ProjectionState.horizon(
            at: min(now ?? fold.lastAt, fold.lastAt), calendar: fold.settings.calendar)
        let cut = horizon.milliseconds
        var records: [EntityID: Record] = [:]
        for index in fold.statuses.indices where fold.statuses[index] == .live {
            guard fold.ends[index] == CompactFold.noEnd || fold.starts[index] >= cut else { continue }
            let record = fold.record(Int32(index))
            records[record.id] = record
        }
        self.init(
            settings: fold.settings, tags: Dictionary(uniqueKeysWithValues: fold.tags.map { ($0.id, $0) }),
            records: records, recentTagIds: fold.recentTagIds, horizon: horizon, lastSeq: fold.lastSeq,
            lastAt: fold.lastAt, resumedAfterRepair: fold.resumedAfterRepair)
    }
}
