import StintCore
import StintEngine

/// What the space verbs (`sync …`, `devices`, `conflicts`) share: the sync folder a person typed, made
/// absolute, and the replica they act on.
extension CommandContext {
    /// `folder` as an absolute path: the replica's `space` file records it, and later commands run from
    /// anywhere.
    func absoluteFolder(_ folder: String, verb: String) throws(CLIError) -> String {
        guard folder != "-" else {
            throw CLIError.usage("'-' (standard input) cannot be a sync folder; give the folder's path", verb: verb)
        }
        guard let path = LocalPath(folder) else {
            throw CLIError.usage("'\(folder)' is not a usable folder path", verb: verb)
        }
        if path.isAbsolute { return path.string }
        guard let base = host.workingDirectory.flatMap(LocalPath.init), base.isAbsolute else {
            throw CLIError.usage("give the sync folder as an absolute path, not '\(folder)'", verb: verb)
        }
        var resolved = base
        for component in path.components {
            resolved = component == ".." ? resolved.parent : resolved.appending(component)
        }
        return resolved.string
    }

    /// The device id file, or the usage error that says how to give one.
    func requireDeviceIDFile(verb: String) throws(CLIError) -> String {
        guard let file = deviceIDFile else {
            throw CLIError.usage(
                "this device needs an id file, kept in $XDG_STATE_HOME/stint/device or $HOME/.local/state/stint/device; "
                    + "set XDG_STATE_HOME or HOME", verb: verb)
        }
        return file
    }

    /// The replica at the log path, opened with its lock held (for `sync`), or the refusal that says how to
    /// make the log part of a space.
    func openReplica(verb: String) throws(CLIError) -> MergedStore {
        let path = try logPath
        _ = try requireDeviceIDFile(verb: verb)
        do throws(StintError) {
            let options = engineOptions
            try Self.requireReplica(path, options: options)
            return try MergedStore.open(log: path, holdingLock: true, options: options)
        } catch {
            throw CLIError(error)
        }
    }

    /// Refuses a path that is not a replica: no log there, or a log that is not part of a space.
    static func requireReplica(_ path: String, options: EngineOptions) throws(StintError) {
        guard !Space.isReplica(log: path, options: options) else { return }
        if (try? LogSource.open(path: path, options: options)) == nil {
            throw StintError(
                .refused, "there is no log at \(path); create one with 'stint init' or 'stint sync join DIR'")
        }
        throw StintError(
            .refused,
            "the log at \(path) is not part of a space; make it one with 'stint sync init DIR', DIR a folder your "
                + "sync tool shares between your devices")
    }

    /// Brings the other devices' events in when the log is part of a space (what `publish` does first, as
    /// every mutation does); nothing for a log that is not.
    func ingestIfReplica(verb: String) throws(CLIError) {
        guard let path = try? logPath, path != "-", Space.isReplica(log: path, options: engineOptions) else { return }
        let store = try openReplica(verb: verb)
        defer { store.close() }
        do {
            try store.ingest()
        } catch {
            throw CLIError(error)
        }
    }

    /// The status of the space of the replica at the log path (`sync status`, `devices`).
    func spaceStatus(verb: String) throws(CLIError) -> SpaceStatus {
        let space = try openSpace(verb: verb)
        do {
            return try space.status()
        } catch {
            throw CLIError(error)
        }
    }

    /// Opens the space of the replica at the log path for reading, without its lock.
    func openSpace(verb: String) throws(CLIError) -> Space {
        let path = try logPath
        _ = try requireDeviceIDFile(verb: verb)
        do throws(StintError) {
            let options = engineOptions
            try Self.requireReplica(path, options: options)
            return try Space.open(log: path, options: options)
        } catch {
            throw CLIError(error)
        }
    }
}
