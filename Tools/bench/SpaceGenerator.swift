import Foundation
import Glibc
import StintCore
@_spi(FaultInjection) import StintLog
import ToolSupport

/// `stint-bench space`: the history of a single log (format 1, as `stint-generate` writes it) split across
/// the logs of several devices of one space (format 2, docs/decisions/0007), as they would have written it
/// with a sync tool that delivers everything before each command, for `make bench`'s `sync` group.
///
///   stint-bench space <single-log> <output> [--devices 3] [--seed S] [--tail K]
///
/// Writes `<output>/space/space.json` and `<output>/space/devices/<id>/` (each device's log), and
/// `<output>/space.manifest.json`. Each UTC day of the history is worked on one device drawn at random; the
/// undo or redo of a batch goes to the device that wrote the batch it names (per-device undo, rule 11), with
/// the batch it names renumbered to that device's `seq`. Before every batch on another device than the last
/// one, that device ingests what the others wrote since its last ingestion (one `sync.ingested` per device that
/// advanced, skipped when they wrote only bookkeeping, as `stint sync` does), and every batch's `hlc` is
/// received from the newest of the other devices, so the merge order (hlc, device, seq) is the single log's
/// order: a replica's merged fold sees the same records as the single log, with the bookkeeping of a space.
/// The second and later devices start with `device.joined` after the founder's `log.created`.
///
/// With `--tail K`, the last K events of the history are written on the second device after a copy of its log is
/// kept as `<output>/before-tail/<id>/`: a folder holding that copy is the space before it wrote them.
struct SpaceGenerator {
    /// A clock the writers read, set to each source batch's `at` before it is appended.
    final class Reading: @unchecked Sendable {
        var now = Instant(milliseconds: 0)
    }

    let source: String
    let output: String
    let count: Int
    let seed: UInt64
    let tail: Int64

    static let usage = "usage: stint-bench space <single-log> <output> [--devices N] [--seed S] [--tail K]"

    init(arguments: [String]) {
        guard arguments.count >= 3 else { fail(SpaceGenerator.usage) }
        source = arguments[1]
        output = arguments[2]
        count = value(of: "--devices", in: arguments).flatMap { Int($0) } ?? 3
        seed = value(of: "--seed", in: arguments).flatMap { UInt64($0) } ?? 1
        tail = value(of: "--tail", in: arguments).flatMap { Int64($0) } ?? 0
        guard (2...16).contains(count), tail >= 0 else { fail(SpaceGenerator.usage) }
    }

