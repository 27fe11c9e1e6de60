import Glibc

extension LogFileSystem {
    /// Replaces the file at `path` whole and durably: the bytes go to `<path>.tmp` (with `mode`, when given),
    /// which is synced, renamed over `path`, and its directory `directory` synced. A reader sees the old file
    /// or the new one, never a part; a crash leaves at most the `.tmp` file.
    @_spi(FaultInjection)
    public func replaceFile(
        _ path: String, in directory: String, with bytes: [UInt8], mode: UInt32? = nil
    ) throws(SystemCallError) {
        let temporaryPath = path + LogDirectory.temporarySuffix
        let descriptor = try openFile(temporaryPath, .createTruncated)
        defer { close(descriptor) }
        if let mode, fchmod(descriptor, mode_t(mode)) != 0 { throw SystemCallError(operation: "fchmod", errno: errno) }
        try bytes.withBytes { (buffer) throws(SystemCallError) in try write(descriptor, buffer, at: 0) }
        try synchronize(descriptor, dataOnly: false)
        try rename(temporaryPath, to: path)
        try synchronizeDirectory(directory)
    }
}
