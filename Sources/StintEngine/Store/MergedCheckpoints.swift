import Dispatch
import StintCore
@_spi(FaultInjection) import StintLog
import Synchronization

/// A replica's checkpoints of its merged fold (docs/log-format.md §7, decision 0007 §1.3): the fold after a
/// prefix of the merged history, so that a command or a read starts there instead of folding every device's
/// events again. Under `checkpoints/merged/` the newest, each at the frontier of the fold that left it; under
/// `checkpoints/merged-spaced/` those reads of earlier points leave along the history (``Spacing``).
///
/// A checkpoint holds its position (per device the last `seq` folded and the hash of that line) and the
/// merge key of the last event folded. It is used only when every device's log still holds
/// that line at that `seq` (no fork-off or replaced mirror since) and no event that sorts before that key
/// has arrived since (``MergedStore/batches(after:)`` refuses the position then: a device that was offline
/// wrote it). A checkpoint that fails either check never holds again and is removed; an older one may still
/// hold. Like every checkpoint it is a cache: deleting them changes nothing but speed.
struct MergedCheckpoints {
    let store: MergedStore
    /// The newest, at the frontier of the fold that left each.
    let checkpoints: CheckpointStore
    /// The spaced ones: the first past each of the newest ``spacedRetained`` multiples of the options'
    /// `checkpointSpacing` events.
    let spaced: CheckpointStore

    /// How many of the newest are kept: each holds the whole state (tens of megabytes at a million events).
    static let retained = 3
    /// How many spaced ones are kept besides: twelve in all, as a single log keeps.
    static let spacedRetained = 9

    init(store: MergedStore) {
        self.store = store
        let options = store.space.options
        var checkpoints = CheckpointStore(
            logDirectory: store.space.log, subdirectory: "merged", fileSystem: options.fileSystem)
        checkpoints.retained = Self.retained
        self.checkpoints = checkpoints
        var spaced = CheckpointStore(
            logDirectory: store.space.log, subdirectory: "merged-spaced", fileSystem: options.fileSystem)
        spaced.retained = 0
        spaced.spacing = (options.checkpointSpacing, Self.spacedRetained)
        self.spaced = spaced
    }

    /// Where a fold of the merged history starts: the newest checkpoint that still holds and whose position
    /// (each device's last `seq` folded, the key of the last event) is `usable` (a read of a past point takes
    /// only those before it), with the batches after it, or the start of the history.
    func start(where usable: (MergedPosition) -> Bool = { _ in true }) throws(StintError) -> (
        fold: MergedFold?, position: StorePosition?, cursor: MergedBatchCursor
    ) {
        var limit = Int64.max
        // Read a piece at a time: the payload (54 MB at a million events) is never held beside the fold.
        while let (holder, stream) = newestUnverified(atOrBefore: limit) {
            let seq = stream.header.head.seq
            limit = seq - 1
            let line = stream.readLine(maximum: Self.maximumLine)
            let header = line.flatMap(Self.header(ofLine:))
            if let header, !usable(MergedPosition(seqs: header.seqs, lastKey: header.lastKey)) {
                continue  // Past the point, not wrong: an older one may be before it.
            }
            guard let line, let header, let (fold, position) = restore(stream, header, lineSize: line.count) else {
                holder.remove(seq: seq)
                continue
            }
            do {
                let position = StorePosition(merged: position)
                return (fold, position, try store.mergedBatches(after: position))
            } catch {
                // Events that sort before it arrived, or a device's log it covers is gone: it never holds
                // again. Anything else (a failing read) the fold from the start meets and reports.
                if error.code == .positionSuperseded || error.category == .refused { holder.remove(seq: seq) }
            }
        }
        return (nil, nil, try store.mergedBatches(after: nil))
    }

