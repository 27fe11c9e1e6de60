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
    func load(upTo point: ResolvedPoint) throws(StintError) -> Folded {
        let seqLimit = point.seqLimit
        let start = newestCheckpoint(upTo: point)
        if start == nil, options.foldsCompactly, let compact = try loadCompactly(upTo: point) {
            return Folded(
                state: compact.fold?.logState, lastEvent: compact.lastEvent, warning: compact.warning,
                foldedCount: compact.foldedCount, checkpointSeq: nil)
        }
        var milestones = Milestones(after: start?.state.lastSeq ?? 0, options: options)
        let outcome = try CheckpointedFold<LogState>(reader: reader).run(
            from: start, genesis: LogState.init(genesis:), upTo: point
        ) { seq, state, last in
            let due = milestones.passed(seq)
            if due.state && seq != seqLimit { save(state().compactCheckpoint, at: last) }
            if due.projection { milestones.saveProjection(ProjectionState(state()), at: last, in: projections) }
        }
        guard case .folded(let state, let lastEvent, let folded, let warning) = outcome else {
            // The checkpoint is not of this log: drop it and fold again without it.
            if let start { checkpoints?.remove(seq: start.head.seq) }
            return try load(upTo: point)
        }
        // The state at the end of the log is worth keeping after a long fold; a past point (--at, --seq) is
        // rarely read again, and the checkpoints along the way already serve the reads around it.
        if point.isLatest, folded >= options.checkpointInterval, let state, let lastEvent {
            save(state.compactCheckpoint, at: lastEvent)
        }
        return Folded(
            state: state, lastEvent: lastEvent, warning: warning, foldedCount: folded,
            checkpointSeq: start?.state.lastSeq)
    }

    /// The newest usable state checkpoint at or before `point`, restored; nil when there is none (an
    /// unreadable one is removed).
    func newestCheckpoint(upTo point: ResolvedPoint) -> CheckpointedFold<LogState>.Start? {
        let seqLimit = point.seqLimit
        let atLimit = point.instantLimit
        guard let checkpoints,
            let found = checkpoints.newestUnverified(
                atOrBefore: seqLimit ?? .max, recordedAtOrBefore: atLimit,
                version: LogState.compactCheckpointVersion)
        else { return nil }
        if let restored = found.payload.withUnsafeBytes({ try? LogState(compactCheckpoint: $0) }),
            restored.lastSeq == found.header.head.seq
        {
            return .init(state: restored, head: found.header.head)
        }
        checkpoints.remove(seq: found.header.head.seq)
        return nil
    }

    /// Whether a state checkpoint may serve a read of `point`, from the checkpoint files' names alone (no
    /// file is read): a read that would start from one is better served by ``load(upTo:)``. A wrong guess
    /// (a torn file, or for `--at` one recorded after the point) costs time, never a wrong result.
    func mayStartFromCheckpoint(upTo point: ResolvedPoint) -> Bool {
        let seqLimit = point.seqLimit ?? .max
        return checkpoints?.seqs().contains { $0 <= seqLimit } ?? false
    }

    /// Saves a state's compact checkpoint as the checkpoint after `event` (its last event), when this log
    /// keeps checkpoints; `checkpoint` is only encoded then.
    func save(_ checkpoint: @autoclosure () -> [UInt8], at event: RecordedEvent) {
        guard let checkpoints, options.writesCheckpoints, checkpoints.seqs().last != event.seq else { return }
        checkpoints.save(
            checkpoint(), head: LogHead(of: event), at: event.at, version: LogState.compactCheckpointVersion)
    }
}

/// Where a long fold leaves checkpoints along the way: a state checkpoint at every multiple of
/// ``EngineOptions/checkpointSpacing`` it passes (so that later reads of earlier points of a long history,
/// `--at` and `--seq`, find one close by), and a projection checkpoint at every multiple of
/// ``EngineOptions/projectionCheckpointSpacing``, closer together, for the widget projections' reads.
struct Milestones {
    private let spacing: Int64
    private let projectionSpacing: Int64
    private let writesCheckpoints: Bool
    private var nextState: Int64
    private var nextProjection: Int64
    /// The projection checkpoints present, read once the first is due.
    private var savedProjections: Set<Int64>?

    /// The milestones after a fold's start at `seq` (0 from the first event).
    init(after seq: Int64, options: EngineOptions) {
        spacing = max(1, options.checkpointSpacing)
        projectionSpacing = max(1, options.projectionCheckpointSpacing)
        writesCheckpoints = options.writesCheckpoints
        nextState = Self.multiple(after: seq, of: spacing)
        nextProjection = Self.multiple(after: seq, of: projectionSpacing)
    }

    /// The first multiple of `spacing` after `seq`: where the next checkpoint of a fold at `seq` is due.
    static func multiple(after seq: Int64, of spacing: Int64) -> Int64 {
        (seq / spacing + 1) * spacing
    }

    /// Which checkpoints are due now that the fold is at `seq` (the end of a batch).
    mutating func passed(_ seq: Int64) -> (state: Bool, projection: Bool) {
        var due = (state: false, projection: false)
        if seq >= nextState {
            nextState = Self.multiple(after: seq, of: spacing)
            due.state = true
        }
        if seq >= nextProjection {
            nextProjection = Self.multiple(after: seq, of: projectionSpacing)
            due.projection = true
        }
        return due
    }

    /// Saves the projection state `make` gives as the projection checkpoint after `event`, unless the log
    /// keeps none or it is there already; `make` is only called then.
    mutating func saveProjection(
        _ make: @autoclosure () -> ProjectionState, at event: RecordedEvent, in projections: CheckpointStore?
    ) {
        guard let projections, writesCheckpoints else { return }
        if savedProjections == nil { savedProjections = Set(projections.seqs()) }
        if savedProjections!.insert(event.seq).inserted { make().save(to: projections, at: event) }
    }
}
