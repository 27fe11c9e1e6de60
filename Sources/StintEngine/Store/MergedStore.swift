public import StintCore
import StintLog

/// A replica as an event store (docs/decisions/0007 §1.3): appends go to this device's own log (stamped with
/// the device and a hybrid logical clock reading that sorts after every event the replica holds) and are
/// then published to the sync folder; reads are the merge of the own log and the mirrors of the other
/// devices in ``MergeKey`` order; the head is the frontier (its hash, and per device the last `seq`).
///
/// A position is per device the last `seq` before it and the key of the last event before it. Ingestion
/// (``ingest()``) can add events that sort before a position given out earlier: ``batches(after:)`` then
/// throws ``StintError/Code/positionSuperseded``, and the caller folds from the start.
///
/// ```swift
/// let store = try MergedStore.open(log: path, options: options)
/// defer { store.close() }
/// let report = try store.ingest()
/// let log = try TimeLog.open(store: store, options: options)
/// ```
public final class MergedStore: EventStore {
    /// The replica.
    public let space: Space
    /// This device's own log.
    let own: LogDirectoryStore
    /// What the last publish after an append did (nil before the first).
    public private(set) var lastPublish: PublishOutcome?
    /// Whether the store holds the own log's lock, so that no other process changes the own log or the
    /// mirrors (ingestion writes them under that lock) until ``close()``.
    let holdsLock: Bool
    /// ``lastEvents()`` while the store holds the lock, until its own append or ingestion changes them: a
    /// command asks for the heads several times, and each time reads every device log's active segment.
    var lastEventsCache: [DeviceID: (event: RecordedEvent, head: LogHead)]?
    /// The mirrors whose end ``lastEventsCache`` took by hashing their active segment: an ingestion that finds
    /// one unchanged settles its fingerprint, so that the next commands vouch for its end with a `stat`.
    var unsettledMirrors: Set<DeviceID> = []
    /// Where a lane can resume reading the own log after the event it ended with when this store opened it: a
    /// catch-up from a position taken then (the read models' mark) reads only what came after, not the
    /// segment from its start. (A mirror's new batches are held as its ingestion wrote them:
    /// ``ingestedBatches``.)
    var ownResumePoint: LaneResumePoint?
    /// Per device, the batches the last ingestion appended to its mirror and the `seq` of the mirror's last
    /// event before them (0 for a mirror it created), while the store holds the lock: a lane from that `seq`
    /// hands them out as they were written instead of reading the mirror back (the catch-up of the read
    /// models after `stint sync`).
    var ingestedBatches: [DeviceID: (afterSeq: Int64, batches: [LogBatch])] = [:]

    init(space: Space, own: LogDirectoryStore, holdsLock: Bool) {
        self.space = space
        self.own = own
        self.holdsLock = holdsLock
        if holdsLock { ownResumePoint = LaneResumePoint(lastWritten: own.lastWritten, activeEnd: own.activeEnd) }
    }

    /// Opens the replica at `log`.
    ///
    /// - Parameter holdingLock: take the own log's lock now and keep it until ``close()`` (otherwise each
    ///   append and ingestion takes it).
    /// - Throws: as ``Space/open(log:options:)`` and ``LogDirectoryStore/open(at:holdingLock:options:tail:)``.
    public static func open(log: String, holdingLock: Bool = true, options: EngineOptions) throws(StintError)
        -> MergedStore
    {
        let space = try Space.open(log: log, options: options)
        let own = try LogDirectoryStore.open(at: log, holdingLock: holdingLock, options: space.options)
        return MergedStore(space: space, own: own, holdsLock: holdingLock)
    }

    /// The logs merged: the own log and every mirror, in device order.
    func logs() throws(StintError) -> [(device: DeviceID, reader: LogReader)] {
        try space.logs(own: own.reader)
    }

    /// Per device, the last event and its head; the devices in `skipped` are left out (not read). Kept while
    /// the store holds the lock (a read that skips devices is not kept); the own log's is then its writer's,
    /// which checked the log's end as it opened and placed every event it appended since.
    func lastEvents(skipping skipped: Set<DeviceID> = []) throws(StintError)
        -> [DeviceID: (event: RecordedEvent, head: LogHead)]
    {
        if let lastEventsCache { return lastEventsCache.filter { !skipped.contains($0.key) } }
        var last: [DeviceID: (event: RecordedEvent, head: LogHead)] = [:]
        if holdsLock, !skipped.contains(space.device), let written = own.lastWritten { last[space.device] = written }
        var unsettled: Set<DeviceID> = []
        last.merge(try space.lastEvents(own: own.reader, skipping: skipped.union(last.keys), unsettled: &unsettled)) {
            held, _ in held
        }
        if holdsLock && skipped.isEmpty {
            lastEventsCache = last
            unsettledMirrors = unsettled.subtracting([space.device])
        }
        return last
    }