    /// The newest checkpoint of either kind at or before `seq`, opened, and the store that holds it.
    private func newestUnverified(atOrBefore seq: Int64) -> (CheckpointStore, CheckpointStream)? {
        let version = MergedFold.checkpointVersion
        let newest = checkpoints.openNewestUnverified(atOrBefore: seq, recordedAtOrBefore: nil, version: version)
        let spacedOne = spaced.openNewestUnverified(atOrBefore: seq, recordedAtOrBefore: nil, version: version)
        switch (newest, spacedOne) {
        case (let newest?, let spacedOne?):
            return newest.header.head.seq >= spacedOne.header.head.seq ? (checkpoints, newest) : (spaced, spacedOne)
        case (let newest?, nil): return (checkpoints, newest)
        case (nil, let spacedOne?): return (spaced, spacedOne)
        case (nil, nil): return nil
        }
    }

    /// Leaves a checkpoint of `fold` when it advanced the options' `checkpointInterval` events past `started`
    /// (where it started from) and folded everything the replica holds now (whose frontier it then records),
    /// unless the options keep reads from writing checkpoints.
    func saveIfDue(_ fold: MergedFold, startedAt started: Int64, reached: MergedPosition?) {
        let options = store.space.options
        guard options.writesCheckpoints, fold.eventCount - started >= options.checkpointInterval, let reached,
            let lastKey = reached.lastKey,
            let frontier = try? store.frontier(),
            frontier.heads.mapValues(\.seq) == reached.seqs,
            !spaced.seqs().contains(fold.eventCount)  // A spaced one at the same point.
        else { return }
        save(fold, frontier: frontier, lastKey: lastKey, in: checkpoints)
    }

    /// Where a read of an earlier point (``MergedHistory/Filter/readsAPrefix``) leaves spaced checkpoints as
    /// it folds from `seq`: past each multiple of the options' `checkpointSpacing` events that has none yet,
    /// so that later reads of earlier points of a long history start near one, as a single log's
    /// ``Milestones`` do.
    struct Spacing {
        private let every: Int64
        private var next: Int64
        /// The lowest multiple worth one: those retention keeps are the newest of a history of `total` events.
        private let lowest: Int64
        /// The multiples that have a checkpoint already (read once, when the first is passed).
        private var present: Set<Int64>?

        /// The spacing of a fold from `seq` of a history of `total` events.
        init(after seq: Int64, of total: Int64, options: EngineOptions) {
            every = max(1, options.checkpointSpacing)
            next = Milestones.multiple(after: seq, of: every)
            lowest = total / every - Int64(MergedCheckpoints.spacedRetained) + 1
        }

        /// Whether a spaced checkpoint is due now that the fold holds `count` events (at the end of a batch).
        mutating func isDue(at count: Int64, in checkpoints: MergedCheckpoints) -> Bool {
            guard count >= next else { return false }
            next = Milestones.multiple(after: count, of: every)
            // One the retention would remove as soon as the newer ones were there is not written.
            guard count / every >= lowest else { return false }
            if present == nil { present = Set(checkpoints.spaced.seqs().map { $0 / every }) }
            return present!.insert(count / every).inserted
        }
    }

    /// Leaves a spaced checkpoint (``Spacing``) of `fold` at `position`, a prefix of the merged history at or
    /// short of the frontier: each device's head there is read from its log.
    func saveSpaced(_ fold: MergedFold, at position: MergedPosition) {
        guard store.space.options.writesCheckpoints, let lastKey = position.lastKey, let logs = try? store.logs()
        else { return }
        var heads: [DeviceID: Frontier.Head] = [:]
        for (device, seq) in position.seqs {
            guard let reader = logs.first(where: { $0.device == device })?.reader,
                let head = (try? reader.head(at: seq)) ?? nil
            else { return }
            heads[device] = Frontier.Head(seq: head.seq, hash: head.hash)
        }
        save(fold, frontier: Frontier(heads: heads), lastKey: lastKey, in: spaced)
    }

