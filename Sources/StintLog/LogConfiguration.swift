public import StintCore

/// How a ``LogWriter`` behaves: where its time comes from, when it seals, how long it waits for the lock,
/// and whom it tells about repairs.
///
/// ```swift
/// let configuration = LogConfiguration(clock: { now }, onNotice: { print("note: \($0)") })
/// let writer = try LogWriter.open(at: path, configuration: configuration)
/// ```
public struct LogConfiguration: Sendable {
    /// Reads the current instant; called once per appended batch. The writer never reads the system clock.
    public var clock: @Sendable () -> Instant
    /// The size in bytes at which the active segment is sealed after an append (default 1 MiB).
    public var sealThreshold: Int64
    /// The decompressed size at which a frame of a sealed segment is closed, at the next batch boundary
    /// (default 64 KiB).
    public var sealedFrameTarget: Int
    /// How long opening a writer waits for another process to release the lock (default 10 seconds).
    public var lockTimeout: Duration
    /// Receives notices about repairs and failures the writer handled on its own (default: ignored).
    public var onNotice: @Sendable (LogNotice) -> Void
    /// How many bytes each read asks the file system for (default 256 KiB).
    public var readChunkSize: Int
    /// The device this writer writes as (log format 2, docs/decisions/0007 §2); nil (the default) writes
    /// log format 1, as Stint always has. With a device, ``LogWriter/create(at:settingsEvent:configuration:)``
    /// makes a log of format 2, ``LogWriter/open(at:configuration:tail:)`` turns a log of format 1 into one
    /// (its lines keep their bytes), and every batch carries the device and a reading of the writer's hybrid
    /// logical clock.
    public var device: DeviceID?
    /// Whether the writer keeps the log directory's `tail` file (docs/log-format.md §5.4): where it left the
    /// active segment, so that the next writer opens the log by reading its last frame instead of every frame of
    /// the segment (default false; the logs of a replica keep one, docs/sync.md).
    public var keepsTailFile = false
    /// Whether the writer settles the active segment's fingerprint (docs/log-format.md §5.4): it stamps its lock
    /// as it opens, and while it appends nothing the `checked` file remembers the segment with the fingerprint it
    /// had when hashed, if the segment last changed before the stamp. A reader then vouches for the log's end
    /// with a `stat` (``LogReader/vouchedLastEvent()``) until a writer appends. For a log whose end is read far
    /// more often than it is appended to: a replica's mirrors (default false).
    public var settlesActiveSegment = false
    /// The file operations (default ``POSIXFileSystem``); replaced by fault-injecting tests.
    @_spi(FaultInjection) public var fileSystem: any LogFileSystem

    /// A configuration with the default thresholds.
    ///
    /// - Parameters:
    ///   - clock: the source of `at` for appended events.
    ///   - sealThreshold: the active segment size that triggers sealing, in bytes (at least 1).
    ///   - sealedFrameTarget: the content size at which a sealed frame is closed, in bytes (at least 1).
    ///   - lockTimeout: the longest wait for the writer lock.
    ///   - onNotice: receives repair and failure notices.
    ///   - device: the device the writer writes as, making the log one of format 2 (default nil: format 1).
    public init(
        clock: @escaping @Sendable () -> Instant,
        sealThreshold: Int64 = 1 << 20,
        sealedFrameTarget: Int = 64 << 10,
        lockTimeout: Duration = .seconds(10),
        onNotice: @escaping @Sendable (LogNotice) -> Void = { _ in },
        device: DeviceID? = nil
    ) {
        self.clock = clock
        self.sealThreshold = max(1, sealThreshold)
        self.sealedFrameTarget = max(1, sealedFrameTarget)
        self.lockTimeout = lockTimeout
        self.onNotice = onNotice
        self.device = device
        self.readChunkSize = 256 << 10
        self.fileSystem = POSIXFileSystem()
    }

    /// The reading side of this configuration.
    var readOptions: LogReader.Options {
        var options = LogReader.Options()
        options.readChunkSize = readChunkSize
        options.fileSystem = fileSystem
        return options
    }
}
