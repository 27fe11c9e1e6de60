import Testing

@testable import StintCore

/// A scripted space for merged-fold tests: devices that each decide commands with the real decider on their
/// own view (their log and what they ingested), stamp batches with a hybrid logical clock as a writer does,
/// and ingest each other's logs with `sync.ingested`. ``merged`` is the history every replica folds.
struct SpaceHistory {
    static let spaceId = TestLog.logId
    static let a = DeviceID("a1b2c3d4000000000000000000000001")!
    static let b = DeviceID("9f8e7d6c000000000000000000000002")!
    static let c = DeviceID("5be0cd19000000000000000000000003")!

    var logs: [DeviceID: [RecordedEvent]] = [:]
    var clocks: [DeviceID: HybridLogicalClock] = [:]
    /// Per device, per other device, the last seq it ingested.
    var known: [DeviceID: [DeviceID: Int64]] = [:]
    var now: Instant
    let ids = SequentialIDs()

    /// A space founded by device A (`log.created` at seq 1), with `devices` joined and synced.
    init(devices: [DeviceID] = [a, b], now: String = "2026-11-30T09:00:00.000Z") {
        self.now = instant(now)
        let founder = devices[0]
        let calendar = LogCalendar(timeZone: "UTC", firstWeekday: 2)!
        for device in devices { clocks[device] = HybridLogicalClock() }
        append([.logCreated(LogSettings(logId: Self.spaceId, calendar: calendar))], on: founder)
        // A joining device reads the space before it writes: its first reading is after the founder's.
        let genesis = logs[founder]!.last!.hlc!
        for device in devices.dropFirst() {
            let reading = try! clocks[device]!.receive(genesis, now: self.now)
            append([.deviceJoined(spaceId: Self.spaceId, device: device, name: nil)], on: device, reading: reading)
        }
        for device in devices { sync(device) }
    }

    /// Appends `batch` to `device`'s log, stamped with a tick of its clock (or `reading`).
    mutating func append(_ batch: [DomainEvent], on device: DeviceID, reading: HLC? = nil) {
        guard !batch.isEmpty else { return }
        let hlc = reading ?? (try! clocks[device]!.tick(now: now))
        let log = logs[device] ?? []
        let start = Int64(log.count) + 1
        logs[device] =
            log
            + batch.enumerated().map { index, event in
                let draft = event.draft
                return RecordedEvent(
                    seq: start + Int64(index), at: now, type: draft.type, version: draft.version,
                    tx: batch.count > 1 ? start : nil, device: device, hlc: hlc, prev: RecordedEvent.genesisPrev,
                    data: draft.data)
            }
    }

    /// `device` ingests every other device's whole log (one `sync.ingested` batch, as ingestion writes).
    mutating func sync(_ device: DeviceID) {
        var batch: [DomainEvent] = []
        var remote = HLC.zero
        for (other, log) in logs.sorted(by: { $0.key < $1.key }) where other != device {
            guard let last = log.last, last.seq > known[device]?[other] ?? 0 else { continue }
            batch.append(.syncIngested(from: other, upTo: last.seq, head: String(repeating: "0", count: 64)))
            known[device, default: [:]][other] = last.seq
            remote = max(remote, last.hlc!)
        }
        guard !batch.isEmpty else { return }
        append(batch, on: device, reading: try! clocks[device]!.receive(remote, now: now))
    }

    /// Every event `device` holds: its own and the prefixes it ingested, in merge order.
    func view(of device: DeviceID) -> [RecordedEvent] {
        let sequences = logs.map { other, log in
            other == device ? log : Array(log.prefix { $0.seq <= known[device]?[other] ?? 0 })
        }
        return try! MergeOrder.merge(sequences, key: Self.key)
    }

    static func key(_ event: RecordedEvent) -> MergeKey {
        MergeKey(hlc: event.hlc!, device: event.device!, seq: event.seq)
    }

    /// The merged history of every device.
    var merged: [RecordedEvent] { try! MergeOrder.merge(Array(logs.values), key: Self.key) }

    /// Decides `command` on `device`'s view (its stacks, the space's tag ids) and appends the batch.
    @discardableResult
    mutating func run(_ command: Command, on device: DeviceID) throws -> Decision {
        let fold = try MergedFold.fold(view(of: device))
        var context = DecisionContext(now: now, newID: ids.next)
        context.space = Self.spaceId
        let decision = try decide(command, state: fold.state(for: device), context: context)
        append(decision.events, on: device)
        return decision
    }

    /// The state `device` sees now.
    func state(of device: DeviceID) throws -> LogState { try MergedFold.fold(view(of: device)).state(for: device) }

    mutating func advance(minutes: Int64) { now = now.adding(milliseconds: minutes * 60_000) }

    func time(_ text: String) -> ParsedTime {
        ParsedTime(instant("2026-11-30T\(text):00.000Z"), text: text)
    }

    /// The fold of the merged history.
    func fold() throws -> MergedFold { try MergedFold.fold(merged) }

    /// The seq of the last event of `device`'s log.
    func lastSeq(_ device: DeviceID) -> Int64 { logs[device]?.last?.seq ?? 0 }
}
