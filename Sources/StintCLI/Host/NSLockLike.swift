import Synchronization

/// A tiny mutual-exclusion lock for the CLI's output buffers.
final class NSLockLike: Sendable {
    private let mutex = Mutex<Void>(())

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body() }
    }
}