    func run() throws {
        // Not the seed alone: stint-generate draws the log id from SplitMix64(seed), which would make the first
        // device id read like the space id.
        var random = SplitMix64(seed: seed ^ 0x5350_4143_4553)
        let devices = (0..<count).map { _ in DeviceID(using: &random) }
        let folder = output + "/space"
        let files = FileManager.default
        guard !files.fileExists(atPath: output) else { fail("\(output) exists; remove it first") }
        try files.createDirectory(atPath: folder + "/devices", withIntermediateDirectories: true)
        let reader = try LogReader(path: source)
        let total = try reader.lastSeq()
        let cursor = try reader.batches()
        guard let genesis = try cursor.next(), case .logCreated(let settings)? = try? DomainEvent(genesis.events[0])
        else { fail("\(source) does not begin with log.created") }
        let description = JSON.object([
            "space": .int(1), "spaceId": .string(settings.logId.uuidString),
            "timeZone": .string(settings.calendar.timeZoneIdentifier),
            "firstWeekday": .int(Int64(settings.calendar.firstWeekday)),
        ]).encoded()
        try Data(description).write(to: URL(fileURLWithPath: folder + "/space.json"))

        let reading = Reading()
        reading.now = genesis.events[0].at
        var writers: [LogWriter] = []
        // Per device: the hlc of its last batch, the last seq of a batch that is not bookkeeping, and what it
        // ingested of each other device.
        var last: [HLC] = []
        var lastContent: [Int64] = Array(repeating: 0, count: count)
        var ingested: [[Int64]] = Array(repeating: Array(repeating: 0, count: count), count: count)
        var events: [Int64] = Array(repeating: 0, count: count)
        var batches: [Int64] = Array(repeating: 0, count: count)
        var bookkeeping = 0

        func configuration(_ device: DeviceID) -> LogConfiguration {
            var configuration = LogConfiguration(clock: { reading.now }, device: device)
            configuration.fileSystem = NoSyncFileSystem()
            return configuration
        }
        func newestOther(than index: Int) -> HLC? {
            last.indices.filter { $0 != index }.map { last[$0] }.max()
        }
        func appended(_ index: Int, _ recorded: [RecordedEvent], content: Bool) {
            last[index] = recorded[0].hlc!
            events[index] += Int64(recorded.count)
            batches[index] += 1
            if content { lastContent[index] = recorded[recorded.count - 1].seq } else { bookkeeping += recorded.count }
        }
        /// What `stint sync` on device `index` writes before its next command.
        func ingest(_ index: Int) throws {
            let others = (0..<writers.count).filter { $0 != index }.sorted { devices[$0] < devices[$1] }
            guard others.contains(where: { lastContent[$0] > ingested[index][$0] }) else { return }
            var drafts: [EventDraft] = []
            for other in others {
                guard let head = writers[other].head, head.seq > ingested[index][other] else { continue }
                drafts.append(DomainEvent.syncIngested(from: devices[other], upTo: head.seq, head: head.hash).draft)
                ingested[index][other] = head.seq
            }
            appended(index, try writers[index].append(drafts, receiving: newestOther(than: index)), content: false)
        }

        let founder = try LogWriter.create(
            at: folder + "/devices/\(devices[0])", settingsEvent: EventDraft(genesis.events[0]),
            configuration: configuration(devices[0]))
        writers.append(founder)
        // The stamps are read back, as a writer keeps its clock to itself.
        last.append(try LogReader(path: folder + "/devices/\(devices[0])").events().next()!.hlc!)
        events[0] = 1
        batches[0] = 1
        for index in 1..<count {
            let joined = DomainEvent.deviceJoined(
                spaceId: settings.logId, device: devices[index], name: "bench-\(index)")
            let writer = try LogWriter.create(
                at: folder + "/devices/\(devices[index])", settingsEvent: joined.draft,
                configuration: configuration(devices[index]), receiving: last.max())
            writers.append(writer)
            last.append(try LogReader(path: folder + "/devices/\(devices[index])").events().next()!.hlc!)
            events[index] = 1
            batches[index] = 1
            bookkeeping += 1
            try ingest(index)
        }

        // Source batch start → (device, the device's seq of that batch's first event), for undo and redo.
        var starts: [Int64: (device: Int, seq: Int64)] = [:]
        var day: Int64 = -1
        var current = 0
        var previous = -1
        var tailCopied = tail == 0
        while let batch = try cursor.next() {
            let first = batch.events[0]
            var drafts = batch.events.map(EventDraft.init)
            var device: Int
            let inTail = tail > 0 && first.seq > total - tail
            if first.at.milliseconds / 86_400_000 != day {
                day = first.at.milliseconds / 86_400_000
                current = Int(random.next() % UInt64(count))
            }
            device = inTail ? 1 : current
            switch try DomainEvent(first) {
            case .commandUndone(let tx):
                guard let start = starts[tx] else { fail("seq \(first.seq) undoes batch \(tx), which was not seen") }
                device = start.device
                drafts[0] = DomainEvent.commandUndone(tx: start.seq).draft
            case .commandRedone(let tx):
                guard let start = starts[tx] else { fail("seq \(first.seq) redoes batch \(tx), which was not seen") }
                device = start.device
                drafts[0] = DomainEvent.commandRedone(tx: start.seq).draft
            default: break
            }
            if inTail && !tailCopied {
                tailCopied = true
                let name = "\(devices[device])"
                try files.createDirectory(atPath: output + "/before-tail", withIntermediateDirectories: true)
                try files.copyItem(atPath: folder + "/devices/" + name, toPath: output + "/before-tail/" + name)
            }
            reading.now = first.at
            if device != previous { try ingest(device) }
            previous = device
            let recorded = try writers[device].append(drafts, receiving: newestOther(than: device))
            starts[first.seq] = (device, recorded[0].seq)
            appended(device, recorded, content: true)
        }
        if let warning = cursor.warning { fail("\(source) is damaged: \(warning.message)") }
        for writer in writers { writer.close() }
        sync()

        var manifest = JSONObjectBuilder()
        manifest.add("source", .string(source))
        manifest.add("sourceEvents", .int(total))
        manifest.add("seed", .int(Int64(seed)))
        manifest.add("events", .int(events.reduce(0, +)))
        manifest.add("bookkeepingEvents", .int(Int64(bookkeeping)))
        manifest.add("tail", .int(tail))
        manifest.add("tailDevice", .string(tail > 0 ? "\(devices[1])" : ""))
        manifest.add(
            "devices",
            .array(
                devices.indices.map { index in
                    JSON.object([
                        "id": .string("\(devices[index])"), "events": .int(events[index]),
                        "batches": .int(batches[index]),
                    ])
                }))
        try Data(manifest.json.prettyEncoded().utf8).write(to: URL(fileURLWithPath: output + "/space.manifest.json"))
        print(manifest.json.encodedString)
    }
}

extension EventDraft {
    /// The draft that writes `event`'s payload again.
    init(_ event: RecordedEvent) {
        self.init(type: event.type, version: event.version, data: event.data)
    }
}
