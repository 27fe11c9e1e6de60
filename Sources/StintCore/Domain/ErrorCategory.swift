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
