import StintCore
import StintLog

extension Space {
    /// `stint sync join DIR`: creates a new log at `log`, a replica of the space in `folder`, whose first event
    /// is `device.joined` (with `name`, the host's name, for `stint devices`), followed by the ingestion of the
    /// space (docs/decisions/0007 §1.2, §6.4).
    ///
    /// - Throws: as ``join(log:folder:options:firstEvent:)``.
    public static func joinSpace(
        log: String, folder: String, name: String? = nil, options: EngineOptions
    ) throws(StintError) -> Space {
        try join(log: log, folder: folder, options: options) { description, device in
            DomainEvent.deviceJoined(spaceId: description.spaceId, device: device, name: name).draft
        }
    }

    /// `stint sync join DIR` with the first event `firstEvent` makes for the space and this device: creates a
    /// new log at `log` that is a replica of the space in `folder` (docs/decisions/0007 §1.2). The other
    /// devices' logs are read first, so that the first event's `hlc` sorts after every event they hold; then
    /// the log is created (format 2), its `space` file written, the folder ingested into the mirrors (with
    /// its `sync.ingested` batch) and the new log published.
    ///
    /// - Throws: ``StintError`` (usage) for a relative folder; (refused) when a log is already at `log` (a
    ///   device that has a log of its own brings it in by export and import), this device already writes to the
    ///   space, or the folder holds no device's log yet; (damaged) for a `space.json` that is not one.
    static func join(
        log: String, folder: String, options: EngineOptions,
        firstEvent: (SpaceDescription, DeviceID) -> EventDraft
    ) throws(StintError) -> Space {
        let folder = try absoluteFolder(folder)
        let description = try readDescription(folder: folder, options: options)
        if (try? LogReader(path: log, options: options.readOptions)) != nil {
            throw StintError(
                .refused,
                "a log is already at \(log): a device joins a space with a new log (bring an existing log's records "
                    + "in with 'stint export' and 'stint import' once joined)")
        }
        // The id file is written only once the folder is known to be joinable (a refused join changes nothing).
        let identity = try options.requireDeviceIdentity()
        let stored = try identity.stored(options: options)
        let device = stored ?? identity.generate()
        var space = Space(log: log, folder: folder, device: device, description: description, options: options)
        guard !(try space.folderDevices().contains(device)) else {
            throw StintError(
                .refused,
                "this device (\(device)) already writes to the space in \(folder); open its log, or delete the device id "
                    + "file to join as a new device")
        }
        var newest: HLC?
        for other in try space.folderDevices() {
            for batch in try space.scan(other).accepted {
                let last = batch.events[batch.events.count - 1]
                newest = max(newest ?? .zero, last.hlc ?? HLC(impliedBy: last.at))
            }
        }
        guard newest != nil else {
            throw StintError(
                .refused,
                "\(folder) holds no device's log yet: wait until the sync tool has delivered the founder's, then join")
        }
        if stored == nil {
            // The id kept is drawn anew, as it always was (seeded ids, and the golden cases made with them, depend
            // on the order of draws); the one above only looked into the folder.
            space = Space(
                log: log, folder: folder, device: identity.generate(), description: description, options: options)
        }
        // The device id file, then the log: a log that cannot be created takes the new file away again.
        var created = CreatedEntries(fileSystem: options.fileSystem)
        do throws(StintError) {
            if stored == nil { try identity.keep(space.device, options: options, noting: &created) }
            let own = try LogDirectoryStore.create(
                at: log, genesis: firstEvent(description, space.device), recordedAt: options.clock(),
                options: space.options,
                receiving: newest)
            own.close()
        } catch {
            created.removeAll()
            throw error
        }
        try SmallFile(path: path(log, replicaFileName), fileSystem: options.fileSystem).write(Array("\(folder)\n".utf8))
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        defer { store.close() }
        try store.ingest()
        try store.publish()
        return space
    }
}
