/// The file operations the log performs, as a seam that tests and crash harnesses can replace.
///
/// Every byte the log reads or writes, every sync, rename, truncation, removal, directory listing and
/// lock goes through one value of this protocol (``POSIXFileSystem`` in production). A wrapper can count
/// operations, fail one with `EIO` or `ENOSPC`, write only part of a buffer, or remember which writes were
/// synced so that it can simulate a power loss by dropping the others.
///
/// File descriptors are plain `Int32` values owned by the caller of ``openFile(_:_:)`` until it calls
/// ``close(_:)``. Methods that take a descriptor report errors without a path; the log adds it.
@_spi(FaultInjection)
public protocol LogFileSystem: Sendable {
    /// Opens (and, depending on `mode`, creates or truncates) a regular file; close-on-exec is always set.
    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32

    /// Closes a descriptor; errors are ignored because the log never relies on `close` for durability.
    func close(_ descriptor: Int32)

    /// Reads up to `buffer.count` bytes at `offset` (`pread`), or at the current position when `offset` is
    /// nil (`read`, for pipes); returns 0 at the end of the file. Retries on `EINTR`.
    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int

    /// Writes all of `bytes` at `offset` (`pwrite`, repeated after short writes).
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError)

    /// Flushes the file to stable storage: `fdatasync` when `dataOnly`, otherwise `fsync`.
    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError)

    /// Sets the file's size (`ftruncate`).
    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError)

    /// The file's current size (`fstat`).
    func size(of descriptor: Int32) throws(SystemCallError) -> Int64

    /// Atomically replaces `destination` with `source` (`rename`).
    func rename(_ source: String, to destination: String) throws(SystemCallError)

    /// Removes a file (`unlink`).
    func removeFile(_ path: String) throws(SystemCallError)

    /// Removes an empty directory (`rmdir`).
    func removeDirectory(_ path: String) throws(SystemCallError)

    /// Creates a directory with mode 0755 (`mkdir`).
    func makeDirectory(_ path: String) throws(SystemCallError)

    /// Makes the directory's entries durable (`open(O_DIRECTORY)` + `fsync`).
    func synchronizeDirectory(_ path: String) throws(SystemCallError)

    /// The names in a directory, without `.` and `..`, in no particular order.
    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String]

    /// What is at `path` (following symbolic links); nil when nothing is.
    func kind(of path: String) throws(SystemCallError) -> FileKind?

    /// Tries once to take an exclusive `flock` on the descriptor without blocking; false when another
    /// descriptor holds it.
    func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool

    /// Releases the lock taken on the descriptor (best effort). Closing the descriptor alone does not release
    /// it while a copy of the descriptor lives on, such as in a child process another thread is starting.
    func unlock(_ descriptor: Int32)

    /// Waits before the next attempt to take a lock.
    func pause(milliseconds: Int)

    /// The fingerprint of the file at `path` (``FileFingerprint``), nil when there is no file there or the
    /// file system cannot tell (the default).
    func fingerprint(of path: String) throws(SystemCallError) -> FileFingerprint?

    /// Sets the file's times to now and returns the change time the file system gave it, in nanoseconds since
    /// 1970: the file system's present, on the clock its change times use (never the process's clock). Nil
    /// when the file system cannot tell (the default).
    func stampChangeTime(_ descriptor: Int32) throws(SystemCallError) -> Int64?
}

/// How ``LogFileSystem/openFile(_:_:)`` opens a file.
@_spi(FaultInjection)
public enum FileOpenMode: Hashable, Sendable {
    /// An existing file, for reading.
    case readOnly
    /// An existing file, for reading and writing.
    case readWrite
    /// For reading and writing, created empty when missing, never truncated.
    case createIfMissing
    /// For reading and writing, created when missing and truncated to zero bytes (temporary files).
    case createTruncated
}

/// What a path names.
@_spi(FaultInjection)
public enum FileKind: Hashable, Sendable {
    /// A regular file.
    case regularFile
    /// A directory.
    case directory
    /// Anything else (a device, a socket, a FIFO).
    case other
}
