// "Ten random delivery orders of the same device logs fold to the same bytes": a copy of one replica without
// its mirrors gets the other devices' files in a random order, a file or two at a time (a torn copy now and
// then), ingesting after each, and must end with the same frontier and outputs as the replicas.
import StintCore
@_spi(FaultInjection) import StintEngine

struct DeliveryOrders {
    let root: String
    let devices: [SimDevice]

    /// Runs order number `number`; a description of what differs, or nil.
    func run(
        _ number: Int, random: RandomSource, frontier expected: String, outputs: ReplicaOutputs, now: Instant
    ) -> String? {
        let base = "\(root)/order-\(number)"
        let observer = devices[0]
        let log = "\(base)/device/log"
        let view = "\(base)/view"
        do {
            Files.makeDirectory(base)
            try Files.copyTree("\(root)/device-0", to: "\(base)/device")
            Files.remove("\(log)/mirrors")
            Files.write(Array("\(view)\n".utf8), to: "\(log)/space")
            Files.write(Files.read("\(observer.view)/space.json") ?? [], to: "\(view)/space.json")
            var options = observer.options
            let id = observer.id
            options.deviceIdentity = DeviceIdentity(file: "\(base)/device/state/stint/device") { id }
            // Per other device, its files in its own view, in name order (format, then segments by seq).
            var remaining: [(device: SimDevice, names: [String])] = devices.dropFirst().map { device in
                (device, Files.names(in: "\(device.view)/devices/\(device.id)").filter { !$0.hasSuffix(".tmp") })
            }
            while !remaining.isEmpty {
                let pick = random.int(0..<remaining.count)
                let (device, names) = remaining[pick]
                let count = random.int(1..<(names.count + 1))
                for (offset, name) in names.prefix(count).enumerated() {
                    let bytes = Files.read("\(device.view)/devices/\(device.id)/\(name)") ?? []
                    let target = "\(view)/devices/\(device.id)/\(name)"
                    if offset == count - 1, random.chance(20) {
                        Files.write(Array(bytes.prefix(random.int(0..<max(bytes.count, 1)))), to: target)
                        let store = try MergedStore.open(log: log, holdingLock: false, options: options)
                        defer { store.close() }
                        try store.ingest()
                    }
                    Files.write(bytes, to: target)
                }
                remaining[pick].names.removeFirst(count)
                if remaining[pick].names.isEmpty { remaining.remove(at: pick) }
                let store = try MergedStore.open(log: log, holdingLock: false, options: options)
                defer { store.close() }
                try store.ingest()
            }
            let frontier = try Space.open(log: log, options: options).frontier().hash
            guard frontier == expected else { return "order \(number): frontier \(frontier) ≠ \(expected)" }
            let seen = try ReplicaOutputs.read(log: log, options: options, now: now)
            if let different = seen.firstDifference(from: outputs) {
                return "order \(number): the \(different) differs from the replicas'"
            }
        } catch {
            return "order \(number): \(error)"
        }
        Files.remove(base)
        return nil
    }
}
