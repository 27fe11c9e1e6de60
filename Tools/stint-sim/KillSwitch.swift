// kill -9 mid-batch, in one process: a file system (the engine's fault-injection seam, EngineOptions.fileSystem)
// that lets a device's next N changing operations through, writes only a prefix of the one after, and then
// fails every change, as a process killed there would leave its files. The simulator then drops the device's
// TimeLog and opens the replica again, as a restarted process would.
import Glibc
import StintCore
@_spi(FaultInjection) import StintLog
import Synchronization

final class KillSwitch: ForwardingFileSystem, Sendable {
    let base: any LogFileSystem = POSIXFileSystem()
    /// Changing operations left before the kill (nil: not armed), whether it happened, and a prefix length
    /// for the torn write.
    private let state = Mutex<(countdown: Int?, killed: Bool, tornFraction: Int)>((nil, false, 0))

    /// Kills the "process" at its `operations`-th next changing operation, tearing a write to `percent` %.
    func arm(after operations: Int, tearingTo percent: Int) {
        state.withLock { $0 = (operations, false, percent) }
    }

    /// Disarms; true when the kill happened since ``arm(after:tearingTo:)``.
    func disarm() -> Bool {
        state.withLock { state in
            defer { state = (nil, false, 0) }
            return state.killed
        }
    }

    /// Counts a changing operation: .pass, .tear (the kill lands in it) or .dead (after the kill).
    private enum Verdict { case pass, tear, dead }

    private func verdict() -> Verdict {
        state.withLock { state in
            if state.killed { return .dead }
            guard let countdown = state.countdown else { return .pass }
            if countdown == 0 {
                state.killed = true
                return .tear
            }
            state.countdown = countdown - 1
            return .pass
        }
    }

    private func killed(_ operation: String) -> SystemCallError {
        SystemCallError(operation: operation, errno: EIO)
    }

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        if mode == .createIfMissing || mode == .createTruncated, verdict() != .pass { throw killed("open") }
        return try base.openFile(path, mode)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        switch verdict() {
        case .pass:
            try base.write(descriptor, bytes, at: offset)
        case .tear:
            let fraction = state.withLock { $0.tornFraction }
            let count = bytes.count * fraction / 100
            if count > 0 { try base.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<count]), at: offset) }
            throw killed("pwrite")
        case .dead:
            throw killed("pwrite")
        }
    }

    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("fdatasync") }
        try base.synchronize(descriptor, dataOnly: dataOnly)
    }

    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("ftruncate") }
        try base.truncate(descriptor, to: size)
    }

    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("rename") }
        try base.rename(source, to: destination)
    }

    func removeFile(_ path: String) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("unlink") }
        try base.removeFile(path)
    }

    func makeDirectory(_ path: String) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("mkdir") }
        try base.makeDirectory(path)
    }

    func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        guard verdict() == .pass else { throw killed("fsync") }
        try base.synchronizeDirectory(path)
    }
}
