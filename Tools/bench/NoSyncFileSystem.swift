@_spi(FaultInjection) import StintLog

/// The POSIX file system without `fsync`/`fdatasync`, as in Tools/generate: `stint-bench space` appends
/// through the log's normal path (frames, sealing, renames) but does not wait for the disk after each of its
/// hundreds of thousands of batches. The bytes are identical; only durability during generation is given up
/// (it calls `sync()` once at the end).
struct NoSyncFileSystem: ForwardingFileSystem {
    let base: any LogFileSystem = POSIXFileSystem()

    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {}
    func synchronizeDirectory(_ path: String) throws(SystemCallError) {}
}
