import StintCore
import StintLog

/// The merged history of a replica (a log that is part of a space, docs/decisions/0007), read without its
/// lock: every device's events in merge order, folded by the space's rules (``MergedFold``).
///
/// Every read of a replica that its read models do not answer goes through it: a read of the latest state, of
/// an instant (`--at`), of a device's `seq` or of what a device knew (`--as-known-by`) starts from the newest
/// merged checkpoint that holds and that the point includes whole (``MergedCheckpoints``).
package struct MergedHistory: Sendable {
    let log: String
    let options: EngineOptions

    /// The merged batches from the start, and the store they come from (to close when done).
    func batches() throws(StintError) -> (store: MergedStore, cursor: MergedBatchCursor) {
        let store = try MergedStore.open(log: log, holdingLock: false, options: options)
        do {
            return (store, try store.mergedBatches(after: nil))
        } catch {
            store.close()
            throw error
        }
    }

    /// What a fold of the merged history up to a point produced.
    struct Folded {
        /// The merged fold: its state and the conflicts its rules resolved.
        var fold: MergedFold?
        var state: LogState? { fold?.state }
        /// The last event read (nil when a checkpoint held them all), and how many were folded.
        var last: RecordedEvent?
        var count: Int64 = 0
        /// How many of them a checkpoint held (0: folded from the start).
        var restored: Int64 = 0
        /// Why reading stopped early (damage of a device's log), if it did.
        var warning: LogProblem?
    }

    /// Folds the merged events a read of `point` sees; with `usingCheckpoints`, from the newest merged
    /// checkpoint that holds and that the point includes whole (``Filter/usableCheckpoints(store:)``), else
    /// from the start; leaving one when it folded many events, every one up to the frontier (not a read of
    /// what a device knew, nor one that stopped before the last batch), and, for a read of an instant or of
    /// a device's `seq`, spaced ones along the way (``MergedCheckpoints/Spacing``).
    ///
    /// - Throws: ``StintError`` (refused) for a device the replica holds no log of, or a `seq` past the end
    ///   of a device's log; (damaged) for events that do not fold.
    func fold(upTo point: ResolvedPoint, usingCheckpoints: Bool = false) throws(StintError) -> Folded {
        let store = try MergedStore.open(log: log, holdingLock: false, options: options)
        defer { store.close() }
        let filter = try Filter(point, store: store)
        var folded = Folded()
        let checkpoints = MergedCheckpoints(store: store)
        let cursor: MergedBatchCursor
        var reached: MergedPosition?
        if usingCheckpoints, let usable = try filter.usableCheckpoints(store: store) {
            let start = try checkpoints.start(where: usable)
            (folded.fold, reached, cursor) = (start.fold, start.position?.merged, start.cursor)
            folded.count = start.fold?.eventCount ?? 0
            folded.restored = folded.count
        } else {
            cursor = try store.mergedBatches(after: nil)
        }
        let started = folded.count
        let expected = cursor.remaining
        // Spaced checkpoints along a read of an earlier point (an instant, a device's seq), as a single log's
        // reads of one leave its state checkpoints: not along a read of the latest state, whose cold fold would
        // write ten at a million events, nor of what a device knew, which leaves events out.
        var spacing: MergedCheckpoints.Spacing?
        if usingCheckpoints, filter.readsAPrefix {
            let total = try store.frontier().heads.values.reduce(0) { $0 + $1.seq }
            spacing = MergedCheckpoints.Spacing(after: started, of: total, options: options)
        }
        // The last event folded, as its batch and index: the events are read in place, never copied out (a
        // copy is a dozen reference counts on memory another thread wrote, a tenth of the fold's thread).
        var last: (events: [RecordedEvent], index: Int)?
        // Where the merge got to is the cursor's position after the last batch it handed out, read at the end:
        // holding each batch's position made the cursor copy its table of positions at every batch.
        var handedOut = false
        // Whether the read stopped at a batch it did not fold (the cursor has handed it out all the same).
        var stoppedBefore = false
        while let batch = try cursor.next() {
            handedOut = true
            let device = batch.device ?? store.space.device
            let first = batch.events[0].hlc ?? HLC(impliedBy: batch.events[0].at)
            if filter.ends(before: first) {
                stoppedBefore = true
                break
            }
            do throws(DomainError) {
                let step = try MergedFold.fold(
                    batch: batch.events, into: &folded.fold, expectedEvents: expected,
                    including: { filter.includes($0, device: device) })
                folded.count += Int64(step.count)
                if let index = step.last { last = (batch.events, index) }
            } catch {
                throw StintError(error)
            }
            if let fold = folded.fold, spacing?.isDue(at: fold.eventCount, in: checkpoints) == true {
                checkpoints.saveSpaced(fold, at: cursor.position)
            }
            if filter.isComplete(after: batch.events[batch.events.count - 1].seq, device: device) { break }
        }
        if handedOut { reached = cursor.position }
        folded.last = last.map { $0.events[$0.index] }
        folded.warning = cursor.problem
        // Only a fold of every event up to where the cursor got is a checkpoint of that position: not one that
        // left out what a device did not know, nor one that stopped before a batch the cursor handed out.
        if usingCheckpoints, folded.warning == nil, filter.seqLimits == nil, !stoppedBefore, let fold = folded.fold {
            checkpoints.saveIfDue(fold, startedAt: started, reached: reached)
        }
        return folded
    }

    /// The events of the merged history a point selects.
    struct Filter {
        /// Stop at the first event whose reading is after this instant (`--at`).
        var readingLimit: Instant?
        /// Stop after this event (`--seq`): a device and its `seq`.
        var lastEvent: (device: DeviceID, seq: Int64)?
        /// Per device, the last `seq` included (`--as-known-by`); devices not named are left out.
        var seqLimits: [DeviceID: Int64]?

        init(_ point: ResolvedPoint, store: MergedStore) throws(StintError) {
            let space = store.space
            switch point.point {
            case .latest: break
            case .at(let instant): readingLimit = instant
            case .seq(let n): lastEvent = try Filter.existing(space.device, n, store: store)
            case .deviceSeq(let device, let n): lastEvent = try Filter.existing(device, n, store: store)
            case .knownBy(let device, let instant):
                seqLimits = try Filter.knowledge(of: device, at: instant, store: store)
            }
        }

        /// Which merged checkpoints a read of the point may start from, by their position: a checkpoint holds a
        /// prefix of the merge order, and so do the events of the latest state (any checkpoint), of an instant
        /// (those up to it: hlc first in the order) and of a device's `seq` (those up to that event's batch:
        /// checkpoints before the event, which have not passed its batch). What a device knew is not a prefix
        /// of the merge order but a prefix of each device's log; a checkpoint whose every device's `seq` it
        /// knew holds only events it knew (a prefix of the merge order holds each device's events up to its
        /// `seq`), so the fold goes on from it, leaving out what follows that the device did not know.
        func usableCheckpoints(store: MergedStore) throws(StintError) -> ((MergedPosition) -> Bool)? {
            if let seqLimits {
                return { position in position.seqs.allSatisfy { $0.value <= seqLimits[$0.key] ?? 0 } }
            }
            if let readingLimit {
                return { $0.lastKey.map { $0.hlc.milliseconds <= readingLimit.milliseconds } ?? false }
            }
            guard let lastEvent else { return { _ in true } }
            let log = try store.logs().first { $0.device == lastEvent.device }
            let event: RecordedEvent?
            do throws(LogError) {
                event = try log?.reader.events(from: lastEvent.seq).next()
            } catch {
                throw StintError(error)
            }
            guard let event, event.seq == lastEvent.seq else { return nil }
            let key = MergedBatchCursor.key(of: event, device: lastEvent.device)
            return { $0.lastKey.map { $0 < key } ?? false }
        }

        /// Whether the point is an instant or an event (`--at`, `--seq`): its events are a prefix of the merge
        /// order, which it may end before.
        var readsAPrefix: Bool { readingLimit != nil || lastEvent != nil }

        /// Whether a batch whose first event has `hlc` is after the point (and every later one).
        func ends(before hlc: HLC) -> Bool {
            guard let readingLimit else { return false }
            return hlc.milliseconds > readingLimit.milliseconds
        }

        func includes(_ seq: Int64, device: DeviceID) -> Bool {
            guard let seqLimits else { return true }
            return seq <= seqLimits[device] ?? 0
        }

        /// Whether the point is reached after the event `seq` of `device`.
        func isComplete(after seq: Int64, device: DeviceID) -> Bool {
            guard let lastEvent else { return false }
            return device == lastEvent.device && seq >= lastEvent.seq
        }

        /// `(device, n)` when the replica holds that event.
        static func existing(_ device: DeviceID, _ n: Int64, store: MergedStore) throws(StintError)
            -> (device: DeviceID, seq: Int64)
        {
            let held = try store.frontier().heads[device]?.seq ?? 0
            guard held >= n else {
                throw StintError(
                    .refused,
                    held == 0
                        ? "this replica holds no event of device \(device); 'stint devices' lists the devices"
                        : "this replica holds \(held) events of device \(device), so there is no seq \(n); use 1…\(held)"
                )
            }
            return (device, n)
        }

        /// What `device` had seen at `instant` (everything it wrote when nil): per device, the last `seq`.
        static func knowledge(of device: DeviceID, at instant: Instant?, store: MergedStore) throws(StintError)
            -> [DeviceID: Int64]
        {
            guard let reader = try store.logs().first(where: { $0.device == device })?.reader else {
                throw StintError(
                    .refused, "this replica holds no event of device \(device); 'stint devices' lists the devices")
            }
            var limits: [DeviceID: Int64] = [:]
            do throws(LogError) {
                let events = try reader.events(from: 1)
                while let event = try events.next() {
                    if let instant, event.at > instant { break }
                    limits[device] = event.seq
                    guard event.type == EventType.syncIngested.rawValue,
                        case .syncIngested(let from, let upTo, _)? = try? DomainEvent(event)
                    else { continue }
                    limits[from] = max(limits[from] ?? 0, upTo)
                }
            } catch {
                throw StintError(error)
            }
            guard !limits.isEmpty else {
                throw StintError(
                    .refused,
                    "device \(device) had written nothing by \(instant?.iso8601 ?? "now"); choose a later time")
            }
            return limits
        }
    }
}
