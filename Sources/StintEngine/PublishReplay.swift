public import StintCore
public import StintLog

/// Replays a log as an app following the reference design lived it: after every committed batch the
/// app builds the widget snapshot at the batch's time, writes it (and reloads its widgets) only when it
/// differs from the snapshot on disk with `lastUpdated` excluded, and brings its Live Activity in line
/// with the running timers (``LiveActivityPlan/decide(current:startedAt:timers:at:)``), which iOS ends 8
/// hours after it started: a batch after that starts a new one while timers run.
///
/// The snapshots come from a ``SnapshotIndex``, so a step costs what the summary window holds, not what
/// the log holds.
///
/// ```swift
/// let replay = try PublishReplay(source: source, since: nil, options: options)
/// while let step = try replay.next() { print(step.batch.firstSeq, step.writesSnapshot ? "write" : "unchanged") }
/// ```
public final class PublishReplay {
    /// What the app does after one batch.
    public struct Step: Sendable {
        /// The batch, already folded into ``PublishReplay/state``.
        public var batch: StoredBatch
        /// The snapshot built at the batch's recorded time.
        public var snapshot: WidgetData
        /// Whether the snapshot differs from the one on disk (`lastUpdated` excluded), or the one on disk
        /// is more than 24 hours old (``WidgetData/replaces(_:at:)``): the app writes it and reloads its
        /// widgets. False: nothing is written.
        public var writesSnapshot: Bool
        /// What the app does with its Live Activity.
        public var liveActivity: LiveActivityAction
        /// When iOS ended the activity, 8 hours after it started, between the previous batch and this one;
        /// nil when it did not.
        public var systemEndedActivity: Instant?

        /// What the batch changed from, when the replay keeps it (``keepsBefore``).
        public var before: Before?
        /// What a space's rules resolved while folding the batch (docs/sync.md); empty for a single log.
        public var conflicts: [Conflict] = []

        /// The recorded time of the batch.
        public var at: Instant { batch.events[0].at }
    }

    /// The log as it was before a batch, as far as the batch changed it: what `stint view` sets beside the
    /// state after.
    public struct Before: Sendable {
        /// The snapshot of the state before the batch, built at the batch's recorded time (nil before the
        /// first event).
        public var snapshot: WidgetData?
        /// Each record the batch's events name, once, in their order, as it was: its values while live, nil
        /// otherwise (`deleted` says whether it was deleted or did not exist).
        public var records: [(id: EntityID, record: Record?, deleted: Bool)]
        /// The tags as they were.
        public var tags: [EntityID: Tag]
    }

    /// Whether the steps carry ``Step/before`` (a second snapshot per batch, and the named records).
    public var keepsBefore = false
    /// What ``keepsBefore`` noted of the batch being folded.
    private var pendingBefore: Before?
    /// The last step's snapshot and the date of its instant: the snapshot of the state before the next batch
    /// when that is recorded the same day (a snapshot depends on its instant only through the date, but for
    /// `lastUpdated`).
    private var lastSnapshot: (snapshot: WidgetData, date: CivilDate)?

    private let walk: any BatchWalk
    private var index: SnapshotIndex?
    /// The snapshot file's content after the steps so far: the last snapshot written, with the
    /// `lastUpdated` of that write. nil before the first write.
    ///
    /// When the replay started after a point, the snapshot of the state at that point stands for the file
    /// (its content is equivalent; its `lastUpdated` is that of the point's last batch).
    public private(set) var published: WidgetData?
    /// The content the Live Activity shows after the steps so far; nil when none is shown.
    public private(set) var liveActivity: LiveActivityContent?
    /// When the activity in ``liveActivity`` started (iOS ends it 8 hours later); nil when none is shown.
    /// After a start past a point, an activity shown there is taken as started at the point's last batch.
    public private(set) var liveActivityStartedAt: Instant?

    /// The Live Activity shown after the steps so far and when it started; nil when none is shown.
    public var shownLiveActivity: (content: LiveActivityContent, startedAt: Instant)? {
        guard let liveActivity, let liveActivityStartedAt else { return nil }
        return (liveActivity, liveActivityStartedAt)
    }

