// The seeded file-sync tool between the devices' views of the sync folder: it copies files of
// `devices/<id>/` from one view to another, late, twice, cut short, as an older version, or removes them,
// and stops copying between partitioned pairs for a while (decision 0007 §9).
import StintCore

/// What the copier did to a file, counted for the report.
enum Fault: String, CaseIterable {
    case copied, delayed, duplicated, torn, stale, evicted, partitioned
}

final class Copier {
    /// A file on its way to a view.
    struct Delivery {
        var to: Int
        var device: DeviceID
        var name: String
        var bytes: [UInt8]
        var due: Int
    }

    let devices: [SimDevice]
    private(set) var inFlight: [Delivery] = []
    /// Per pair (lower index, higher index), the step until which the pair does not copy.
    private var partitions: [[Int]: Int] = [:]
    /// Every version of every file the copier has read, oldest first: what a stale copy re-delivers.
    private var versions: [String: [[UInt8]]] = [:]
    private(set) var counts: [Fault: Int] = [:]

    init(devices: [SimDevice]) { self.devices = devices }

    /// The directory of `device`'s log in view `view`.
    func directory(_ device: DeviceID, inView view: Int) -> String {
        "\(devices[view].view)/devices/\(device)"
    }

    private func owner(_ device: DeviceID) -> Int { devices.firstIndex { $0.id == device }! }

    /// Reads a file of a view, remembering its version.
    private func read(_ device: DeviceID, _ name: String, inView view: Int) -> [UInt8]? {
        guard let bytes = Files.read("\(directory(device, inView: view))/\(name)") else { return nil }
        let key = "\(device)/\(name)"
        if versions[key]?.last != bytes { versions[key, default: []].append(bytes) }
        return bytes
    }

    private func write(_ bytes: [UInt8], _ device: DeviceID, _ name: String, toView view: Int) {
        Files.write(bytes, to: "\(directory(device, inView: view))/\(name)")
    }

    private func count(_ fault: Fault) { counts[fault, default: 0] += 1 }

    func isPartitioned(_ a: Int, _ b: Int, at step: Int) -> Bool {
        (partitions[[min(a, b), max(a, b)]] ?? 0) > step
    }

    /// One step of the copier: deliveries that are due arrive, sometimes a pair is partitioned, and a few
    /// files are copied (or mistreated) between views that are not partitioned.
    func step(_ step: Int, random: inout SplitMix64) {
        let due = inFlight.filter { $0.due <= step }
        inFlight.removeAll { $0.due <= step }
        for delivery in due {
            write(delivery.bytes, delivery.device, delivery.name, toView: delivery.to)
        }
        if Int.random(in: 0..<20, using: &random) == 0 {
            let a = Int.random(in: 0..<devices.count, using: &random)
            let b = (a + Int.random(in: 1..<devices.count, using: &random)) % devices.count
            partitions[[min(a, b), max(a, b)]] = step + Int.random(in: 3...25, using: &random)
            count(.partitioned)
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) { copyOne(step, random: &random) }
    }

    /// Copies one file of one device's directory from one view to another, with a fault now and then.
    private func copyOne(_ step: Int, random: inout SplitMix64) {
        let from = Int.random(in: 0..<devices.count, using: &random)
        let to = (from + Int.random(in: 1..<devices.count, using: &random)) % devices.count
        guard !isPartitioned(from, to, at: step) else { return }
        // A device's own directory in its own view is written by that device alone.
        let candidates = devices.map(\.id).filter { $0 != devices[to].id }
        let device = candidates[Int.random(in: 0..<candidates.count, using: &random)]
        let names = Files.names(in: directory(device, inView: from)).filter { !$0.hasSuffix(".tmp") }
        guard let name = names.randomElement(using: &random), let bytes = read(device, name, inView: from) else {
            return
        }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<60:
            write(bytes, device, name, toView: to)
            count(.copied)
        case 60..<75:
            inFlight.append(
                Delivery(
                    to: to, device: device, name: name, bytes: bytes, due: step + Int.random(in: 1...20, using: &random)
                ))
            count(.delayed)
        case 75..<80:
            write(bytes, device, name, toView: to)
            inFlight.append(
                Delivery(
                    to: to, device: device, name: name, bytes: bytes, due: step + Int.random(in: 1...20, using: &random)
                ))
            count(.duplicated)
        case 80..<88:
            write(
                Array(bytes.prefix(Int.random(in: 0..<max(bytes.count, 1), using: &random))), device, name, toView: to)
            count(.torn)
        case 88..<95:
            let older = versions["\(device)/\(name)"] ?? []
            if let stale = older.dropLast().randomElement(using: &random) {
                write(stale, device, name, toView: to)
                count(.stale)
            }
        default:
            Files.remove("\(directory(device, inView: to))/\(name)")
            count(.evicted)
        }
    }

    /// Heals the folder: partitions closed, everything in flight delivered, then every device's directory
    /// copied whole from the device's own view to every other view.
    func healAll() {
        partitions.removeAll()
        for delivery in inFlight { write(delivery.bytes, delivery.device, delivery.name, toView: delivery.to) }
        inFlight.removeAll()
        for source in devices.indices { deliverEverywhere(source) }
    }

    /// Copies device `source`'s directory from its own view to every other view, whole.
    func deliverEverywhere(_ source: Int) {
        let device = devices[source].id
        let names = Files.names(in: directory(device, inView: source)).filter { !$0.hasSuffix(".tmp") }
        for target in devices.indices where target != source {
            for name in names {
                if let bytes = read(device, name, inView: source) { write(bytes, device, name, toView: target) }
            }
        }
    }
}
