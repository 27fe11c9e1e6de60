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
        var state: LogState?
        var lastEvent: RecordedEvent?
        var checkpointSeq: Int64?
        let seqLimit: Int64? = if case .seq(let n) = point { n } else { nil }
        let atLimit: Instant? = if case .at(let instant) = point { instant } else { nil }
        // The checkpoint's head is checked against the log while reading on from it (the batch holding its
        // seq is read first), instead of reading the log up to it once for the check and once for the fold.
        var unverifiedHead: LogHead?
        if let checkpoints,
            let found = checkpoints.newestUnverified(
                atOrBefore: seqLimit ?? .max, recordedAtOrBefore: atLimit,
                version: LogState.compactCheckpointVersion)
        {
            if let restored = found.payload.withUnsafeBytes({ try? LogState(compactCheckpoint: $0) }),
                restored.lastSeq == found.header.head.seq
            {
                state = restored
                checkpointSeq = restored.lastSeq
                unverifiedHead = found.header.head
            } else {
                checkpoints.remove(seq: found.header.head.seq)
            }
        }
        var folded: Int64 = 0
        let cursor: LogBatchCursor
        let spacing = max(1, options.checkpointSpacing)
        var nextMilestone = ((state?.lastSeq ?? 0) / spacing + 1) * spacing
        let projectionSpacing = max(1, options.projectionCheckpointSpacing)
        var nextProjectionMilestone = ((state?.lastSeq ?? 0) / projectionSpacing + 1) * projectionSpacing
        var savedProjections: Set<Int64>?
        do {
            if let unverifiedHead {
                cursor = try reader.batches(from: unverifiedHead.seq, recordingHeadAt: unverifiedHead.seq)
            } else {
                cursor = try reader.batches(from: 1)
            }
            batches: while let batch = try cursor.next() {
                if let expected = unverifiedHead {
                    guard cursor.recordedHead == expected else { return try discard(expected, upTo: point) }
                    unverifiedHead = nil
                }
                if let atLimit, batch.events[0].at > atLimit { break }
                for event in batch.events {
                    if let current = state, event.seq <= current.lastSeq { continue }
                    if let seqLimit, event.seq > seqLimit { break batches }
                    if state == nil {
                        state = try LogState(genesis: event)
                    } else {
                        try state!.apply(event)
                    }
                    lastEvent = event
                    folded += 1
                }
                // A long fold leaves checkpoints along the way, so that later reads of earlier points of the
                // history (--at, --seq) find one close by.
                if let current = state, let lastEvent, current.lastSeq >= nextMilestone {
                    nextMilestone = (current.lastSeq / spacing + 1) * spacing
                    if current.lastSeq != seqLimit { save(current, at: lastEvent) }
                }
                // And projection checkpoints, closer together, for the widget projections' reads.
                if let current = state, let lastEvent, current.lastSeq >= nextProjectionMilestone {
                    nextProjectionMilestone = (current.lastSeq / projectionSpacing + 1) * projectionSpacing
                    if let projections, options.writesCheckpoints {
                        if savedProjections == nil { savedProjections = Set(projections.seqs()) }
                        if savedProjections!.insert(current.lastSeq).inserted {
                            ProjectionState(current).save(to: projections, at: lastEvent)
                        }
                    }
                }
            }
        } catch let error as StintError {
            throw error
        } catch let error as LogError {
            throw StintError(error)
        } catch let error as DomainError {
            throw StintError(error)
        } catch {
            throw StintError(.refused, "\(error)")
        }
        if let expected = unverifiedHead {
            // The log ended before the checkpoint's seq (or is damaged before it): the checkpoint is not of
            // this log.
            return try discard(expected, upTo: point)
        }
        // The state at the end of the log is worth keeping after a long fold; a past point (--at, --seq) is
        // rarely read again, and the checkpoints along the way already serve the reads around it.
        if point == .latest, folded >= options.checkpointInterval, let state, let lastEvent {
            save(state, at: lastEvent)
        }
        return Folded(
            state: state, lastEvent: lastEvent, warning: cursor.warning, foldedCount: folded,
            checkpointSeq: checkpointSeq)
    }

    /// Removes a checkpoint whose head is not the log's, and folds again without it.
    private func discard(_ head: LogHead, upTo point: ReadPoint) throws(StintError) -> Folded {
        checkpoints?.remove(seq: head.seq)
        return try load(upTo: point)
    }

    /// Saves `state` as the checkpoint after `event` (its last event), when this log keeps checkpoints.
    private func save(_ state: LogState, at event: RecordedEvent) {
        guard let checkpoints, options.writesCheckpoints, checkpoints.seqs().last != event.seq else { return }
        checkpoints.save(
            state.compactCheckpoint, head: LogHead(of: event), at: event.at,
            version: LogState.compactCheckpointVersion)
    }
}
