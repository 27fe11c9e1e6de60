import StintCore
@_spi(FaultInjection) import StintLog

extension Space {
    /// `stint sync init DIR`: makes the log at `log` the founder of a space whose sync folder is `folder`
    /// (docs/decisions/0007 §1.2): the device id is read or created, the log becomes one of format 2 (its
    /// lines keep their bytes; its next batch is the first stamped), `space.json` is written to the folder
    /// (the log's `logId` is the space's id), the log's `space` file names the folder, and the log is published
    /// to `<folder>/devices/<device-id>/`. Running it again after an interruption completes it.
    ///
    /// - Parameter folder: an absolute path; created when missing (its parent must exist).
    /// - Throws: ``StintError`` (usage) for a relative folder; (refused) when the log is already part of a
    ///   space, the folder holds another space, or a write fails; the errors of opening the log.
    public static func initSpace(log: String, folder: String, options: EngineOptions) throws(StintError) -> Space {
        let folder = try absoluteFolder(folder)
        let replicaFile = SmallFile(path: path(log, replicaFileName), fileSystem: options.fileSystem)
        let source = try LogSource.open(path: log, options: nil)
        guard source.reader?.kind == .directory else {
            // A segment or a plain file reads as a log but cannot be written to: refused before anything is.
            throw StintError(
                .refused,
                "\(log) is a file, not a log directory; 'sync init' needs the directory of a log made by 'stint init'")
        }
        let settings = try source.settings()
        let description = SpaceDescription(founding: settings)
        if let named = try replicaFile.read(), named != Array("\(folder)\n".utf8) {
            throw StintError(
                .refused,
                "the log at \(log) is already part of the space in \(String(decoding: named.dropLast(), as: UTF8.self))"
            )
        }
        let descriptionFile = SmallFile(path: path(folder, SpaceDescription.fileName), fileSystem: options.fileSystem)
        if let existing = try descriptionFile.read() {
            guard existing == description.canonicalBytes else {
                throw StintError(
                    .refused,
                    "\(folder) already holds another space; join it with 'stint sync join \(folder)' from a new log, or "
                        + "choose an empty folder")
            }
        }
        try checkFolder(folder, log: log, options: options)
        if try descriptionFile.read() == nil,
            let entries = try? options.fileSystem.contentsOfDirectory(folder),
            let other = entries.sorted().first(where: { !$0.hasPrefix(".") })
        {
            // Hidden entries are a sync tool's (Syncthing's .stfolder, Dropbox's .dropbox): fine.
            throw StintError(
                .refused,
                "\(folder) already holds other files (\(other)) and no space: a space needs a folder of its own; "
                    + "choose a new or empty folder, for example \(path(folder, "stint"))")
        }
        let identity = try options.requireDeviceIdentity()
        let stored = try identity.stored(options: options)
        // The folder, its space.json and the device id file, then the log's lock: until the lock is held, a
        // failure takes away what was created, and the log has not changed.
        var created = CreatedEntries(fileSystem: options.fileSystem)
        let device = stored ?? identity.generate()
        let space = Space(log: log, folder: folder, device: device, description: description, options: options)
        let own: LogDirectoryStore
        do throws(StintError) {
            do {
                try created.makeDirectory(folder)
            } catch {
                throw StintError(
                    .refused, "cannot create the sync folder \(folder): \(error); check its parent directory")
            }
            if try descriptionFile.read() == nil { try created.write(descriptionFile, description.canonicalBytes) }
            if stored == nil { try identity.keep(device, options: options, noting: &created) }
            // Taking the writer with the device turns the log into one of format 2 (under its lock).
            own = try LogDirectoryStore.open(at: log, holdingLock: true, options: space.options)
        } catch {
            created.removeAll()
            throw error
        }
        defer { own.close() }
        try replicaFile.write(Array("\(folder)\n".utf8))
        if case .forked(let seq) = try space.publish() {
            throw StintError(
                .damaged,
                "\(space.folderPath(of: device)) holds other events at seq \(seq) than the log at \(log): another "
                    + "installation writes as device \(device)")
        }
        return space
    }

    /// Refuses a sync folder that is not a directory, or that is the log directory or inside it (the log's
    /// own files and the space's would mix).
    static func checkFolder(_ folder: String, log: String, options: EngineOptions) throws(StintError) {
        let kind = try? options.fileSystem.kind(of: folder)
        if let kind, kind != .directory {
            throw StintError(
                .usage, "the sync folder \(folder) is a file, not a folder; give a folder (it is created if missing)")
        }
        if let logPath = LocalPath(log), let folderPath = LocalPath(folder), logPath.isAbsolute {
            let logParts = logPath.components
            if Array(folderPath.components.prefix(logParts.count)) == logParts {
                throw StintError(
                    .usage, "the sync folder \(folder) is inside the log directory \(log); choose a folder outside it")
            }
        }
    }

    /// `folder` when it is absolute.
    static func absoluteFolder(_ folder: String) throws(StintError) -> String {
        guard folder.hasPrefix("/") else {
            throw StintError(.usage, "the sync folder must be an absolute path, not \(folder)")
        }
        var trimmed = folder
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}
