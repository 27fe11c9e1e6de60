/// A ``LogFileSystem`` that passes every operation to ``base`` unless it implements the operation itself:
/// a wrapper that fails, counts or skips a few operations (tests, harnesses, the generator's unsynced
/// writes) writes only those, instead of forwarding all fifteen by hand.
@_spi(FaultInjection)
public protocol ForwardingFileSystem: LogFileSystem {
    /// The file system the operations this one does not implement go to.
    var base: any LogFileSystem { get }
}

@_spi(FaultInjection)
extension ForwardingFileSystem {
    public func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        try base.openFile(path, mode)
    }

    public func close(_ descriptor: Int32) { base.close(descriptor) }

    public func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        try base.read(descriptor, into: buffer, at: offset)
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        try base.write(descriptor, bytes, at: offset)
    }

    public func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        try base.synchronize(descriptor, dataOnly: dataOnly)
    }

    public func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        try base.truncate(descriptor, to: size)
    }

    public func size(of descriptor: Int32) throws(SystemCallError) -> Int64 { try base.size(of: descriptor) }

    public func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try base.rename(source, to: destination)
    }

    public func removeFile(_ path: String) throws(SystemCallError) { try base.removeFile(path) }

    public func removeDirectory(_ path: String) throws(SystemCallError) { try base.removeDirectory(path) }

    public func makeDirectory(_ path: String) throws(SystemCallError) { try base.makeDirectory(path) }

    public func synchronizeDirectory(_ path: String) throws(SystemCallError) { try base.synchronizeDirectory(path) }

    public func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try base.contentsOfDirectory(path)
    }

    public func kind(of path: String) throws(SystemCallError) -> FileKind? { try base.kind(of: path) }

    public func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        try base.tryLockExclusively(descriptor)
    }

    public func unlock(_ descriptor: Int32) { base.unlock(descriptor) }

    public func fingerprint(of path: String) throws(SystemCallError) -> FileFingerprint? {
        try base.fingerprint(of: path)
    }

    public func stampChangeTime(_ descriptor: Int32) throws(SystemCallError) -> Int64? {
        try base.stampChangeTime(descriptor)
    }

    public func pause(milliseconds: Int) { base.pause(milliseconds: milliseconds) }
}
