// "Ten random delivery orders of the same device logs fold to the same bytes": a copy of one replica without
// its mirrors gets the other devices' files in a random order, a file or two at a time (a torn copy now and
// then), ingesting after each, and must end with the same heads of the other devices and the same outputs as
// the replicas. (Its own head differs: its ingestions write `sync.ingested` batches of their own.)
import StintCore
@_spi(FaultInjection) import StintEngine

struct DeliveryOrders {
    let root: String
    let devices: [SimDevice]

    /// Runs order number `number`; a description of what differs, or nil.
    func run(
        _ number: Int, random: RandomSource, frontier expected: Frontier, outputs: ReplicaOutputs, now: Instant
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
                        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
                        defer { store.close() }
                        try store.ingest()
                    }
                    Files.write(bytes, to: target)
                }
                remaining[pick].names.removeFirst(count)
                if remaining[pick].names.isEmpty { remaining.remove(at: pick) }
                let store = try MergedStore.open(log: log, holdingLock: true, options: options)
                defer { store.close() }
                try store.ingest()
            }
            var heads = try Space.open(log: log, options: options).frontier().heads
            var wanted = expected.heads
            heads[observer.id] = nil
            wanted[observer.id] = nil
            guard heads == wanted else {
                let differing = wanted.keys.filter { heads[$0] != wanted[$0] }.map { String("\($0)".prefix(8)) }
                return
                    "order \(number): the heads of \(differing.sorted().joined(separator: ", ")) differ from the replicas'"
            }
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
