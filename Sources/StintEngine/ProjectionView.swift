public import StintCore
@_spi(FaultInjection) public import StintLog

/// What the widget projections (snapshot, summary, timeline, Live Activity) are computed from at a point
/// of a log's history: the same points, the same `now` and the same outputs as ``LogView``, usually much
/// cheaper.
///
/// A read starts from the newest projection checkpoint at or before the point — a ``ProjectionState``
/// that holds about a month of records, left every ``EngineOptions/projectionCheckpointSpacing`` events by
/// earlier reads — and folds the few events after it. When there is none, or anything about it is not as
/// expected (a stale head, damage, an event the lenient fold does not accept, a clock behind the log), the
/// view is the strict ``LogView``'s, whose errors and warnings are then the ones reported.
///
/// ```swift
/// let view = try ProjectionView.load(try LogSource.open(path: path, options: options), at: .seq(797_928), options: options)
/// let snapshot = WidgetData(source: view.source, now: view.now)
/// ```
public struct ProjectionView: Sendable {
    /// The tags, recent tags and the records the projections read at `now`.
    public let source: ProjectionSource
    /// The instant the projections are computed at.
    public let now: Instant
    /// The point that was asked for.
    public let point: ReadPoint
    /// Why reading stopped before the end of the log, when damage stopped it.
    public let warning: LogProblem?
    /// Completed records that started before this instant may be missing from ``source`` (they are outside
    /// every widget projection's window); nil when ``source`` holds every record.
    public let horizon: Instant?

    /// The log's calendar.
    public var calendar: LogCalendar { source.calendar }

    /// Builds the view of `source`'s log at `point`.
    ///
    /// - Throws: what ``LogView/load(_:at:options:)`` throws for the same log and point.
    public static func load(
        _ source: LogSource, at point: ResolvedPoint, options: EngineOptions
    ) throws(StintError) -> ProjectionView {
        try source.fold.projections(at: point, options: options)
    }
}

extension ProjectionView {
    /// The strict fold's view (`view`'s state): every record, no horizon.
    init(_ view: LogView) {
        self.init(
            source: view.state.projectionSource, now: view.now, point: view.point, warning: view.warning, horizon: nil)
    }

    /// The view of a cold read (no checkpoint at or before the point): the log folded with
    /// ``CompactFold``, and only its projection state built; nil when the strict ``LogView`` should build
    /// the view (a checkpoint to start from, an event the compact fold does not apply, or no event folded,
    /// whose errors are the strict view's).
    static func compactView(of reader: LogReader, at point: ResolvedPoint, options: EngineOptions) throws(StintError)
        -> ProjectionView?
    {
        let loader = StateLoader(reader: reader, options: options)
        guard options.foldsCompactly, !loader.mayStartFromCheckpoint(upTo: point),
            let folded = try loader.loadCompactly(upTo: point, leavingStateCheckpoints: false), let fold = folded.fold
        else { return nil }
        let now = try LogView.now(at: point, lastSeq: fold.lastSeq, lastAt: fold.lastAt, options: options)
        let state = ProjectionState(fold, now: now)
        return ProjectionView(
            source: state.projectionSource, now: now, point: point.point, warning: folded.warning,
            horizon: state.horizon)
    }
}

extension ProjectionView {
    /// The view at the log's head from its read models, when they reflect the head and the clock is not
    /// behind the log; nil otherwise.
    static func fromReadModels(of reader: LogReader, options: EngineOptions) -> ProjectionView? {
        guard options.usesReadModels, let directory = reader.directoryPath,
            let model = ReadModel.openForReading(inLogDirectory: directory)
        else { return nil }
        defer { model.close() }
        guard let state = model.projectionState(of: reader) else { return nil }
        let now = options.clock()
        guard now >= state.lastAt else { return nil }
        return ProjectionView(
            source: state.projectionSource, now: now, point: .latest, warning: nil, horizon: state.horizon)
    }
}

/// Folds a ``ProjectionState`` from the newest projection checkpoint at or before a point.
struct ProjectionLoader {
    let reader: LogReader
    let options: EngineOptions
    /// The projection checkpoints (`checkpoints/projection/`) and the state checkpoints; nil for sources
    /// that are not log directories.
    let projections: CheckpointStore?
    let states: CheckpointStore?

    init(reader: LogReader, options: EngineOptions) {
        self.reader = reader
        self.options = options
        (states, projections) = CheckpointStore.stores(of: reader)
    }

