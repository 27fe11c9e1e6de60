// One seed of the simulation: the devices join one space, run random commands and sync through views of the
// sync folder that a faulty copier connects; after healing, the checks.
import StintCore
@_spi(FaultInjection) import StintEngine
import StintLog

final class Simulation {
    let seed: UInt64
    let arguments: SimArguments
    let root: String
    let trueTime = TrueTime()
    let random: RandomSource
    var devices: [SimDevice] = []
    var copier: Copier!
    var oracle: Oracle!
    var generators: [CommandGenerator] = []
    /// Commands appended, refused (by the domain: nothing appended), skipped (nothing to act on).
    var appended = 0
    var refused = 0
    /// Commands killed mid-batch, and how many of those left a durable batch.
    var kills = 0
    var survivedKills = 0
    var failures: [CheckFailure] = []
    /// The copy of a replica the restored-backup fault puts back, and the step it is taken at.
    var backup: RestoredBackup?
    var backupStep = -1

    init(seed: UInt64, arguments: SimArguments) {
        self.seed = seed
        self.arguments = arguments
        root = Files.temporaryDirectory(seed: seed)
        random = RandomSource(seed: seed)
    }

    deinit {
        for device in devices { device.close() }
        if !arguments.keepFiles { Files.remove(root) }
    }

    /// Runs the seed and returns what failed.
    func run() -> [CheckFailure] {
        do {
            try setUp()
            // A replica whose merged history does not fold refuses every command; the others go on, and the
            // controls, which fold the acknowledged events themselves, are still checked.
            for step in 0..<arguments.steps { try self.step(step) }
            try heal()
            check()
        } catch {
            failures.append(CheckFailure(check: .fold, detail: "\(error)"))
        }
        return failures
    }

    // MARK: Setting up

    private func setUp() throws {
        for index in 0..<arguments.devices {
            devices.append(SimDevice(index: index, root: root, trueTime: trueTime, random: &random.generator))
        }
        oracle = Oracle(deviceIDs: devices.map(\.id))
        copier = Copier(devices: devices)
        generators = devices.indices.map {
            CommandGenerator(device: $0, conflicts: arguments.conflicts, oracle: oracle, random: random, tagNames: 0)
        }
        let founder = devices[0]
        try TimeLog.create(at: founder.log, timeZone: "UTC", firstWeekday: 2, options: founder.options).close()
        _ = try Space.initSpace(log: founder.log, folder: founder.view, options: founder.options)
        try acknowledgeOwnLog(of: founder)
        let description = Files.read("\(founder.view)/space.json") ?? []
        for device in devices.dropFirst() { Files.write(description, to: "\(device.view)/space.json") }
        copier.deliverEverywhere(0)
        for device in devices.dropFirst() {
            trueTime.advance(by: 1_000)
            _ = try Space.joinSpace(
                log: device.log, folder: device.view, name: "device-\(device.index)", options: device.options)
            try acknowledgeOwnLog(of: device)
        }
        for device in devices { try device.open() }
        // The restored-backup control copies the replica after the last step: nothing diverges, no fork.
        backupStep = arguments.control == .currentBackup ? -1 : random.int(0..<arguments.steps)
    }

    /// Takes into the oracle the events of a device's own log after the last one it knows: its first batch,
    /// its ingestion batches (`sync.ingested`), a batch a kill interrupted that is durable all the same, and a
    /// command's batch (whose edit fields are `edited`, from `commandSeq` on).
    private func acknowledgeOwnLog(of device: SimDevice, edited: Set<Field>? = nil, commandSeq: Int64 = .max) throws {
        let cursor = try LogReader(path: device.log).events(from: oracle.lastSeq(of: device.index) + 1)
        var events: [RecordedEvent] = []
        while let event = try cursor.next() { events.append(event) }
        guard !events.isEmpty else { return }
        let known = try known(by: device)
        let before = events.filter { $0.seq < commandSeq }
        let command = events.filter { $0.seq >= commandSeq }
        if !before.isEmpty { oracle.acknowledge(before, device: device.index, known: known, editedFields: nil) }
        if !command.isEmpty { oracle.acknowledge(command, device: device.index, known: known, editedFields: edited) }
    }

    /// `stint sync` on `device`, and its ingestion batch into the oracle.
    private func sync(_ device: SimDevice) throws {
        try device.sync()
        try acknowledgeOwnLog(of: device)
    }

    /// Per device, the last seq the replica of `device` holds.
    private func known(by device: SimDevice) throws(StintError) -> [Int64] {
        let frontier = try device.frontier()
        return devices.map { frontier.heads[$0.id]?.seq ?? 0 }
    }

    // MARK: Steps

