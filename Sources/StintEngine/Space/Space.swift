public import StintCore
@_spi(FaultInjection) import StintLog
import Synchronization

/// A replica: a log directory that is part of a space (docs/decisions/0007 §1.2). Its `space` file names the
/// sync folder; `mirrors/<device-id>/` hold the verified copies of the other devices' logs; the log itself is
/// this device's own, which it publishes to `<folder>/devices/<device-id>/`.
///
/// Opening reads the `space` file, the device id (§4), and checks `space.json` against the space's settings.
/// ``MergedStore`` reads and writes a replica; ``Space/initSpace(log:folder:options:)`` and
/// ``Space/joinSpace(log:folder:options:)`` make one.
///
/// ```swift
/// let space = try Space.open(log: path, options: options)
/// let status = try space.status()
/// ```
public struct Space: Sendable {
    /// The name of the file that makes a log directory a replica.
    public static let replicaFileName = "space"
    /// The directory of a replica holding the mirrors.
    public static let mirrorsName = "mirrors"
    /// The directory of the sync folder holding the devices' logs.
    public static let devicesName = "devices"

    /// The replica: this device's own log directory.
    public let log: String
    /// The sync folder (an absolute path).
    public let folder: String
    /// This device.
    public let device: DeviceID
    /// What `space.json` says.
    public let description: SpaceDescription
    let options: EngineOptions
    /// Whether a merged read reads each device's log ahead on a thread of its own.
    let readsAhead: Bool
    /// ``settings()`` once found: the founder's `log.created` never changes, and every command reads it on opening
    /// and again on ingesting.
    private let foundSettings = SettingsBox()

    init(log: String, folder: String, device: DeviceID, description: SpaceDescription, options: EngineOptions) {
        self.log = log
        self.folder = folder
        self.device = device
        self.description = description
        var options = options
        options.device = device
        // A merged read reads every device's log at once: each on one thread of its own (BatchPrefetcher)
        // rather than on several workers each; none with one read worker (`STINT_JOBS=1`).
        readsAhead = options.readWorkers > 1
        options.readWorkers = 1
        self.options = options
    }

    /// Whether the log directory at `log` is a replica (it has a `space` file).
    public static func isReplica(log: String, options: EngineOptions) -> Bool {
        (try? options.fileSystem.kind(of: path(log, replicaFileName))) == .regularFile
    }

    /// Opens the replica at `log`.
    ///
    /// - Throws: ``StintError`` (refused) when `log` is not a replica or the device has no id file, (damaged)
    ///   for an unreadable `space` file, id file or `space.json`, or a `space.json` of another space.
    public static func open(log: String, options: EngineOptions) throws(StintError) -> Space {
        let replicaFile = path(log, replicaFileName)
        guard let bytes = try SmallFile(path: replicaFile, fileSystem: options.fileSystem).read() else {
            throw StintError(
                .refused, "the log at \(log) is not part of a space; run 'stint sync init DIR' or 'stint sync join DIR'"
            )
        }
        guard bytes.last == 0x0A, bytes.first == 0x2F, bytes.count > 2 else {
            throw StintError(
                .damaged, "\(replicaFile) does not name a sync folder (an absolute path and a newline)")
        }
        let folder = String(decoding: bytes.dropLast(), as: UTF8.self)
        let identity = try options.requireDeviceIdentity()
        guard let device = try identity.stored(options: options) else {
            throw StintError(
                .refused,
                "this device has no id (\(identity.file) is missing), so the replica at \(log) cannot be written as it; "
                    + "restore the file, or join the space again from a new log")
        }
        let description = try readDescription(folder: folder, options: options)
        let space = Space(log: log, folder: folder, device: device, description: description, options: options)
        try space.checkOwnLog()
        try space.checkDescription(description)
        return space
    }

    /// Reads `space.json` of `folder`.
    static func readDescription(folder: String, options: EngineOptions) throws(StintError) -> SpaceDescription {
        let file = path(folder, SpaceDescription.fileName)
        guard let bytes = try SmallFile(path: file, fileSystem: options.fileSystem).read() else {
            throw StintError(
                .refused,
                "\(folder) holds no \(SpaceDescription.fileName): it is not a space's sync folder, or the sync tool has "
                    + "not delivered it yet")
        }
        return try SpaceDescription(bytes: bytes, file: file)
    }

