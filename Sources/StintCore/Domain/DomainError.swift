/// Why the domain refused a command, could not read an argument, or could not read an event.
///
/// The CLI prints ``message`` (which says what went wrong and what to do) and maps ``Code/category`` to an
/// exit status: ``Category/usage`` → 64, ``Category/refused`` → 1, ``Category/damaged`` → 65. Callers and
/// tests match ``code``, never the message text.
public struct DomainError: CategorizedError, Hashable, CustomStringConvertible {
    /// How the CLI treats an error: the category every module shares.
    public typealias Category = ErrorCategory

    /// What went wrong, for callers to match on.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        // Usage: the text of an argument is not acceptable.
        /// A tag name is empty after trimming surrounding whitespace.
        case tagNameEmpty
        /// A tag name is longer than ``InputLimits/maximumTagNameLength`` characters.
        case tagNameTooLong
        /// A new tag's name is reserved for a summary row ("Untagged", "Other"), compared ignoring case.
        case tagNameReserved
        /// A tag name contains a control character.
        case tagNameControlCharacter
        /// A comment is longer than ``InputLimits/maximumCommentLength`` characters.
        case commentTooLong
        /// A comment contains a control character other than newline or tab.
        case commentControlCharacter
        /// A color is not `#RRGGBB`.
        case invalidColor
        /// A time argument is in none of the accepted forms.
        case invalidTime
        /// A record reference has fewer than four hexadecimal digits.
        case referenceTooShort
        /// A record reference is not hexadecimal digits and dashes, or is longer than a UUID.
        case invalidReference
        /// Arguments that cannot be used together, such as record ids together with `--all`.
        case conflictingArguments
        /// A command that needs at least one of several arguments got none (an edit with nothing to set).
        case missingArgument

        // Refused: well-formed arguments this log cannot satisfy.
        /// A local time falls in a daylight-saving gap.
        case nonexistentLocalTime
        /// A time is later than now.
        case timeInFuture
        /// An end is before its start.
        case endBeforeStart
        /// A record would last longer than ``InputLimits/maximumRecordMilliseconds`` without `force`, or
        /// longer than ``InputLimits/longestForcedRecordMilliseconds`` with it.
        case recordTooLong
        /// `stop` or `cancel` without ids while no timer runs.
        case noTimerRunning
        /// `stop` or `cancel` without ids while several timers run; ``DomainError/candidates`` lists them.
        case severalRunning
        /// A record prefix matches several records; ``DomainError/candidates`` lists them.
        case ambiguousReference
        /// No record has this id or prefix (or it was deleted, for verbs that need a live record).
        case unknownRecord
        /// The record is running, for a verb that needs a completed one.
        case recordRunning
        /// No tag that is not deleted has this name (or id).
        case unknownTag
        /// The named tag is archived and so is not offered for new time.
        case tagArchived
        /// Another tag that is not deleted already has this name (compared case-insensitively).
        case tagNameTaken
        /// The undo stack is empty.
        case nothingToUndo
        /// The redo stack is empty.
        case nothingToRedo
        /// `continue` without an id while no record has ended.
        case nothingToContinue
        /// `join` of two records with a gap between them.
        case notAdjacent
        /// `join` of two records with different tags.
        case tagsDiffer
        /// `join` of two records that both have a comment, and different ones.
        case commentsDiffer
        /// A `split` instant that is not strictly inside the record.
        case splitOutsideRecord

        // Damaged: events this build cannot use.
        /// An event type this build does not know.
        case unknownEventType
        /// An event version this build cannot read (newer than it writes, or an old one without an upgrade).
        case unknownEventVersion
        /// An event payload with a missing, unknown or ill-typed member.
        case invalidEventData
        /// An event that contradicts the events before it (a correct writer never produces one).
        case inconsistentEvent
        /// A saved checkpoint that this build cannot read; callers ignore it and fold from the log.
        case invalidCheckpoint

        /// How the CLI treats this code.
        public var category: Category {
            switch self {
            case .tagNameEmpty, .tagNameTooLong, .tagNameReserved, .tagNameControlCharacter, .commentTooLong,
                .commentControlCharacter,
                .invalidColor, .invalidTime, .referenceTooShort, .invalidReference, .conflictingArguments,
                .missingArgument:
                return .usage
            case .unknownEventType, .unknownEventVersion, .invalidEventData, .inconsistentEvent, .invalidCheckpoint:
                return .damaged
            default:
                return .refused
            }
        }
    }

    /// What went wrong, for callers to match on.
    public var code: Code
    /// What went wrong and how to fix it, in one or more sentences for a person.
    public var message: String
    /// The records a person has to choose between (``Code/severalRunning``, ``Code/ambiguousReference``).
    public var candidates: [Record]
    /// The `seq` of the event that could not be read or applied.
    public var seq: Int64?
    /// The payload member that is missing, unknown or ill-typed (``Code/invalidEventData``).
    public var member: String?

    public init(_ code: Code, _ message: String, candidates: [Record] = [], seq: Int64? = nil, member: String? = nil) {
        self.code = code
        self.message = message
        self.candidates = candidates
        self.seq = seq
        self.member = member
    }

    public var category: Category { code.category }

    public var description: String {
        seq.map { "event \($0): \(message)" } ?? message
    }
}
