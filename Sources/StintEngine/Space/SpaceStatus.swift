public import StintCore
public import StintLog

/// What `stint sync status` shows (docs/decisions/0007 §6): this device's log and its copy in the sync folder,
/// per other device what the replica holds and what the folder holds beyond it, and the frontier.
public struct SpaceStatus: Hashable, Sendable {
    /// The space.
    public var description: SpaceDescription
    /// The sync folder.
    public var folder: String
    /// This device.
    public var device: DeviceID
    /// The head of this device's own log.
    public var ownHead: LogHead?
    /// The head of the folder's copy of the own log (nil when nothing is published yet).
    public var publishedHead: LogHead?
    /// The first `seq` at which the folder's copy of the own log differs from it: another installation writes
    /// as this device (nothing is published while it does).
    public var publishedForkAt: Int64?
    /// Every other device in the folder or in the replica, in id order: its mirror's head, what would be
    /// ingested, what is waiting ("not arrived yet"), behind by K, forks.
    public var devices: [DeviceScan]
    /// The replica's frontier.
    public var frontier: Frontier

    /// The frontier's hash (64 hex digits), equal on every replica that holds the same events.
    public var frontierHash: String { frontier.hash }
}

extension Space {
    /// Reads the status of the replica and the sync folder; writes nothing and takes no lock.
    ///
    /// - Throws: ``StintError`` (damaged) for a `space.json` of another space; (refused) for I/O failures
    ///   of the replica.
    public func status() throws(StintError) -> SpaceStatus {
        try checkDescription()
        let frontier = try frontier()
        var devices: [DeviceScan] = []
        let others = Set(try folderDevices()).union(try mirroredDevices()).subtracting([device])
        for other in others.sorted() { devices.append(try scan(other)) }
        let published: LogHead?
        let fork: Int64?
        do throws(LogError) {
            let copy = folderPath(of: device)
            published = (try? LogReader(path: copy, options: options.readOptions)).flatMap { try? $0.head() }
            fork = try publishedFork()
        } catch {
            throw StintError(error)
        }
        return SpaceStatus(
            description: description, folder: folder, device: device,
            ownHead: frontier.heads[device].map { LogHead(seq: $0.seq, hash: $0.hash) }, publishedHead: published,
            publishedForkAt: fork, devices: devices, frontier: frontier)
    }
}
