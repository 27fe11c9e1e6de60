// The checks after healing (decision 0007 §9), each a function of what the simulator recorded and what the
// replicas show, returning what it found wrong.
import StintCore

enum CheckName: String, CaseIterable {
    /// A replica could not fold or read its merged history, or a command failed as damage.
    case fold
    case frontier
    case outputs
    case exactlyOnce = "exactly-once"
    case deliveryOrders = "delivery-orders"
    case causality
    case fields
    case deletions
    /// A restored backup writing seqs that exist with other bytes is reported as a fork at the first of them.
    case forks
}

struct CheckFailure {
    var check: CheckName
    var detail: String
}

enum Checks {
    /// Every acknowledged event is in the history exactly once, with its bytes, and the history holds nothing
    /// else.
    static func exactlyOnce(_ history: [RecordedEvent], oracle: Oracle, replica: String) -> CheckFailure? {
        var seen: [MergeKey: Int] = [:]
        for event in history {
            let key = oracle.key(of: event)
            guard oracle.index(of: key.device) != nil else {
                return CheckFailure(check: .exactlyOnce, detail: "\(replica) holds event \(key) of an unknown device")
            }
            seen[key, default: 0] += 1
        }
        for acked in oracle.acked {
            let count = seen[acked.key] ?? 0
            if count != 1 {
                return CheckFailure(
                    check: .exactlyOnce, detail: "\(replica) holds acknowledged event \(acked.key) \(count) times")
            }
        }
        if history.count != oracle.acked.count {
            return CheckFailure(
                check: .exactlyOnce,
                detail: "\(replica) holds \(history.count) events, \(oracle.acked.count) were acknowledged")
        }
        let byKey = Dictionary(uniqueKeysWithValues: oracle.acked.map { ($0.key, $0.event) })
        for event in history {
            let key = oracle.key(of: event)
            if byKey[key] != event {
                return CheckFailure(
                    check: .exactlyOnce, detail: "\(replica)'s event \(key) differs from the acknowledged one")
            }
        }
        return nil
    }

    /// In `order`, every event comes after every event it causally follows.
    static func causality(_ order: [AckedEvent], deviceCount: Int, what: String) -> CheckFailure? {
        // Per device, the largest position of its events 1…seq.
        var position: [[Int64: Int]] = Array(repeating: [:], count: deviceCount)
        for (index, event) in order.enumerated() { position[event.device][event.event.seq] = index }
        var prefixMax: [[Int]] = []
        for device in 0..<deviceCount {
            var maxima: [Int] = [-1]
            let last = position[device].keys.max() ?? 0
            if last > 0 {
                for seq in 1...last { maxima.append(max(maxima[maxima.count - 1], position[device][seq] ?? -1)) }
            }
            prefixMax.append(maxima)
        }
        for (index, event) in order.enumerated() {
            for device in 0..<deviceCount where device != event.device {
                let known = Int(event.vector[device])
                guard known > 0, known < prefixMax[device].count else { continue }
                if prefixMax[device][known] > index {
                    let earlier = order[prefixMax[device][known]]
                    return CheckFailure(
                        check: .causality,
                        detail: "\(what): \(event.key) was written after its device had seen \(earlier.key), "
                            + "but sorts before it")
                }
            }
        }
        return nil
    }

    /// Each live record holds, per field, the value of the last event in merge order that set it; each
    /// deleted record is absent; no record is there that the commands did not make.
    static func intent(expected: RecordFold, actual: [EntityID: ExpectedRecord], what: String) -> [CheckFailure] {
        var failures: [CheckFailure] = []
        for id in expected.live.keys.sorted() {
            guard let record = actual[id] else {
                failures.append(CheckFailure(check: .deletions, detail: "\(what): live record \(id) is missing"))
                continue
            }
            let want = expected.live[id]!
            if want != record {
                var differing: [String] = []
                if want.start != record.start {
                    differing.append("start \(record.start.iso8601) ≠ \(want.start.iso8601)")
                }
                if want.end != record.end {
                    differing.append("end \(record.end?.iso8601 ?? "running") ≠ \(want.end?.iso8601 ?? "running")")
                }
                if want.tagId != record.tagId { differing.append("tag") }
                if want.comment != record.comment {
                    differing.append("comment \(record.comment ?? "none") ≠ \(want.comment ?? "none")")
                }
                failures.append(
                    CheckFailure(check: .fields, detail: "\(what): record \(id): \(differing.joined(separator: ", "))"))
            }
        }
        for id in actual.keys.sorted() where expected.live[id] == nil {
            let why = expected.deleted.contains(id) ? "was deleted and not restored" : "was never made"
            failures.append(CheckFailure(check: .deletions, detail: "\(what): record \(id) is there but \(why)"))
        }
        return failures
    }
}
