@_spi(FaultInjection) import StintLog

/// The files and directories a command that makes a space (`sync init`, `sync join`) has created so far, so
/// that a failure before the log changes takes them away again: a refused command leaves the disk as it
/// found it, and a folder, `space.json` or device id file is never left behind by a command that failed.
struct CreatedEntries {
    let fileSystem: any LogFileSystem
    /// The entries, the newest last.
    private var entries: [(path: String, isDirectory: Bool)] = []

    init(fileSystem: any LogFileSystem) { self.fileSystem = fileSystem }

    /// Creates the directory at `path` when nothing is there, and notes it.
    mutating func makeDirectory(_ path: String) throws(SystemCallError) {
        guard try fileSystem.kind(of: path) == nil else { return }
        try fileSystem.makeDirectory(path)
        entries.append((path, true))
    }

    /// Writes a new `file` with `bytes`, and notes it and the directories it created.
    mutating func write(_ file: SmallFile, _ bytes: [UInt8]) throws(StintError) {
        let directories = try file.write(bytes)
        entries += directories.map { ($0, true) }
        entries.append((file.path, false))
    }

    /// Removes every entry noted, the newest first; what cannot be removed (a directory something else was
    /// put into meanwhile) stays.
    func removeAll() {
        for entry in entries.reversed() {
            if entry.isDirectory {
                try? fileSystem.removeDirectory(entry.path)
            } else {
                try? fileSystem.removeFile(entry.path)
            }
        }
    }
}
