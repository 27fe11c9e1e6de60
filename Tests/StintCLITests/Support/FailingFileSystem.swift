import Foundation
@_spi(FaultInjection) import StintLog

/// A POSIX ``LogFileSystem`` that fails one chosen operation and keeps track of what is not durable yet.
///
/// Operations are counted by class — writes (`pwrite`), syncs (`fsync`, `fdatasync`, directory `fsync`) and
/// renames — and the one numbered ``failAt`` of class ``failing`` fails with ``errno`` (a failing write first
/// writes half its bytes, as a full disk or a dying device can). It fails once: later operations succeed,
/// as they would for the next process.
///
/// It also records which files have data written since their last sync and which directory entries were
/// created, renamed or removed since their directory's last sync, so a test can check that a command that
/// reported success left nothing of the log's own files unsynced.
final class FailingFileSystem: LogFileSystem, @unchecked Sendable {
    /// The classes of operations that can be made to fail.
    enum Operation: String, CaseIterable, Sendable {
        case write, sync, rename
    }

    private let base = POSIXFileSystem()
    private let lock = NSLock()
    private var counts: [Operation: Int] = [:]
    private var paths: [Int32: String] = [:]
    private var unsyncedFiles: Set<String> = []
    private var unsyncedEntries: Set<String> = []
    /// The class of the operation to fail.
    var failing: Operation?
    /// The number (from 0) of the operation of that class to fail.
    var failAt = 0
    /// The errno of the injected failure.
    var errno: Int32 = EIO
    /// Whether the failure was injected.
    private(set) var failed = false
    /// The file the injected failure was on, when known (the file written or synced, the source renamed).
    private(set) var failedPath: String?

    /// How many operations of each class were made.
    func count(of operation: Operation) -> Int { lock.withLock { counts[operation] ?? 0 } }

    /// The files with unsynced data and the directory entries not yet synced, as paths, among those for
    /// which `isIncluded` holds.
    func notDurable(_ isIncluded: (String) -> Bool) -> [String] {
        let (files, entries) = lock.withLock { (unsyncedFiles, unsyncedEntries) }
        return (files.filter(isIncluded).map { "data of \($0)" } + entries.filter(isIncluded).map { "entry \($0)" })
            .sorted()
    }

    /// Counts an operation and tells whether it is the one to fail.
    private func shouldFail(_ operation: Operation, on path: String? = nil) -> Bool {
        lock.withLock {
            let number = counts[operation, default: 0]
            counts[operation] = number + 1
            if !failed, failing == operation, number == failAt {
                failed = true
                failedPath = path
                return true
            }
            return false
        }
    }

    private func injected(_ name: String, _ path: String? = nil) -> SystemCallError {
        SystemCallError(operation: name, path: path, errno: errno)
    }

    private func path(of descriptor: Int32) -> String? {
        lock.withLock { paths[descriptor] }
    }

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        let existed = (try? base.kind(of: path)) != nil
        let descriptor = try base.openFile(path, mode)
        lock.withLock {
            paths[descriptor] = path
            if !existed { unsyncedEntries.insert(path) }
            if existed && mode == .createTruncated { unsyncedFiles.insert(path) }
        }
        return descriptor
    }

    func close(_ descriptor: Int32) {
        _ = lock.withLock { paths.removeValue(forKey: descriptor) }
        base.close(descriptor)
    }

    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        try base.read(descriptor, into: buffer, at: offset)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        if let path = path(of: descriptor) { _ = lock.withLock { unsyncedFiles.insert(path) } }
        if shouldFail(.write, on: path(of: descriptor)) {
            if bytes.count > 1 {
                try? base.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count / 2)]), at: offset)
            }
            throw injected("pwrite")
        }
        try base.write(descriptor, bytes, at: offset)
    }

    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        if shouldFail(.sync, on: path(of: descriptor)) { throw injected(dataOnly ? "fdatasync" : "fsync") }
        try base.synchronize(descriptor, dataOnly: dataOnly)
        if let path = path(of: descriptor) { _ = lock.withLock { unsyncedFiles.remove(path) } }
    }

    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        try base.truncate(descriptor, to: size)
        if let path = path(of: descriptor) { _ = lock.withLock { unsyncedFiles.insert(path) } }
    }

    func size(of descriptor: Int32) throws(SystemCallError) -> Int64 {
        try base.size(of: descriptor)
    }

    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        if shouldFail(.rename, on: source) { throw injected("rename", source) }
        try base.rename(source, to: destination)
        lock.withLock {
            unsyncedEntries.insert(source)
            unsyncedEntries.insert(destination)
            if unsyncedFiles.remove(source) != nil { unsyncedFiles.insert(destination) }
            for (descriptor, path) in paths where path == source { paths[descriptor] = destination }
        }
    }

    func removeFile(_ path: String) throws(SystemCallError) {
        try base.removeFile(path)
        lock.withLock {
            unsyncedEntries.insert(path)
            unsyncedFiles.remove(path)
        }
    }

    func removeDirectory(_ path: String) throws(SystemCallError) {
        try base.removeDirectory(path)
        _ = lock.withLock { unsyncedEntries.insert(path) }
    }

    func makeDirectory(_ path: String) throws(SystemCallError) {
        try base.makeDirectory(path)
        _ = lock.withLock { unsyncedEntries.insert(path) }
    }

    func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        if shouldFail(.sync, on: path) { throw injected("fsync", path) }
        try base.synchronizeDirectory(path)
        let prefix = path.hasSuffix("/") ? path : path + "/"
        lock.withLock {
            unsyncedEntries = unsyncedEntries.filter {
                !($0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/"))
            }
        }
    }

    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try base.contentsOfDirectory(path)
    }

    func kind(of path: String) throws(SystemCallError) -> FileKind? {
        try base.kind(of: path)
    }

    func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        try base.tryLockExclusively(descriptor)
    }

    func unlock(_ descriptor: Int32) { base.unlock(descriptor) }

    func pause(milliseconds: Int) {
        base.pause(milliseconds: milliseconds)
    }
}
