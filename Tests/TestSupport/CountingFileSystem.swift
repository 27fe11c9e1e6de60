import Foundation
@_spi(FaultInjection) public import StintLog

/// A file system that records the files opened through it and how many bytes were read from each, by name (the
/// last path component), for tests that check what a read or an open touched.
@_spi(FaultInjection)
public final class CountingFileSystem: ForwardingFileSystem, @unchecked Sendable {
    public let base: any LogFileSystem = POSIXFileSystem()
    private let lock = NSLock()
    private var opened: [String] = []
    private var names: [Int32: String] = [:]
    private var bytes: [String: Int] = [:]

    public init() {}

    /// The paths opened since the start or the last ``reset()``, in order.
    public var openedPaths: [String] { lock.withLock { opened } }

    /// The names of the files opened since the start or the last ``reset()``, in order.
    public var openedNames: [String] { openedPaths.map { ($0 as NSString).lastPathComponent } }

    /// The bytes read from files named `name` since the start or the last ``reset()``.
    public func bytesRead(of name: String) -> Int { lock.withLock { bytes[name] ?? 0 } }

    /// Forgets what was opened and read so far.
    public func reset() {
        lock.withLock {
            opened = []
            bytes = [:]
        }
    }

    public func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        let descriptor = try base.openFile(path, mode)
        lock.withLock {
            opened.append(path)
            names[descriptor] = (path as NSString).lastPathComponent
        }
        return descriptor
    }

    public func read(_ d: Int32, into b: UnsafeMutableRawBufferPointer, at o: Int64?) throws(SystemCallError) -> Int {
        let count = try base.read(d, into: b, at: o)
        lock.withLock {
            if let name = names[d] { bytes[name, default: 0] += count }
        }
        return count
    }
}
