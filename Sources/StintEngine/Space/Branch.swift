import StintCore
import StintLog

/// The branch of a forked device that is not the sync folder's, re-labelled as a new device
/// (docs/decisions/0007 §6.3): the new device's log, written the same, byte for byte, by every replica that
/// re-labels the same branch.
struct Branch {
    /// The device that forked.
    var device: DeviceID
    /// The first `seq` of the branch.
    var seq: Int64
    /// The branch's batches, from `seq` on, as this replica holds them.
    var batches: [LogBatch]
    /// The head of the line before the branch (`seq` − 1), which both branches share.
    var base: LogHead

    /// The device the branch becomes.
    var newDevice: DeviceID {
        DeviceID.forked(from: device, at: seq, lineHash: LogHead(of: batches[0].events[0]).hash)
    }

    /// The new device's log: `first` (the `device.forked` event) stamped with the reading and instant of the
    /// branch's line `seq`, then every batch of the branch with the new device, `seq` from 2, `tx` renumbered,
    /// the same `at`, `hlc`, types and data, and a new chain.
    func relabelled(first: EventDraft) throws(StintError) -> [[RecordedEvent]] {
        let device = newDevice
        var log: [[RecordedEvent]] = []
        var encoder = BatchEncoder(lastEvent: nil, lastDigest: nil)
        let start = batches[0].events[0]
        let batchesWithFirst =
            [(drafts: [first], at: start.at, hlc: start.hlc ?? HLC(impliedBy: start.at))]
            + batches.map { batch in
                let head = batch.events[0]
                return (
                    drafts: batch.events.map { EventDraft(type: $0.type, version: $0.version, data: $0.data) },
                    at: head.at, hlc: head.hlc ?? HLC(impliedBy: head.at)
                )
            }
        do throws(LogError) {
            for batch in batchesWithFirst {
                let encoded = try encoder.encode(batch.drafts, reading: batch.at, stamp: (device, batch.hlc))
                log.append(encoded.events)
                encoder = BatchEncoder(lastEvent: encoded.events.last, lastDigest: encoded.digest)
            }
        } catch {
            throw StintError(error)
        }
        return log
    }
}
