/// Something a log writer did on its own that a person may want to know about.
///
/// Notices are not errors: the operation went on. The CLI prints them on stderr.
public struct LogNotice: Sendable, CustomStringConvertible {
    /// The kinds of notices.
    public enum Kind: Hashable, Sendable {
        /// An interrupted append left a torn tail; its bytes were copied aside and the segment truncated.
        case tornTailSetAside
        /// Temporary files of an interrupted sealing or segment creation were removed.
        case temporaryFileRemoved
        /// A segment that reached the seal threshold before a crash was sealed on open.
        case interruptedSealCompleted
        /// Sealing failed after an append had been made durable; the writer stopped accepting appends.
        case sealFailed
    }

    /// What happened.
    public var kind: Kind
    /// A sentence saying what happened and what, if anything, to do.
    public var message: String
    /// Where it happened.
    public var location: LogLocation?

    /// A notice of a kind, with its message and, when it concerns one, a place in the log.
    public init(_ kind: Kind, _ message: String, location: LogLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    public var description: String { message }
}
