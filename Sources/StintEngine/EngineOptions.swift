public import StintCore
@_spi(FaultInjection) public import StintLog
import Synchronization

/// What the engine takes from its caller: the clock, new ids, where notices go, and how the log behaves.
///
/// ```swift
/// let options = EngineOptions(clock: { Instant(milliseconds: 1_795_957_629_123) }, newID: { makeID() })
/// ```
public struct EngineOptions: Sendable {
    /// The current instant. A command reads it once and uses the same instant to decide and to record.
    public var clock: @Sendable () -> Instant
    /// New ids for records and tags.
    public var newID: @Sendable () -> EntityID
    /// Receives notices the log and the engine handled on their own (torn tails set aside, and so on).
    public var onNotice: @Sendable (String) -> Void
    /// How long a writer waits for another writer's lock.
    public var lockTimeout: Duration
    /// The active segment size at which the log seals a segment (tests make it small).
    public var sealThreshold: Int64
    /// Write a checkpoint after folding at least this many events past the one a read started from.
    public var checkpointInterval: Int64
    /// A fold that passes a multiple of this many events leaves a checkpoint there too (so that reads of
    /// earlier points of a long history start close to them).
    public var checkpointSpacing: Int64
    /// A fold that passes a multiple of this many events leaves a projection checkpoint there (a
    /// ``ProjectionState``: about a month of records, so they can be close together).
    public var projectionCheckpointSpacing: Int64
    /// Whether reads may write checkpoint files into a log directory (they are caches; false keeps the
    /// directory untouched by reads).
    public var writesCheckpoints: Bool
    /// Whether commands on a log directory decide against its read models (`read-models.sqlite`: a few rows
    /// per command) rather than a fold of the whole state (default true; tests compare both).
    public var usesReadModels: Bool = true
    /// How many threads read a log directory's segments ahead of the checks and the fold of a cold read or
    /// a verification (default: the processors online, at most 4; 1 reads on the calling thread alone).
    /// Results, warnings and errors are the same for every count.
    public var readWorkers: Int = LogReader.Options.defaultWorkers
    /// Whether the folds of a whole log — a read that finds no checkpoint to start from, the rebuild of the
    /// read models, `verify`'s domain check — use ``CompactFold`` (columns, no allocation per event) rather
    /// than ``LogState``'s fold, the reference it is checked against (default true; an event the compact
    /// fold does not apply hands the work to the reference fold, whose errors are the ones reported).
    public var foldsCompactly: Bool = true
    /// Where this device's id is kept and how a new one is made, for the operations of a space
    /// (docs/decisions/0007 §4); nil (the default) refuses them.
    public var deviceIdentity: DeviceIdentity?
    /// The device the log writer stamps batches with (log format 2); set by ``MergedStore`` for the replica's
    /// own log, nil for a log that is not in a space.
    package var device: DeviceID?
    /// The file operations of the log, its readers and its checkpoints (default ``POSIXFileSystem``);
    /// replaced by fault-injecting tests and harnesses.
    @_spi(FaultInjection) public var fileSystem: any LogFileSystem = POSIXFileSystem()

    public init(
        clock: @escaping @Sendable () -> Instant, newID: @escaping @Sendable () -> EntityID,
        onNotice: @escaping @Sendable (String) -> Void = { _ in }, lockTimeout: Duration = .seconds(10),
        sealThreshold: Int64 = 1 << 20, checkpointInterval: Int64 = 10_000, checkpointSpacing: Int64 = 100_000,
        projectionCheckpointSpacing: Int64 = 10_000, writesCheckpoints: Bool = true
    ) {
        self.clock = clock
        self.newID = newID
        self.onNotice = onNotice
        self.lockTimeout = lockTimeout
        self.sealThreshold = sealThreshold
        self.checkpointInterval = checkpointInterval
        self.checkpointSpacing = checkpointSpacing
        self.projectionCheckpointSpacing = projectionCheckpointSpacing
        self.writesCheckpoints = writesCheckpoints
    }

    /// The log configuration whose clock reads `instant`, which the engine sets to each command's `now`,
    /// so that a command's events are recorded at the instant it was decided at.
    func logConfiguration(clock instant: CommandInstant) -> LogConfiguration {
        let notify = onNotice
        var configuration = LogConfiguration(
            clock: { instant.value }, sealThreshold: sealThreshold, lockTimeout: lockTimeout,
            onNotice: { notify($0.message) })
        configuration.fileSystem = fileSystem
        configuration.device = device
        // A device's log is a replica's own log: its writer keeps the `tail` file, as the mirrors' do.
        configuration.keepsTailFile = device != nil
        return configuration
    }

    /// How the engine's readers read: through the same file operations as its writer.
    var readOptions: LogReader.Options {
        var options = LogReader.Options(workers: readWorkers)
        options.fileSystem = fileSystem
        return options
    }
}

/// The instant of the command being executed, shared with the log writer's clock.
final class CommandInstant: Sendable {
    private let current: Mutex<Instant>

    init(_ instant: Instant) { current = Mutex(instant) }

    var value: Instant {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
