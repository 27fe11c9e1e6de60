import Foundation
@_spi(FaultInjection) import StintLog

/// A ``LogFileSystem`` that passes through to POSIX and fails on demand.
///
/// It numbers the operations that change something (open-for-create, write, sync, truncate, rename, remove,
/// mkdir, directory sync). When the operation numbered `crashAt` comes, it fails with `errno` — a write
/// first writes half of its bytes, as a torn write would — and, in `crashes` mode, every later operation
/// fails too, as if the process had died there. `failing` fails every operation of the given names.
final class FaultInjectingFileSystem: LogFileSystem, @unchecked Sendable {
    private let base = POSIXFileSystem()
    private let lock = NSLock()
    private var count = 0
    private var crashed = false
    /// The operations that changed something, in order (`write segment`, `rename …`).
    private(set) var operations: [String] = []
    /// The number of the operation to fail (0-based), if any.
    var crashAt: Int?
    /// Whether everything fails after the injected fault.
    var crashes = true
    /// The errno of injected failures.
    var errno: Int32 = EIO
    /// Operation names (`fdatasync`, `pwrite`, `rename`, …) that always fail.
    var failing: Set<String> = []

    /// Counts a mutating operation and decides whether it fails; returns true to fail it.
    private func shouldFail(_ name: String, _ detail: String) -> Bool {
        lock.withLock {
            if crashed { return true }
            defer { count += 1 }
            operations.append("\(name) \(detail)")
            if failing.contains(name) { return true }
            if count == crashAt {
                if crashes { crashed = true }
                return true
            }
            return false
        }
    }

    private var isCrashed: Bool { lock.withLock { crashed } }

    private func failure(_ name: String) -> SystemCallError {
        SystemCallError(operation: name, errno: errno)
    }

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        if mode == .createTruncated || mode == .createIfMissing {
            if shouldFail("open", (path as NSString).lastPathComponent) { throw failure("open") }
        } else if isCrashed {
            throw failure("open")
        }
        return try base.openFile(path, mode)
    }

    func close(_ descriptor: Int32) {
        base.close(descriptor)
    }

    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        if isCrashed { throw failure("pread") }
        return try base.read(descriptor, into: buffer, at: offset)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        if shouldFail("pwrite", "\(bytes.count) bytes at \(offset)") {
            if bytes.count > 1 && !failing.contains("pwrite") {
                try? base.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count / 2)]), at: offset)
            }
            throw failure("pwrite")
        }
        try base.write(descriptor, bytes, at: offset)
    }

    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        let name = dataOnly ? "fdatasync" : "fsync"
        if shouldFail(name, "") { throw failure(name) }
        try base.synchronize(descriptor, dataOnly: dataOnly)
    }

    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        if shouldFail("ftruncate", "\(size)") { throw failure("ftruncate") }
        try base.truncate(descriptor, to: size)
    }

    func size(of descriptor: Int32) throws(SystemCallError) -> Int64 {
        if isCrashed { throw failure("fstat") }
        return try base.size(of: descriptor)
    }

    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        let detail = "\((source as NSString).lastPathComponent) → \((destination as NSString).lastPathComponent)"
        if shouldFail("rename", detail) { throw failure("rename") }
        try base.rename(source, to: destination)
    }

    func removeFile(_ path: String) throws(SystemCallError) {
        if shouldFail("unlink", (path as NSString).lastPathComponent) { throw failure("unlink") }
        try base.removeFile(path)
    }

    func removeDirectory(_ path: String) throws(SystemCallError) {
        if shouldFail("rmdir", (path as NSString).lastPathComponent) { throw failure("rmdir") }
        try base.removeDirectory(path)
    }

    func makeDirectory(_ path: String) throws(SystemCallError) {
        if shouldFail("mkdir", (path as NSString).lastPathComponent) { throw failure("mkdir") }
        try base.makeDirectory(path)
    }

    func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        if shouldFail("fsync-directory", (path as NSString).lastPathComponent) { throw failure("fsync") }
        try base.synchronizeDirectory(path)
    }

    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        if isCrashed { throw failure("opendir") }
        return try base.contentsOfDirectory(path)
    }

    func kind(of path: String) throws(SystemCallError) -> FileKind? {
        if isCrashed { throw failure("stat") }
        return try base.kind(of: path)
    }

    func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        if isCrashed { throw failure("flock") }
        return try base.tryLockExclusively(descriptor)
    }

    func unlock(_ descriptor: Int32) { base.unlock(descriptor) }

    func pause(milliseconds: Int) {
        base.pause(milliseconds: milliseconds)
    }
}