    /// Writes `fold` to `checkpoints` as the checkpoint of the merged history up to `frontier`, whose last
    /// event has `lastKey`.
    private func save(_ fold: MergedFold, frontier: Frontier, lastKey: MergeKey, in checkpoints: CheckpointStore) {
        var header = JSONObjectBuilder()
        header.add(
            "devices",
            .array(
                frontier.heads.keys.sorted().map {
                    .array([$0.json, .int(frontier.heads[$0]!.seq), .string(frontier.heads[$0]!.hash)])
                }))
        header.add("lastKey", lastKey.json)
        var line = header.json.encoded()
        line.append(0x0A)
        // The records' order (by id) sorted on a thread of its own while this one counts the parts' sizes,
        // which the file names before them; then the parts are encoded a megabyte at a time on a thread of
        // their own while this one compresses and stores what is ready: never held whole (about 54 MB at a
        // million events). The read-ahead threads are done by now, but for a spaced one, written on the way.
        let sorted = Mutex<MergedFold.CheckpointOrder?>(nil)
        let done = DispatchSemaphore(value: 0)
        WorkerThread.start {
            let order = fold.checkpointOrder
            sorted.withLock { $0 = order }
            done.signal()
        }
        let size = fold.checkpointSize
        done.wait()
        guard let order = sorted.withLock({ $0 }) else { return }
        checkpoints.save(
            size: line.count + size.total, head: LogHead(seq: fold.eventCount, hash: frontier.hash), at: fold.lastAt,
            version: MergedFold.checkpointVersion
        ) { write in
            line.withUnsafeBytes { write($0) }
            ByteHandOff.run(
                produce: { emit in fold.writeCheckpoint(order: order, size: size, chunk: 1 << 20, into: emit) },
                consume: write)
        }
    }

    /// The fold and position of a checkpoint's payload (the rest of `stream`, after its line of `lineSize`
    /// bytes), when every device's log still holds the line the checkpoint's frontier names and the file
    /// proves whole once read.
    private func restore(_ stream: CheckpointStream, _ header: Header, lineSize: Int) -> (MergedFold, MergedPosition)? {
        guard let logs = try? store.logs() else { return nil }
        // A device that has not advanced since has its head at hand; another's log is read up to `seq`.
        let last = try? store.lastEvents()
        var seqs: [DeviceID: Int64] = [:]
        for entry in header.devices {
            guard let fields = entry.arrayValue, fields.count == 3, let device = try? DeviceID(json: fields[0]),
                let seq = fields[1].intValue, let hash = fields[2].stringValue,
                let reader = logs.first(where: { $0.device == device })?.reader
            else { return nil }
            let head = last?[device]?.head.seq == seq ? last?[device]?.head : (try? reader.head(at: seq)) ?? nil
            guard head?.hash == hash else { return nil }
            seqs[device] = seq
        }
        guard let fold = try? MergedFold(checkpointFrom: stream, size: stream.size - lineSize - 1), stream.finish()
        else { return nil }
        return (fold, MergedPosition(seqs: seqs, lastKey: header.lastKey))
    }

    /// The longest payload line accepted (a few dozen bytes per device).
    static let maximumLine = 1 << 20

    /// A checkpoint payload's JSON line: per device the last `seq` folded and the hash of that line, and the
    /// merge key of the last event folded.
    private struct Header {
        var devices: [JSON]
        /// Each device's last `seq` folded (from `devices`).
        var seqs: [DeviceID: Int64]
        var lastKey: MergeKey
    }

    private static func header(ofLine line: [UInt8]) -> Header? {
        guard let header = try? JSON.parse(line), let devices = header["devices"]?.arrayValue,
            let lastKey = header["lastKey"].flatMap(MergeKey.init(json:))
        else { return nil }
        var seqs: [DeviceID: Int64] = [:]
        for entry in devices {
            guard let fields = entry.arrayValue, fields.count == 3, let device = try? DeviceID(json: fields[0]),
                let seq = fields[1].intValue
            else { return nil }
            seqs[device] = seq
        }
        return Header(devices: devices, seqs: seqs, lastKey: lastKey)
    }
}
