// What the simulator knows independently of the replicas: every acknowledged event, what each device had
// ingested when it wrote it (vector clocks), who created each record and tag, and which fields each
// command meant to set.
import StintCore

/// A field of a record.
enum Field: String, CaseIterable, Hashable {
    case start, end, tag, comment
}

/// An acknowledged event, as the device's TimeLog returned it.
struct AckedEvent {
    var device: Int
    var event: RecordedEvent
    var key: MergeKey
    /// Per device index, how many of its events this one causally follows (its own seq for its device).
    var vector: [Int64]
    /// For a `record.edited` decided from an `edit` command, the fields the command gave; nil when the event
    /// says itself what it sets (every field for a whole-record edit, the inverse of an undo).
    var editedFields: Set<Field>?
}

final class Oracle {
    let deviceIDs: [DeviceID]
    private(set) var acked: [AckedEvent] = []
    /// Per device index, per seq, the index into ``acked``.
    private var bySeq: [[Int64: Int]]
    /// Who created each record and tag.
    private(set) var recordOwner: [EntityID: Int] = [:]
    private(set) var tagOwner: [EntityID: Int] = [:]

    init(deviceIDs: [DeviceID]) {
        self.deviceIDs = deviceIDs
        bySeq = Array(repeating: [:], count: deviceIDs.count)
    }

    func index(of device: DeviceID) -> Int? { deviceIDs.firstIndex(of: device) }

    /// The vector of `device`'s next events, given what its replica holds of each device (`known[d]` = the
    /// last seq of device d in the replica).
    func vector(known: [Int64]) -> [Int64] {
        var vector = known
        for (other, seq) in known.enumerated() where seq > 0 {
            // Everything the last known event of `other` followed.
            guard let at = bySeq[other][seq] else { continue }
            for (index, value) in acked[at].vector.enumerated() { vector[index] = max(vector[index], value) }
        }
        return vector
    }

    /// Records a batch `device` appended, with the replica's frontier after it and the command's edit fields.
    func acknowledge(
        _ events: [RecordedEvent], device: Int, known: [Int64], editedFields: Set<Field>?
    ) {
        var vector = self.vector(known: known)
        for event in events {
            vector[device] = event.seq
            let key = MergeKey(hlc: event.hlc ?? HLC(impliedBy: event.at), device: deviceIDs[device], seq: event.seq)
            precondition(event.device == nil || event.device == deviceIDs[device], "an event of another device")
            var fields: Set<Field>? = nil
            if event.type == EventType.recordEdited.rawValue { fields = editedFields }
            bySeq[device][event.seq] = acked.count
            acked.append(AckedEvent(device: device, event: event, key: key, vector: vector, editedFields: fields))
            switch try? DomainEvent(event) {
            case .timerStarted(let id, _, _, _), .recordTracked(let id, _, _, _, _): recordOwner[id] = device
            case .tagCreated(let id, _, _): tagOwner[id] = device
            default: break
            }
        }
    }

    /// The last seq of `device` the oracle knows.
    func lastSeq(of device: Int) -> Int64 { bySeq[device].keys.max() ?? 0 }

    /// The merge key of an event of the history: an event without the envelope pair is the founder's (the
    /// events of a log before it became a space, decision 0007 §2.2 rule 5).
    func key(of event: RecordedEvent) -> MergeKey {
        MergeKey(hlc: event.hlc ?? HLC(impliedBy: event.at), device: event.device ?? deviceIDs[0], seq: event.seq)
    }

    /// The acknowledged events in merge order (hlc, device, seq), as the simulator computes it.
    var inMergeOrder: [AckedEvent] { acked.sorted { $0.key < $1.key } }

    /// Whether `a` happened before `b`: `b`'s device had seen `a` when it wrote `b`.
    static func happened(_ a: AckedEvent, before b: AckedEvent) -> Bool {
        !(a.device == b.device && a.event.seq == b.event.seq) && b.vector[a.device] >= a.event.seq
    }
}
