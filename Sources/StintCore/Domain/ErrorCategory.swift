/// How a failure is reported, the same in every module: the domain's refusals (``DomainError``), the
/// engine's (`StintError`) and the CLI's, which maps each to its documented exit status.
public enum ErrorCategory: Hashable, Sendable {
    /// The arguments are malformed: nothing was looked up (exit 64).
    case usage
    /// The arguments are well formed but the command cannot be carried out on this log, or failed for a
    /// reason outside the log's data (exit 1).
    case refused
    /// The log or an input holds data this build cannot read, or that contradicts what came before (exit 65).
    case damaged
}

/// An error every module reports the same way: a category (the CLI's exit status), a message that says what
/// went wrong and how to fix it, and further lines. The domain's, the log's, the engine's and the CLI's
/// errors conform, so a caller prints any of them and converts one into another without losing its category
/// (issue 35, docs/decisions/0009-one-seam.md step 4).
public protocol CategorizedError: Error, Sendable {
    var category: ErrorCategory { get }
    var message: String { get }
    /// Lines printed after the message: candidates for an ambiguous id, running timers, problem locations.
    var details: [String] { get }
}

extension CategorizedError {
    public var details: [String] { [] }
}
