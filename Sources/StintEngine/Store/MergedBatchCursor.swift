import StintCore
import StintLog

/// The batches of several devices' logs in merge order (docs/decisions/0007 §5.1), streaming: one
/// ``LogBatchCursor`` per device, and at each step the batch whose first event has the smallest
/// ``MergeKey``. A batch stays whole (its events share one reading and have consecutive `seq`s).
final class MergedBatchCursor: StoreBatchCursor {
    /// One device's cursor (read ahead on a thread of its own when `prefetcher` is set) and the batch read
    /// from it but not handed out yet.
    struct Lane {
        var device: DeviceID
        var cursor: LogBatchCursor
        var prefetcher: BatchPrefetcher?
        var pending: LogBatch?
        /// The merge key of the pending batch's first event (taken once: a batch waits through many steps).
        var pendingKey: MergeKey?
        var isExhausted = false

        /// A lane reading `cursor`, ahead on a thread of its own with `readsAhead`.
        init(device: DeviceID, cursor: LogBatchCursor, readsAhead: Bool) {
            self.device = device
            self.cursor = cursor
            prefetcher = readsAhead ? BatchPrefetcher(cursor) : nil
        }

    }

    private var lanes: [Lane]
    /// Where the merge is: after the last batch handed out (or where it started).
    private(set) var position: MergedPosition
    private(set) var damage: StintError?
    /// The problem of the device's log that ended the merge, when its damage did.
    private(set) var problem: LogProblem?
    /// About how many events follow the starting position (at least those before each log's last segment),
    /// what a fold from it sizes its tables for.
    let remaining: Int64

    /// A cursor over `lanes` that continues after `position`, which about `remaining` events follow.
    init(lanes: [Lane], after position: MergedPosition, remaining: Int64 = 0) {
        self.lanes = lanes
        self.position = position
        self.remaining = remaining
    }

    /// The merge key of an event of `device`'s log: an event without the envelope pair (a line written before
    /// the log became a replica) reads as that device's, with `hlc = [at, 0]` (§2.2 rule 5).
    static func key(of event: RecordedEvent, device: DeviceID) -> MergeKey {
        MergeKey(hlc: event.hlc ?? HLC(impliedBy: event.at), device: device, seq: event.seq)
    }

    /// ``key(of:device:)`` of `events[index]`, reading only the three members (not copying the event).
    static func key(of events: [RecordedEvent], at index: Int, device: DeviceID) -> MergeKey {
        MergeKey(hlc: events[index].hlc ?? HLC(impliedBy: events[index].at), device: device, seq: events[index].seq)
    }

    func next() throws(StintError) -> StoredBatch? {
        guard damage == nil else { return nil }
        var chosen: (index: Int, key: MergeKey)?
        for index in lanes.indices {
            guard try fill(index), let key = lanes[index].pendingKey else {
                if damage != nil { return nil }
                continue
            }
            if chosen == nil || key < chosen!.key { chosen = (index, key) }
        }
        guard let chosen else { return nil }
        // Moved out of the lane, not copied (a copy is a reference count on memory a read-ahead thread wrote).
        var taken: LogBatch?
        swap(&taken, &lanes[chosen.index].pending)
        let batch = taken!
        lanes[chosen.index].pendingKey = nil
        let device = lanes[chosen.index].device
        if let last = position.lastKey, chosen.key < last {
            damage = StintError(
                .damaged,
                "event \(chosen.key) sorts before event \(last), which the merge already handed out; run 'stint verify'"
            )
            return nil
        }
        position.seqs[device] = batch.lastSeq
        position.lastKey = Self.key(of: batch.events, at: batch.events.count - 1, device: device)
        return StoredBatch(events: batch.events, position: StorePosition(merged: position), device: device)
    }

    /// The next batch of lane `index`, read when none is pending; nil at its end (setting ``damage`` when
    /// damage ended it: the merge cannot go on, since the events it lacks could sort anywhere).
    func peek(_ index: Int) throws(StintError) -> LogBatch? {
        try fill(index) ? lanes[index].pending : nil
    }

    /// The merge key of the first event still to be handed out, over every lane: the earliest; nil when none.
    func earliestPendingKey() throws(StintError) -> MergeKey? {
        var earliest: MergeKey?
        for index in lanes.indices {
            guard try fill(index), let key = lanes[index].pendingKey else { continue }
            if earliest.map({ key < $0 }) ?? true { earliest = key }
        }
        return earliest
    }

    /// Reads the next batch of lane `index` when none is pending; whether one is pending now (``peek(_:)``
    /// without handing out a copy of it).
    private func fill(_ index: Int) throws(StintError) -> Bool {
        if lanes[index].pending != nil { return true }
        guard !lanes[index].isExhausted else { return false }
        do throws(LogError) {
            // Through the lane's parts, not a method of the lane: calling one copied the whole lane.
            let batch: LogBatch?
            if let prefetcher = lanes[index].prefetcher {
                batch = try prefetcher.next()
            } else {
                batch = try lanes[index].cursor.next()
            }
            lanes[index].pendingKey = batch.map { Self.key(of: $0.events, at: 0, device: lanes[index].device) }
            lanes[index].pending = batch
        } catch {
            throw StintError(error)
        }
        if lanes[index].pending == nil {
            lanes[index].isExhausted = true
            if let warning = lanes[index].cursor.warning {
                problem = warning
                damage = StintError(.damaged, "the log of device \(lanes[index].device) is damaged: \(warning)")
            }
            return false
        }
        return true
    }
}
