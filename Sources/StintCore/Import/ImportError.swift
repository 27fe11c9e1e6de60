/// Why a file cannot be imported, where, and how to fix it.
///
/// A file with any such problem is refused as a whole: nothing of it is imported. Problems that
/// concern one interval's meaning rather than the file's form (an end before the start) are not errors:
/// ``ImportPlan`` skips that interval and lists it in the ``ImportReport``.
public struct ImportError: CategorizedError, Hashable, CustomStringConvertible {
    /// What kind of problem it is; callers match on this, never on the message.
    public enum Code: String, Hashable, Sendable {
        /// The text is not JSON (or is empty, or truncated).
        case malformedJSON
        /// The JSON does not have the shape the tool writes: not an array, an element that is not an
        /// object (Timewarrior) or an array of 4 to 6 items (Watson), a state that is not an object.
        case unexpectedStructure
        /// A required member is absent (Timewarrior's `start`).
        case missingField
        /// A value has the wrong JSON type (a number where a string is expected, …).
        case wrongType
        /// A time value is not a time: bad text, an impossible date, out of range.
        case invalidTime
        /// A value has the right type but cannot be used (an empty Watson frame id).
        case invalidValue
    }

    public var code: Code
    /// What went wrong and how to fix it, with the position.
    public var message: String
    /// A file that cannot be imported holds data the tool does not write: damage (exit 65).
    public var category: ErrorCategory { .damaged }
    /// Where the problem is; nil only for problems of the whole input.
    public var position: ImportPosition?
    /// What was expected at the position, such as `a UTC time like 20261127T090000Z`.
    public var expected: String?
    /// The JSON parser's error, for ``Code/malformedJSON``.
    public var cause: JSONParseError?

    public init(
        code: Code, message: String, position: ImportPosition? = nil, expected: String? = nil,
        cause: JSONParseError? = nil
    ) {
        self.code = code
        self.message = message
        self.position = position
        self.expected = expected
        self.cause = cause
    }

    public var description: String { message }
}
