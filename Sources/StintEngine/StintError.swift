public import StintCore
public import StintLog

/// Why an engine operation failed: a category the CLI maps to an exit status, a message for people, and
/// the module error it came from for callers that match codes.
public struct StintError: CategorizedError, CustomStringConvertible {
    /// How the failure is reported: the category every module shares.
    public typealias Category = ErrorCategory

    public var category: Category
    /// What went wrong and how to fix it.
    public var message: String
    /// Further lines: candidates for an ambiguous id, running timers, problem locations.
    public var details: [String]
    /// The domain error this came from, if any.
    public var domain: DomainError?
    /// The log error this came from, if any.
    public var log: LogError?
    /// What the engine's callers match on, for the failures that they answer rather than report.
    public var code: Code?
    /// The error of another module this one carries through the engine unchanged (such as the CLI's error
    /// thrown by a command builder), for the caller that made it.
    public var cause: (any CategorizedError)?

    /// The failures a caller answers.
    public enum Code: Hashable, Sendable {
        /// `batches(after:)` of a ``MergedStore``: events that sort before the position's last event arrived
        /// since it was given out, so what was folded up to it is not a prefix of the history any more; fold
        /// from the start (docs/decisions/0007 §1.3).
        case positionSuperseded
    }

    public init(
        _ category: Category, _ message: String, details: [String] = [], domain: DomainError? = nil,
        log: LogError? = nil
    ) {
        self.category = category
        self.message = message
        self.details = details
        self.domain = domain
        self.log = log
    }

    public init(_ error: DomainError) {
        let category = error.category
        var message = error.message
        if let seq = error.seq, category == .damaged, !message.contains("seq") { message += " (at seq \(seq))" }
        self.init(category, message, domain: error)
    }

    public init(_ error: LogError) {
        self.init(error.category, error.message, log: error)
    }

    /// Any error as the engine reports it: a module's error with its category, message and details (the
    /// domain's and the log's kept for callers that match their codes, another module's as the ``cause``);
    /// an error without a category (a failed system call) as a refusal that quotes it.
    public init(_ error: any Error) {
        switch error {
        case let error as StintError: self = error
        case let error as DomainError: self.init(error)
        case let error as LogError: self.init(error)
        case let error as any CategorizedError:
            self.init(error.category, error.message, details: error.details)
            cause = error
        default: self.init(.refused, "\(error)")
        }
    }

    public var description: String { message }

    /// Whether nothing is at the log's path (so `stint init` would make one there).
    public var isMissingLog: Bool { log?.code == .notFound }

    /// Whether something that is not a usable place for a new log is at the path: a log already, or
    /// another file or directory.
    public var isOccupiedPath: Bool { log?.code == .alreadyExists || log?.code == .notALog }
}
