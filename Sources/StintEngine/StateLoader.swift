import StintCore
@_spi(FaultInjection) import StintLog

/// Folds a log's events into a ``LogState`` up to a point, starting from the newest usable checkpoint,
/// and leaves a new checkpoint behind when it had to fold far.
struct StateLoader {
    let reader: LogReader
    let options: EngineOptions
    /// The log's checkpoint store, and its store of projection checkpoints (``ProjectionView``); nil for
    /// sources that are not log directories.
    let checkpoints: CheckpointStore?
    let projections: CheckpointStore?

    init(reader: LogReader, options: EngineOptions) {
        self.reader = reader
        self.options = options
        (checkpoints, projections) = CheckpointStore.stores(of: reader)
    }

    /// What a fold produced.
    struct Folded {
        /// nil when no event was folded (an empty log, or a point before its first event).
        var state: LogState?
        /// The last event folded after the checkpoint (nil when the point is the checkpoint itself; the
        /// state's `lastSeq` and `lastAt` always describe the point).
        var lastEvent: RecordedEvent?
        /// Why reading stopped early (damage), if it did.
        var warning: LogProblem?
        /// How many events were folded after the checkpoint (or from the start).
        var foldedCount: Int64
        /// The `seq` of the checkpoint the fold started from, if any.
        var checkpointSeq: Int64?
    }

    /// Folds the events up to `point` (`.latest` folds everything).
    func load(upTo point: ReadPoint) throws(StintError) -> Folded {
        let seqLimit: Int64? = if case .seq(let n) = point { n } else { nil }
        let atLimit: Instant? = if case .at(let instant) = point { instant } else { nil }
        var start: CheckpointedFold<LogState>.Start?
        if let checkpoints,
            let found = checkpoints.newestUnverified(
                atOrBefore: seqLimit ?? .max, recordedAtOrBefore: atLimit,
                version: LogState.compactCheckpointVersion)
        {
            if let restored = found.payload.withUnsafeBytes({ try? LogState(compactCheckpoint: $0) }),
                restored.lastSeq == found.header.head.seq
            {
                start = .init(state: restored, head: found.header.head)
            } else {
                checkpoints.remove(seq: found.header.head.seq)
            }
        }
        let spacing = max(1, options.checkpointSpacing)
        var nextMilestone = ((start?.state.lastSeq ?? 0) / spacing + 1) * spacing
        let projectionSpacing = max(1, options.projectionCheckpointSpacing)
        var nextProjectionMilestone = ((start?.state.lastSeq ?? 0) / projectionSpacing + 1) * projectionSpacing
        var savedProjections: Set<Int64>?
        let outcome = try CheckpointedFold<LogState>(reader: reader).run(
            from: start, genesis: LogState.init(genesis:), upTo: point
        ) { state, last in
            // A long fold leaves checkpoints along the way, so that later reads of earlier points of the
            // history (--at, --seq) find one close by.
            if state.lastSeq >= nextMilestone {
                nextMilestone = (state.lastSeq / spacing + 1) * spacing
                if state.lastSeq != seqLimit { save(state, at: last) }
            }
            // And projection checkpoints, closer together, for the widget projections' reads.
            if state.lastSeq >= nextProjectionMilestone {
                nextProjectionMilestone = (state.lastSeq / projectionSpacing + 1) * projectionSpacing
                if let projections, options.writesCheckpoints {
                    if savedProjections == nil { savedProjections = Set(projections.seqs()) }
                    if savedProjections!.insert(state.lastSeq).inserted {
                        ProjectionState(state).save(to: projections, at: last)
                    }
                }
            }
        }
        guard case .folded(let state, let lastEvent, let folded, let warning) = outcome else {
            // The checkpoint is not of this log: drop it and fold again without it.
            if let start { checkpoints?.remove(seq: start.head.seq) }
            return try load(upTo: point)
        }
        // The state at the end of the log is worth keeping after a long fold; a past point (--at, --seq) is
        // rarely read again, and the checkpoints along the way already serve the reads around it.
        if point == .latest, folded >= options.checkpointInterval, let state, let lastEvent {
            save(state, at: lastEvent)
        }
        return Folded(
            state: state, lastEvent: lastEvent, warning: warning, foldedCount: folded,
            checkpointSeq: start?.state.lastSeq)
    }

    /// Saves `state` as the checkpoint after `event` (its last event), when this log keeps checkpoints.
    private func save(_ state: LogState, at event: RecordedEvent) {
        guard let checkpoints, options.writesCheckpoints, checkpoints.seqs().last != event.seq else { return }
        checkpoints.save(
            state.compactCheckpoint, head: LogHead(of: event), at: event.at,
            version: LogState.compactCheckpointVersion)
    }
}
