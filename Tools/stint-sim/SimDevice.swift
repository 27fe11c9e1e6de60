// One simulated device: its replica directory, device id file, clock, ids, its own view of the sync folder,
// and the TimeLog it runs commands through.
import StintCore
@_spi(FaultInjection) import StintEngine
import Synchronization

final class SimDevice {
    let index: Int
    let id: DeviceID
    let clock: DeviceClock
    let ids: SeededIDs
    /// The replica (this device's own log directory).
    let log: String
    /// This device's view of the sync folder.
    let view: String
    let options: EngineOptions
    /// The file system of this device's "process": kill -9 mid-batch.
    let killSwitch = KillSwitch()
    /// The notices the engine told this device (a batch not published, a torn tail set aside, …).
    let notices = NoticeLog()
    /// The open replica (nil until joined, and after a failure until reopened).
    var timeLog: TimeLog?

    init(index: Int, root: String, trueTime: TrueTime, random: inout SplitMix64) {
        self.index = index
        id = DeviceID(using: &random)
        clock = DeviceClock(trueTime: trueTime, random: &random)
        ids = SeededIDs(seed: random.next())
        log = "\(root)/device-\(index)/log"
        view = "\(root)/view-\(index)"
        Files.makeDirectory("\(root)/device-\(index)")
        Files.makeDirectory(view)
        let clock = clock
        let ids = ids
        let notices = notices
        // Merged checkpoints every few events, so that commands and reads start from them (and kills land
        // while one is written): a checkpoint that did not hold would show as replicas or delivery orders that
        // disagree.
        var options = EngineOptions(
            clock: { clock.reading() }, newID: { ids.next() }, onNotice: { notices.append($0) },
            lockTimeout: .milliseconds(100), sealThreshold: 700, checkpointInterval: 3)
        options.readWorkers = 1
        // Half the devices decide on their replica's read models (kills land between a command's append and
        // their save), half on the merged fold from checkpoints. (The oracle compares what devices read, not
        // their models: ReplicaReadModelDifferentialTests compares decisions on models with decisions without.)
        options.usesReadModels = index % 2 == 1
        options.fileSystem = killSwitch
        let id = id
        options.deviceIdentity = DeviceIdentity(file: "\(root)/device-\(index)/state/stint/device") { id }
        self.options = options
    }

    /// A short name for messages: the index and the first digits of the id.
    var name: String { "device \(index) (\(String("\(id)".prefix(8))))" }

    /// Opens the replica for commands.
    func open() throws(StintError) {
        if timeLog == nil { timeLog = try TimeLog.open(at: log, options: options) }
    }

    func close() {
        timeLog?.close()
        timeLog = nil
    }

    /// `stint sync`, as a process of its own (the replica's TimeLog is closed first and opened again by the
    /// next command): ingests this device's view of the sync folder (writing a `sync.ingested` batch when it
    /// advanced), then publishes the own log.
    func sync() throws(StintError) {
        close()
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        defer { store.close() }
        try store.ingest()
        if case .forked(let seq) = try store.publish() {
            throw StintError(.damaged, "\(name): the sync folder's copy of its own log differs at seq \(seq)")
        }
    }

    /// The replica's frontier: per device the last seq it holds.
    func frontier() throws(StintError) -> Frontier {
        try Space.open(log: log, options: options).frontier()
    }
}

/// Notices of one device, kept for --verbose.
final class NoticeLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// The notices since the last call.
    func take() -> [String] {
        lines.withLock { lines in
            defer { lines = [] }; return lines
        }
    }
}
