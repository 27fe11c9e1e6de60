import Glibc
public import StintCore

/// Why a log operation failed: a ``code`` to match on, a ``message`` for people, and the details.
///
/// The message says what went wrong and how to fix it; it is meant to be printed as is
/// (`error: <message>`). Callers and tests match ``code``, never the text.
public struct LogError: CategorizedError, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Hashable, Sendable {
        /// The path does not exist.
        case notFound
        /// The path exists but is not a Stint log (no `format` file, or not a directory of segments).
        case notALog
        /// `create` was asked to make a log where something already is.
        case alreadyExists
        /// The log's `format` file names a version newer than this build understands.
        case newerFormat
        /// Another process holds the log's lock and did not release it within the configured wait.
        case locked
        /// The log is damaged before its tail; it is not repaired automatically.
        case damaged
        /// A system call failed (see ``LogError/cause`` for the `errno`).
        case io
        /// An earlier write or sync failed; this writer refuses every further append.
        case failStopped
        /// The caller passed something the log cannot store (an empty batch, an invalid event).
        case invalidInput
        /// A frame or batch exceeds the size limits of the format.
        case tooLarge
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and how to fix it.
    public var message: String
    /// Where in the log the problem is, when it concerns a place in it.
    public var location: LogLocation?
    /// The `seq` of the last event known to be intact before ``location``, when it applies.
    public var lastGoodSeq: Int64?
    /// The underlying error, such as a ``SystemCallError``.
    public var cause: (any Error & Sendable)?

    /// An error with its code, message and, when known, where it is and what caused it.
    public init(
        _ code: Code, _ message: String, location: LogLocation? = nil, lastGoodSeq: Int64? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.lastGoodSeq = lastGoodSeq
        self.cause = cause
    }

    /// Damage (a log damaged before its tail, or written by a newer Stint: exit 65); every other failure is
    /// a refusal (exit 1).
    public var category: ErrorCategory {
        switch code {
        case .damaged, .newerFormat: .damaged
        default: .refused
        }
    }

    public var description: String { message }
}

extension LogError {
    /// A failed system call, described with the path it concerned and a hint.
    package static func io(_ error: SystemCallError, _ doing: String, path: String) -> LogError {
        let error = error.on(path)
        let hint: String
        switch error.errno {
        case ENOSPC: hint = "free some disk space and try again"
        case EACCES, EPERM: hint = "check the permissions of \(path)"
        case EROFS: hint = "the file system is read-only; remount it read-write"
        default: hint = "check the disk and try again"
        }
        return LogError(.io, "could not \(doing): \(error); \(hint)", cause: error)
    }

    /// A problem found in the log, turned into an error that refuses to go on.
    init(damage problem: LogProblem, logPath: String, lastGoodSeq: Int64?, doing: String) {
        let last = lastGoodSeq.map { "the last intact event is seq \($0)" } ?? "no event before it is intact"
        self.init(
            .damaged,
            "cannot \(doing) \(logPath): \(problem.description); \(last). The log is damaged before its tail "
                + "and is not repaired automatically: run `stint verify` for the full report, then restore the "
                + "segment from a backup, or run `stint repair` to keep the events before the damage and set the "
                + "rest aside",
            location: problem.location, lastGoodSeq: lastGoodSeq, cause: problem)
    }
}