    private func step(_ step: Int) throws {
        if step == backupStep { backup = try RestoredBackup.take(of: random.pick(devices)!, root: root) }
        trueTime.advance(by: random.pick([0, 1, 20, 1_000, 30_000, 300_000, 3_600_000])!)
        if random.chance(2) { random.pick(devices)!.clock.stepBack(random.int64(1_000...1_200_000)) }
        copier.step(step, random: &random.generator)
        let device = random.pick(devices)!
        if random.chance(20) {
            try sync(device)
        } else {
            try runCommand(on: device)
        }
    }

    /// Runs a random command on `device` (behind a barrier when it needs one).
    private func runCommand(on device: SimDevice) throws {
        var generator = generators[device.index]
        defer { generators[device.index] = generator }
        let kind = generator.nextKind()
        let barrier = arguments.conflicts != .on && (kind == .undo || kind == .redo)
        if barrier { try catchEveryoneUp() }
        var edited: Set<Field>?
        var nothingToDo = false
        var commandSeq = Int64.max
        let kill = random.chance(4) && arguments.kills
        if kill { device.killSwitch.arm(after: random.int(0..<14), tearingTo: random.int(0..<100)) }
        do {
            try device.open()
            let result = try device.timeLog!.execute { (state, now) throws(StintError) in
                guard let generated = generator.command(kind, state: state, now: now) else {
                    nothingToDo = true
                    throw StintError(.refused, "nothing to act on")
                }
                edited = generated.editedFields
                return generated.command
            }
            if arguments.verbose { for notice in device.notices.take() { print("  \(device.name) notice: \(notice)") } }
            if let first = result.events.first {
                appended += 1
                commandSeq = first.seq
            }
        } catch  where error.category == .damaged {
            // The first time only: a replica that does not fold refuses every later command the same way.
            if !failures.contains(where: { $0.check == .fold && $0.detail.hasPrefix(device.name) }) {
                failures.append(CheckFailure(check: .fold, detail: "\(device.name): \(error.message)"))
            }
            device.close()
        } catch {
            if !nothingToDo { refused += 1 }
            if arguments.verbose, !nothingToDo { print("  \(device.name) \(kind): \(error.message)") }
        }
        if kill && device.killSwitch.disarm() {
            restartAfterKill(device, edited: edited)
        } else {
            // The command's batch, and the ingestion batch its TimeLog wrote before it.
            try acknowledgeOwnLog(of: device, edited: edited, commandSeq: commandSeq)
        }
        if barrier {
            try sync(device)
            copier.deliverEverywhere(device.index)
            for other in devices { try sync(other) }
        }
    }

    /// After a command that was killed: the device's process restarts (its TimeLog
    /// dropped, the replica opened again, repairing what the kill left), and the batch the kill interrupted,
    /// if it is durable all the same, joins the events the oracle knows (not acknowledged: nothing was told).
    private func restartAfterKill(_ device: SimDevice, edited: Set<Field>?) {
        kills += 1
        device.close()
        do {
            try device.open()
            let acknowledged = oracle.lastSeq(of: device.index)
            // The ingestion batch of the killed command if it got that far, and its own batch if durable.
            try acknowledgeOwnLog(of: device, edited: edited)
            if oracle.lastSeq(of: device.index) > acknowledged { survivedKills += 1 }
        } catch {
            failures.append(CheckFailure(check: .fold, detail: "\(device.name) after kill -9: \(error)"))
        }
    }

    /// Delivers every device's directory everywhere and has every device ingest it.
    private func catchEveryoneUp() throws {
        // Publishing first: a batch whose publishing a kill interrupted is only in the own log.
        for device in devices { try sync(device) }
        for index in devices.indices { copier.deliverEverywhere(index) }
        for device in devices { try sync(device) }
    }

    // MARK: Healing and checking

    private func heal() throws {
        // Publishing what a kill left unpublished (a sealed segment rewritten on reopening, a batch whose
        // publishing was interrupted), then: partitions closed, every file delivered, every device syncing
        // twice, with a delivery between.
        for device in devices { try sync(device) }
        for _ in 0..<2 {
            copier.healAll()
            for device in devices { try sync(device) }
        }
        if arguments.control == .laggingReplica { try appendUndelivered() }
        for device in devices { device.close() }
    }

    /// The lagging-replica control: the first device starts a timer after healing, and nothing delivers it.
    private func appendUndelivered() throws {
        let device = devices[0]
        try device.open()
        let result = try device.timeLog!.execute(.start(comment: "never delivered", force: true))
        oracle.acknowledge(result.events, device: device.index, known: try known(by: device), editedFields: nil)
    }