    /// What a fold produced.
    struct Folded {
        var state: ProjectionState
        var now: Instant
        /// The checkpoint the fold started from, and how many events it folded after it.
        var checkpointSeq: Int64
        var foldedCount: Int64
    }

    /// The projection state at `point`, or nil when the strict fold should build the view instead.
    func load(upTo point: ResolvedPoint) -> Folded? {
        let seqLimit = point.seqLimit
        let atLimit = point.instantLimit
        guard let projections,
            let found = projections.newestUnverified(
                atOrBefore: seqLimit ?? .max, recordedAtOrBefore: atLimit, version: ProjectionState.checkpointVersion)
        else { return nil }
        // A state checkpoint far closer to the point makes the strict fold the cheaper one. (For `--at`, the
        // next projection checkpoint, recorded after the point, bounds the point's seq.)
        let spacing = max(1, options.projectionCheckpointSpacing)
        let present = projections.seqs()
        let bound = seqLimit ?? present.first { $0 > found.header.head.seq } ?? .max
        if let newestState = states?.seqs().last(where: { $0 <= bound }),
            newestState > found.header.head.seq + 4 * spacing
        {
            return nil
        }
        guard let json = found.payload.withUnsafeBytes({ try? JSON.parse($0.assumingMemoryBound(to: UInt8.self)) }),
            let restored = try? ProjectionState(checkpoint: json), restored.lastSeq == found.header.head.seq
        else {
            projections.remove(seq: found.header.head.seq)
            return nil
        }
        var saved = Set(present)
        var nextMilestone = (restored.lastSeq / spacing + 1) * spacing
        let outcome = try? CheckpointedFold<ProjectionState>(reader: reader).run(
            from: .init(state: restored, head: found.header.head),
            genesis: { (event) throws(DomainError) in ProjectionState(try LogState(genesis: event)) }, upTo: point
        ) { seq, state, last in
            if seq >= nextMilestone {
                nextMilestone = (seq / spacing + 1) * spacing
                if options.writesCheckpoints, saved.insert(seq).inserted {
                    var pruned = state()
                    pruned.prune()
                    pruned.save(to: projections, at: last)
                }
            }
        }
        let state: ProjectionState
        let folded: Int64
        switch outcome {
        case .folded(let end?, _, let count, nil):
            (state, folded) = (end, count)
        case .staleCheckpoint:
            projections.remove(seq: found.header.head.seq)
            return nil
        default:
            // Damage, events that do not fold and read failures are for the strict fold to report.
            return nil
        }
        // A single log's point only; a `seq` the fold did not reach is for the strict fold to refuse.
        guard !point.namesDevice,
            let now = point.now(reached: state.lastSeq, lastAt: state.lastAt, clock: options.clock)
        else { return nil }
        // A clock behind the log could ask for records older than the state's horizon.
        if point.isLatest && now < state.lastAt { return nil }
        return Folded(state: state, now: now, checkpointSeq: restored.lastSeq, foldedCount: folded)
    }
}

extension CheckpointStore {
    /// The state and projection checkpoint stores of `reader`'s log; nil for sources that are not log
    /// directories.
    static func stores(of reader: LogReader) -> (states: CheckpointStore?, projections: CheckpointStore?) {
        guard reader.kind == .directory, let directory = reader.directoryPath else { return (nil, nil) }
        let fileSystem = reader.options.fileSystem
        return (
            CheckpointStore(logDirectory: directory, fileSystem: fileSystem),
            projections(logDirectory: directory, fileSystem: fileSystem)
        )
    }

    /// The projection checkpoints of the log directory at `logDirectory`: `checkpoints/projection/`,
    /// kept for the last 400 spacings (4 million events at the default spacing).
    static func projections(logDirectory: String, fileSystem: any LogFileSystem) -> CheckpointStore {
        var store = CheckpointStore(logDirectory: logDirectory, subdirectory: "projection", fileSystem: fileSystem)
        store.retained = 400
        return store
    }
}

extension ProjectionState {
    /// Saves the state as the projection checkpoint after `event` (its last event).
    func save(to store: CheckpointStore, at event: RecordedEvent) {
        store.save(
            checkpointJSON.encoded(), head: LogHead(of: event), at: event.at, version: ProjectionState.checkpointVersion
        )
    }
}
