/// Where an event stands in the merged history of a space: (``hlc``, ``device``, ``seq``), compared in that
/// order (docs/decisions/0007-multi-device-sync.md, "The merge order").
///
/// An event written after its device saw another device's event has a greater `hlc`, so it sorts after it
/// whatever the clocks said; events no device had seen of each other are ordered by `hlc`, then device id;
/// `seq` orders the events of one device that share an `hlc` (those of one batch, or of a format-1 log).
public struct MergeKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hlc: HLC
    public var device: DeviceID
    public var seq: Int64

    public init(hlc: HLC, device: DeviceID, seq: Int64) {
        self.hlc = hlc
        self.device = device
        self.seq = seq
    }

    public static func < (lhs: MergeKey, rhs: MergeKey) -> Bool {
        if lhs.hlc != rhs.hlc { return lhs.hlc < rhs.hlc }
        if lhs.device != rhs.device { return lhs.device < rhs.device }
        return lhs.seq < rhs.seq
    }

    /// `(device, seq)`, as errors and `stint conflicts` name an event.
    public var description: String { "\(device):\(seq)" }
}

/// The merge of several devices' events into the one order every replica folds.
public enum MergeOrder {
    /// Merges `sequences`, one per device, each in its device's `seq` order, into the order of their
    /// ``MergeKey``s: the same result as sorting all the events by key, whatever the order of `sequences`.
    ///
    /// Each sequence is checked as it is merged: its events must name one device, with `seq` increasing and
    /// `hlc` never going back (the reader checks this first, and that `seq` is gapless; this is the merge's
    /// own guard, since a sequence out of order would make the result differ from the sort), and no
    /// two sequences may name the same device. A space holds a handful of devices, so the next event is
    /// found by scanning the sequences' heads (O(events × devices)).
    ///
    /// - Throws: ``SyncError/Code/sequenceOutOfOrder`` naming the (device, seq) that breaks the order,
    ///   ``SyncError/Code/duplicateDevice``.
    public static func merge<Element>(
        _ sequences: [[Element]], key: (Element) -> MergeKey
    ) throws(SyncError) -> [Element] {
        var seen = Set<DeviceID>()
        for sequence in sequences {
            guard let first = sequence.first else { continue }
            let device = key(first).device
            guard seen.insert(device).inserted else {
                throw SyncError(.duplicateDevice, "two sequences of events of device \(device) were merged")
            }
        }
        var positions = [Int](repeating: 0, count: sequences.count)
        var heads: [MergeKey?] = sequences.map { $0.first.map(key) }
        var merged: [Element] = []
        merged.reserveCapacity(sequences.reduce(0) { $0 + $1.count })
        while true {
            var chosen: Int?
            for index in heads.indices {
                guard let head = heads[index] else { continue }
                if let best = chosen, heads[best]! <= head { continue }
                chosen = index
            }
            guard let index = chosen else { return merged }
            let sequence = sequences[index]
            merged.append(sequence[positions[index]])
            positions[index] += 1
            let current = heads[index]!
            guard positions[index] < sequence.count else {
                heads[index] = nil
                continue
            }
            let next = key(sequence[positions[index]])
            guard next.device == current.device, next.seq > current.seq, next.hlc >= current.hlc else {
                throw SyncError(
                    .sequenceOutOfOrder,
                    "event \(next) does not follow event \(current) of its device (hlc \(next.hlc) after "
                        + "\(current.hlc)); the device's log is damaged")
            }
            heads[index] = next
        }
    }
}