    /// Starts a replay of `source`'s log.
    ///
    /// - Parameters:
    ///   - since: fold the batches recorded before this instant without handing them out; the app's
    ///     snapshot and Live Activity are then those of the state they leave. nil starts at the first event.
    /// - Throws: ``StintError`` for an unreadable log or events this build cannot fold.
    public init(source: LogSource, since: Instant?, options: EngineOptions) throws(StintError) {
        let point = since.map { ResolvedPoint.at($0.adding(milliseconds: -1)) }
        walk = try source.fold.walk(after: point, options: options)
        walk.willFold = { [unowned self] state, events in self.noteBefore(state, events) }
        if let state = walk.state {
            var index = SnapshotIndex(state: state)
            let snapshot = index.snapshot(of: state, now: state.lastAt)
            published = snapshot
            if !snapshot.runningTimers.isEmpty {
                liveActivity = LiveActivityContent(runningTimers: snapshot.runningTimers)
                liveActivityStartedAt = state.lastAt
            }
            self.index = index
        }
    }

    /// The log's state after the steps so far.
    public var state: LogState? { walk.state }

    /// Why the replay stopped before the end of the log, when damage stopped it.
    public var warning: LogProblem? { walk.warning }

    /// The next batch and what the app does after it; nil at the end of the log.
    ///
    /// - Throws: ``StintError`` for events that do not fold and for read failures.
    public func next() throws(StintError) -> Step? {
        guard let batch = try walk.next(), let state = walk.state else { return nil }
        if index == nil {
            index = SnapshotIndex(state: state)
        } else {
            index!.update(after: batch.events, state: state)
        }
        let at = batch.events[0].at
        let snapshot = index!.snapshot(of: state, now: at)
        if keepsBefore { lastSnapshot = (snapshot, state.calendar.date(of: at)) }
        let writes = snapshot.replaces(published, at: at)
        if writes { published = snapshot }
        let systemEnd = systemEnd(atOrBefore: at)
        if systemEnd != nil {
            liveActivity = nil
            liveActivityStartedAt = nil
        }
        let action = LiveActivityPlan.decide(current: liveActivity, timers: snapshot.runningTimers)
        switch action {
        case .start(let content):
            liveActivity = content
            liveActivityStartedAt = at
        case .update(let content): liveActivity = content
        case .end:
            liveActivity = nil
            liveActivityStartedAt = nil
        case .none: break
        }
        defer { pendingBefore = nil }
        return Step(
            batch: StoredBatch(events: batch.events), snapshot: snapshot, writesSnapshot: writes, liveActivity: action,
            systemEndedActivity: systemEnd, before: pendingBefore, conflicts: walk.conflictsOfLastBatch)
    }

    /// Notes, when ``keepsBefore``, the state before the batch of `events` as ``Before`` holds it (the index
    /// is still the state's: it is brought up to date after the batch).
    private func noteBefore(_ state: LogState?, _ events: [RecordedEvent]) {
        guard keepsBefore, let first = events.first else { return }
        var seen: Set<EntityID> = []
        var records: [(id: EntityID, record: Record?, deleted: Bool)] = []
        for event in events {
            for id in (try? DomainEvent(event))?.namedRecordIds ?? [] where seen.insert(id).inserted {
                records.append((id, state?.records[id], state?.deletedRecordIds.contains(id) ?? false))
            }
        }
        var snapshot: WidgetData?
        if let state, index != nil {
            if let lastSnapshot, lastSnapshot.date == state.calendar.date(of: first.at) {
                snapshot = lastSnapshot.snapshot
                snapshot!.lastUpdated = first.at
            } else {
                snapshot = index!.snapshot(of: state, now: first.at)
            }
        }
        pendingBefore = Before(snapshot: snapshot, records: records, tags: state?.tags ?? [:])
    }

    /// When iOS ends the activity shown after the steps so far, if that is at or before `instant`; nil when
    /// none is shown or it lives past `instant`.
    public func systemEnd(atOrBefore instant: Instant) -> Instant? {
        guard liveActivity != nil, let liveActivityStartedAt else { return nil }
        let end = LiveActivityPlan.systemEnd(ofActivityStartedAt: liveActivityStartedAt)
        return end <= instant ? end : nil
    }
}