    /// Where each device's log (the own log and every mirror) ends now (``LogReader/end()``): what a replica's
    /// read models keep beside their mark, so that a read finds out without reading events whether they
    /// still reflect the merged history. A log whose end cannot be read is left out (a read then does not
    /// take the models).
    func logEnds() throws(StintError) -> [DeviceID: LogEnd] {
        var ends: [DeviceID: LogEnd] = [:]
        for (device, reader) in try space.logs(own: own.reader) { ends[device] = reader.end() }
        return ends
    }

    /// The frontier of the replica: per device the last `seq` it holds and the hash of that line (§5.2).
    public func frontier() throws(StintError) -> Frontier {
        Frontier(heads: try lastEvents().mapValues { Frontier.Head(seq: $0.head.seq, hash: $0.head.hash) })
    }

    public func head() throws(StintError) -> StoreHead? {
        let last = try lastEvents()
        guard !last.isEmpty else { return nil }
        let frontier = Frontier(heads: last.mapValues { Frontier.Head(seq: $0.head.seq, hash: $0.head.hash) })
        let keys = last.map { MergedBatchCursor.key(of: $0.value.event, device: $0.key) }
        let position = MergedPosition(seqs: last.mapValues(\.head.seq), lastKey: keys.max())
        return StoreHead(position: StorePosition(merged: position), hash: frontier.hash)
    }

    public func batches(after position: StorePosition?) throws(StintError) -> any StoreBatchCursor {
        try mergedBatches(after: position)
    }

    /// ``batches(after:)`` as the merge that reads them: its count of events still to read and the problem
    /// (damage of a device's log) that ended it. With `through` (a later position of this store, such as its
    /// head), a device whose `seq` is the same in both gets no lane: it has nothing to hand out, and its log
    /// is not read (a lane reads its segment from the start up to the position).
    func mergedBatches(after position: StorePosition?, through: MergedPosition? = nil) throws(StintError)
        -> MergedBatchCursor
    {
        try mergedBatches(after: position, through: through, checkingOrder: true)
    }

    /// The merge key of the earliest event after `position` (each device's first event past its `seq`), nil
    /// when there is none: when it sorts before the position's last key (a device that was offline delivered
    /// events), the position is superseded, and a replica's read models rewind to before it
    /// (``ReadModel/rewind(toBefore:)``). `through` as for ``mergedBatches(after:through:)``.
    func earliestKey(after position: StorePosition, through: MergedPosition? = nil) throws(StintError) -> MergeKey? {
        try mergedBatches(after: position, through: through, checkingOrder: false).earliestPendingKey()
    }

    /// ``mergedBatches(after:through:)``; with `checkingOrder`, refusing a position that events sort before
    /// (``StintError/Code/positionSuperseded``).
    private func mergedBatches(after position: StorePosition?, through: MergedPosition?, checkingOrder: Bool)
        throws(StintError) -> MergedBatchCursor
    {
        let after: MergedPosition
        if let position {
            guard let merged = position.merged else {
                throw StintError(.refused, "\(position) is not a position of the merged history of \(space.log)")
            }
            after = merged
        } else {
            after = MergedPosition()
        }
        let logs = try logs()
        for device in after.seqs.keys where !logs.contains(where: { $0.device == device }) {
            throw StintError(.refused, "the replica at \(space.log) holds no log of device \(device) any more")
        }
        var lanes: [MergedBatchCursor.Lane] = []
        var remaining: Int64 = 0
        for (device, reader) in logs {
            let seq = after.seqs[device] ?? 0
            if let through, seq > 0, through.seqs[device] == seq { continue }
            do throws(LogError) {
                // From the names of the segments: the last one's frames are read by the cursor anyway.
                remaining += max(0, try reader.eventsBeforeLastSegment() - seq)
                // A later position of this store (its head) says how far the log goes at least, without reading
                // its last frame.
                if seq > 0, (through?.seqs[device]).map({ $0 < seq }) ?? true, try reader.lastSeq() < seq {
                    throw LogError(
                        .invalidInput,
                        "the log of device \(device) ends before seq \(seq): \(position!) is not a position of it")
                }
                lanes.append(
                    MergedBatchCursor.Lane(
                        device: device, cursor: try laneCursor(reader, of: device, after: seq),
                        readsAhead: space.readsAhead))
            } catch {
                throw StintError(error)
            }
        }
        let cursor = MergedBatchCursor(lanes: lanes, after: after, remaining: remaining)
        for index in lanes.indices {
            guard let next = try cursor.peek(index) else { continue }
            let seq = after.seqs[lanes[index].device] ?? 0
            guard next.firstSeq == seq + 1 else {
                throw StintError(
                    .refused, "\(position!) is inside a batch of device \(lanes[index].device), not after one")
            }
        }
        if checkingOrder, let lastKey = after.lastKey, let earliest = try cursor.earliestPendingKey(),
            earliest < lastKey
        {
            var error = StintError(
                .refused,
                "events of device \(earliest.device) that sort before \(lastKey) arrived after \(position!) "
                    + "was read; fold the merged history from its start")
            error.code = .positionSuperseded
            throw error
        }
        return cursor
    }