    /// Checks `space.json` against the space this replica holds (the founder's `log.created`, once the replica
    /// holds it), on opening and on every ingestion: the folder may have been replaced meanwhile. `read` is the
    /// `space.json` just read, if it was.
    ///
    /// - Throws: ``StintError`` (damaged) "this folder holds another space".
    func checkDescription(_ read: SpaceDescription? = nil) throws(StintError) {
        let now: SpaceDescription
        if let read { now = read } else { now = try Space.readDescription(folder: folder, options: options) }
        if let settings = try settings() {
            try now.check(settings, folder: folder)
        }
    }

    /// Refuses a replica whose own log was written by another device than the id file's.
    private func checkOwnLog() throws(StintError) {
        let last: RecordedEvent?
        do throws(LogError) {
            // Only the last line's device matters here; the own log's writer checks the lines when it opens. The
            // tail file the writer left finds it by reading one frame; without one, the last frame's last line.
            let reader = try LogReader(path: log, options: options.readOptions)
            if let fromTail = reader.lastEventFromTailFile() {
                last = fromTail
            } else {
                last = try reader.lastEvent()
            }
        } catch {
            throw StintError(error)
        }
        if let written = last?.device, written != device {
            throw StintError(
                .refused,
                "the log at \(log) was written by device \(written), but this device's id is \(device) (a log restored "
                    + "from a backup or moved from another machine); join the space again from a new log")
        }
    }

    /// `<directory>/<name>`.
    static func path(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The mirror of `device`'s log in this replica.
    public func mirrorPath(of device: DeviceID) -> String {
        Space.path(Space.path(log, Space.mirrorsName), "\(device)")
    }

    /// The directory of `device`'s log in the sync folder.
    public func folderPath(of device: DeviceID) -> String {
        Space.path(Space.path(folder, Space.devicesName), "\(device)")
    }

    /// The devices whose mirrors this replica holds, in id order.
    public func mirroredDevices() throws(StintError) -> [DeviceID] {
        // Only mirrors that exist as logs: one whose creation a crash interrupted (no `format`) is created again
        // by the next ingestion.
        try Space.devices(in: Space.path(log, Space.mirrorsName), options: options).filter { device in
            (try? options.fileSystem.kind(of: Space.path(mirrorPath(of: device), "format"))) == .regularFile
        }
    }

    /// The devices with a directory in the sync folder, this one included, in id order.
    public func folderDevices() throws(StintError) -> [DeviceID] {
        try Space.devices(in: Space.path(folder, Space.devicesName), options: options)
    }

    /// The names of `directory` that are device ids (none when it does not exist).
    static func devices(in directory: String, options: EngineOptions) throws(StintError) -> [DeviceID] {
        do {
            guard try options.fileSystem.kind(of: directory) == .directory else { return [] }
            return try options.fileSystem.contentsOfDirectory(directory).compactMap { DeviceID($0) }.sorted()
        } catch {
            throw StintError(.refused, "cannot list \(directory): \(error)")
        }
    }

    /// The settings of the space's history: the founder's `log.created`, at the start of the own log or of a
    /// mirror; nil when the replica holds neither yet (a joining device before its first ingestion).
    func settings() throws(StintError) -> LogSettings? {
        if let found = foundSettings.value.withLock({ $0 }) { return found }
        for path in [log] + (try mirroredDevices()).map(mirrorPath(of:)) {
            // The log alone (not as a replica, whose settings are these).
            let source = try LogSource.open(path: path, options: nil)
            // The first event from its frame's first line: reading it as an event decodes its whole batch (an
            // import's: tens of thousands of lines), which is done only when that line is not at hand.
            var first = source.reader?.firstEventOfFirstFrame()
            if first == nil { first = try source.events().next() }
            if let first, first.type == EventType.logCreated.rawValue {
                let settings: LogSettings
                do {
                    settings = try LogState(genesis: first).settings
                } catch {
                    throw StintError(error)
                }
                foundSettings.value.withLock { $0 = settings }
                return settings
            }
        }
        return nil
    }
}

/// The settings a ``Space`` found, shared by its copies.
private final class SettingsBox: Sendable {
    let value = Mutex<LogSettings?>(nil)
}
