extension LogFileSystem {
    /// Replaces a cache file (a log directory's `tail` or `checked`, a replica's `compared`) through
    /// `<path>.tmp` and a rename, not synced: a torn or lost one only costs its reader a check. Returns whether
    /// it was written; failures are otherwise ignored.
    @discardableResult
    package func replaceCacheFile(_ path: String, with bytes: [UInt8]) -> Bool {
        let temporary = path + LogDirectory.temporarySuffix
        do throws(SystemCallError) {
            let descriptor = try openFile(temporary, .createTruncated)
            defer { close(descriptor) }
            try bytes.withBytes { (buffer) throws(SystemCallError) in try write(descriptor, buffer, at: 0) }
            try rename(temporary, to: path)
            return true
        } catch {
            try? removeFile(temporary)
            return false
        }
    }

    /// Replaces the file at `path` whole and durably: the bytes go to `<path>.tmp` (with `mode`, when given),
    /// which is synced, renamed over `path`, and its directory `directory` synced. A reader sees the old file
    /// or the new one, never a part; a crash leaves at most the `.tmp` file.
    @_spi(FaultInjection)
    public func replaceFile(
        _ path: String, in directory: String, with bytes: [UInt8], mode: UInt32? = nil
    ) throws(SystemCallError) {
        do {
            close(try placeDurably(bytes, at: path + LogDirectory.temporarySuffix, as: path, in: directory, mode: mode))
        } catch {
            throw error.error
        }
    }
}