    /// The batches of `device`'s log after `seq`: those the last ingestion wrote to its mirror after `seq`, as it
    /// wrote them; the own log's from its resume point when that is where it stands (its writer is open, and
    /// its active segment tells whether the point still holds); else from the start of the segment holding
    /// `seq + 1`.
    private func laneCursor(_ reader: LogReader, of device: DeviceID, after seq: Int64) throws(LogError)
        -> LogBatchCursor
    {
        if let ingested = ingestedBatches[device], ingested.afterSeq == seq {
            // Handed out once: the cursor lets go of each batch as it hands it out, and a later catch-up reads.
            ingestedBatches[device] = nil
            return LogBatchCursor(handingOut: ingested.batches)
        }
        if device == space.device, seq > 0, let point = ownResumePoint, point.event.seq == seq,
            point.holds(activeEnd: own.activeEnd)
        {
            return try reader.batches(
                resumingAfter: point.event, head: point.head, segment: point.segment, offset: point.offset)
        }
        return try reader.batches(from: seq + 1)
    }

    /// Appends to the own log, if the merged head is still `expected`, then publishes (a failure to publish
    /// is told to ``EngineOptions/onNotice`` and kept in ``lastPublish``: the batch is durable, the next
    /// append or `stint sync` publishes it).
    public func append(
        _ drafts: [EventDraft], recordedAt reading: Instant, expecting expected: StoreHead?
    ) throws(StintError) -> AppendOutcome {
        let current = try head()
        guard current == expected else { return .conflict(current: current) }
        switch try appendAfterEverything(drafts, recordedAt: reading) {
        case .conflict:
            return .conflict(current: try head())
        case .appended(let batch, _):
            publishQuietly()
            guard let head = try head() else {
                throw StintError(.refused, "the replica at \(space.log) has no head after an append")
            }
            return .appended(
                StoredBatch(events: batch.events, position: head.position, device: space.device), head: head)
        }
    }

    /// Appends to the own log, the batch's reading received from the newest event of the mirrors, so that it
    /// sorts after every event the replica holds. `newest` holds the last event of mirrors the caller already
    /// knows (an ingestion's mirror writers); the other mirrors are read.
    func appendAfterEverything(
        _ drafts: [EventDraft], recordedAt reading: Instant, knowing newest: [DeviceID: RecordedEvent] = [:]
    ) throws(StintError) -> AppendOutcome {
        var last = newest.filter { $0.key != space.device }
        for (device, read) in try lastEvents(skipping: Set(newest.keys).union([space.device])) {
            last[device] = read.event
        }
        let remote = last.values.map { $0.hlc ?? HLC(impliedBy: $0.at) }.max()
        let outcome: AppendOutcome
        do {
            outcome = try own.append(drafts, recordedAt: reading, expecting: try own.head(), receiving: remote)
        } catch {
            lastEventsCache = nil
            throw error
        }
        // The own log's last event is the batch's now; the others' are as they were.
        if case .appended(let batch, _) = outcome, let event = batch.events.last {
            lastEventsCache?[space.device] = (event, LogHead(of: event))
        } else {
            lastEventsCache = nil
        }
        return outcome
    }

    /// Publishes the own log (``Space/publish(afterAppend:)``).
    @discardableResult
    public func publish(afterAppend: Bool = false) throws(StintError) -> PublishOutcome {
        let outcome = try space.publish(afterAppend: afterAppend)
        lastPublish = outcome
        return outcome
    }

    /// Publishes after an append; a failure or a fork is a notice, not an error of the append.
    func publishQuietly() {
        do {
            if case .forked(let seq) = try publish(afterAppend: true) {
                space.options.onNotice(
                    "nothing was published: the sync folder's copy of this device's log differs at seq \(seq) (another "
                        + "installation writes as device \(space.device)); run 'stint sync status'")
            }
        } catch {
            space.options.onNotice("the batch is recorded but was not published: \(error.message)")
        }
    }

    public func close() {
        own.close()
    }
}
