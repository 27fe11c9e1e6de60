import Glibc

/// A system call that failed: what it was, on which path when known, and the `errno` it set.
///
/// Appears as the ``LogError/cause`` of ``LogError/Code/io`` errors, so callers can tell a full disk
/// (`ENOSPC`) from a failing device (`EIO`).
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, such as `fdatasync` or `rename`.
    public var operation: String
    /// The path it concerned, when the call took one.
    public var path: String?
    /// The `errno` value.
    public var errno: Int32

    /// An error for a failed call.
    public init(operation: String, path: String? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// A copy naming `path` (for calls made through a descriptor).
    func on(_ path: String) -> SystemCallError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }

    public var description: String {
        let subject = path.map { " \($0)" } ?? ""
        return "\(operation)\(subject): \(SystemCallError.describe(errno)) (errno \(errno))"
    }

    /// The C library's text for an `errno` value.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
