extension LogFileSystem {
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
