import Glibc

/// The production ``LogFileSystem``: direct POSIX calls.
@_spi(FaultInjection)
public struct POSIXFileSystem: LogFileSystem {
    public init() {}

    public func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        let flags: Int32
        switch mode {
        case .readOnly: flags = O_RDONLY
        case .readWrite: flags = O_RDWR
        case .createIfMissing: flags = O_RDWR | O_CREAT
        case .createTruncated: flags = O_RDWR | O_CREAT | O_TRUNC
        }
        while true {
            // Time records are personal: files are created readable by their owner only (as shells create
            // their history), whatever the umask; an existing file keeps its mode.
            let descriptor = Glibc.open(path, flags | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw SystemCallError(operation: "open", path: path, errno: errno) }
        }
    }

    public func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    public func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count =
                offset.map { pread(descriptor, base, buffer.count, off_t($0)) }
                ?? Glibc.read(
                    descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR {
                throw SystemCallError(operation: offset == nil ? "read" : "pread", errno: errno)
            }
        }
    }

    public func write(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64
    ) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, base + written, bytes.count - written, off_t(offset + Int64(written)))
            if count > 0 {
                written += count
            } else if count == 0 {
                throw SystemCallError(operation: "pwrite", errno: EIO)
            } else if errno != EINTR {
                throw SystemCallError(operation: "pwrite", errno: errno)
            }
        }
    }

    public func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        while (dataOnly ? fdatasync(descriptor) : fsync(descriptor)) != 0 {
            if errno != EINTR {
                throw SystemCallError(operation: dataOnly ? "fdatasync" : "fsync", errno: errno)
            }
        }
    }

    public func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        while ftruncate(descriptor, off_t(size)) != 0 {
            if errno != EINTR { throw SystemCallError(operation: "ftruncate", errno: errno) }
        }
    }

    public func size(of descriptor: Int32) throws(SystemCallError) -> Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemCallError(operation: "fstat", errno: errno) }
        return Int64(status.st_size)
    }

    public func rename(_ source: String, to destination: String) throws(SystemCallError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw SystemCallError(operation: "rename", path: "\(source) → \(destination)", errno: errno)
        }
    }

    public func removeFile(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 else { throw SystemCallError(operation: "unlink", path: path, errno: errno) }
    }

    public func removeDirectory(_ path: String) throws(SystemCallError) {
        guard rmdir(path) == 0 else { throw SystemCallError(operation: "rmdir", path: path, errno: errno) }
    }

    public func makeDirectory(_ path: String) throws(SystemCallError) {
        guard mkdir(path, 0o700) == 0 else { throw SystemCallError(operation: "mkdir", path: path, errno: errno) }
    }

    public func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(operation: "open", path: path, errno: errno) }
        defer { _ = Glibc.close(descriptor) }
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw SystemCallError(operation: "fsync", path: path, errno: errno) }
        }
    }

    public func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        guard let directory = opendir(path) else {
            throw SystemCallError(operation: "opendir", path: path, errno: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemCallError(operation: "readdir", path: path, errno: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    public func kind(of path: String) throws(SystemCallError) -> FileKind? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "stat", path: path, errno: errno)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    public func fingerprint(of path: String) throws(SystemCallError) -> FileFingerprint? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "stat", path: path, errno: errno)
        }
        return FileFingerprint(status)
    }

    public func stampChangeTime(_ descriptor: Int32) throws(SystemCallError) -> Int64? {
        guard futimens(descriptor, nil) == 0 else { throw SystemCallError(operation: "futimens", errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemCallError(operation: "fstat", errno: errno) }
        return FileFingerprint(status).changed
    }

    public func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw SystemCallError(operation: "flock", errno: errno) }
        }
        return true
    }

    public func unlock(_ descriptor: Int32) {
        while flock(descriptor, LOCK_UN) != 0 && errno == EINTR {}
    }

    public func pause(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