    /// The instant the replicas are read at: after every event, so that every replica reads at the same one.
    private var readingInstant: Instant {
        let last = oracle.acked.map(\.event.at.milliseconds).max() ?? trueTime.now
        return Instant(milliseconds: max(last, trueTime.now) + 60_000)
    }

    private func check() {
        let now = readingInstant
        var frontiers: [String] = []
        var fullFrontiers: [Frontier] = []
        var outputs: [ReplicaOutputs] = []
        var histories: [ReplicaHistory] = []
        for device in devices {
            do {
                let frontier = try device.frontier()
                if frontier.heads.count != devices.count {
                    failures.append(
                        CheckFailure(
                            check: .frontier, detail: "\(device.name) holds \(frontier.heads.count) devices' logs"))
                }
                frontiers.append(frontier.hash)
                fullFrontiers.append(frontier)
                outputs.append(try ReplicaOutputs.read(log: device.log, options: device.options, now: now))
                histories.append(try ReplicaHistory.read(log: device.log, options: device.options, now: now))
            } catch {
                failures.append(CheckFailure(check: .fold, detail: "\(device.name): \(error.message)"))
                checkOrderAndIntent(nil)
                return
            }
        }
        for (index, frontier) in frontiers.enumerated() where frontier != frontiers[0] {
            failures.append(
                CheckFailure(
                    check: .frontier,
                    detail: "\(devices[index].name) has frontier \(frontier), \(devices[0].name) \(frontiers[0])"))
        }
        for (index, output) in outputs.enumerated() {
            if let different = output.firstDifference(from: outputs[0]) {
                failures.append(
                    CheckFailure(
                        check: .outputs,
                        detail: "\(devices[index].name)'s \(different) differs from \(devices[0].name)'s"))
            }
        }
        for (index, history) in histories.enumerated() {
            if let failure = Checks.exactlyOnce(history.events, oracle: oracle, replica: devices[index].name) {
                failures.append(failure)
            }
        }
        let orders = DeliveryOrders(root: root, devices: devices)
        // The observer, a copy of the first replica, must end where every replica ended (the last one here).
        let last = devices.count - 1
        for number in 0..<arguments.orders {
            if let difference = orders.run(
                number, random: random, frontier: fullFrontiers[last], outputs: outputs[last], now: now)
            {
                failures.append(CheckFailure(check: .deliveryOrders, detail: difference))
                break
            }
        }
        checkOrderAndIntent(histories[0])
        checkRestoredBackup()
    }

    /// Puts the backup back (last: it changes the device) and checks the fork publishing reports.
    private func checkRestoredBackup() {
        if arguments.control == .currentBackup {
            backup = try? RestoredBackup.take(of: devices[0], root: root)
        }
        guard let backup else { return }
        let published = (try? backup.device.frontier().heads[backup.device.id]?.seq) ?? 0
        if let failure = backup.check(
            root: root, publishedSeq: arguments.control == .currentBackup ? published + 1 : published)
        {
            failures.append(failure)
        }
    }

    /// Causality on the replica's merged order (or the control's), and the intent checks on the replica's
    /// records (or the control fold's). Without a history (a replica that does not fold), only the controls,
    /// which need no replica, are checked.
    private func checkOrderAndIntent(_ history: ReplicaHistory?) {
        let byKey = Dictionary(uniqueKeysWithValues: oracle.acked.map { ($0.key, $0) })
        if arguments.control == .wallclock {
            let order = oracle.acked.sorted {
                ($0.event.at, $0.key.device, $0.event.seq) < ($1.event.at, $1.key.device, $1.event.seq)
            }
            if let failure = Checks.causality(order, deviceCount: devices.count, what: "the order by (at, device, seq)")
            {
                failures.append(failure)
            }
        } else if let history {
            let merged = history.events.compactMap { byKey[oracle.key(of: $0)] }
            let what = "\(devices[0].name)'s merged history"
            if let failure = Checks.causality(merged, deviceCount: devices.count, what: what) {
                failures.append(failure)
            }
        }
        let expected = RecordFold.fold(oracle.inMergeOrder, rules: .perField)
        switch arguments.control {
        case .wholeRecord:
            let control = RecordFold.fold(oracle.inMergeOrder, rules: .wholeRecord)
            failures += Checks.intent(expected: expected, actual: control.live, what: "whole-record fold")
        case .noTombstones:
            let control = RecordFold.fold(oracle.inMergeOrder, rules: .noTombstones)
            failures += Checks.intent(expected: expected, actual: control.live, what: "no-tombstones fold")
        case .wallclock, .laggingReplica, .currentBackup, nil:
            if let history {
                failures += Checks.intent(
                    expected: expected, actual: history.records, what: "\(devices[0].name)'s records")
            }
        }
    }
}
