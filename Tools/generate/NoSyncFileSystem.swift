@_spi(FaultInjection) import StintLog

/// The POSIX file system without `fsync`/`fdatasync`: the generator appends through the log's normal path
/// (frames, sealing, renames) but does not wait for the disk after each of its hundreds of thousands of
/// batches. The bytes are identical; only durability during generation is given up (`main` calls `sync()`
/// once at the end).
struct NoSyncFileSystem: LogFileSystem {
    let base = POSIXFileSystem()

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        try base.openFile(path, mode)
    }
    func close(_ descriptor: Int32) { base.close(descriptor) }
    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        try base.read(descriptor, into: buffer, at: offset)
    }
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        try base.write(descriptor, bytes, at: offset)
    }
    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {}
    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        try base.truncate(descriptor, to: size)
    }
    func size(of descriptor: Int32) throws(SystemCallError) -> Int64 { try base.size(of: descriptor) }
    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try base.rename(source, to: destination)
    }
    func removeFile(_ path: String) throws(SystemCallError) { try base.removeFile(path) }
    func makeDirectory(_ path: String) throws(SystemCallError) { try base.makeDirectory(path) }
    func synchronizeDirectory(_ path: String) throws(SystemCallError) {}
    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try base.contentsOfDirectory(path)
    }
    func kind(of path: String) throws(SystemCallError) -> FileKind? { try base.kind(of: path) }
    func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        try base.tryLockExclusively(descriptor)
    }

    func unlock(_ descriptor: Int32) { base.unlock(descriptor) }
    func pause(milliseconds: Int) { base.pause(milliseconds: milliseconds) }
}
