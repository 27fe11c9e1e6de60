/// Why a JSON snapshot of a projection (a `WidgetData` file, a Live Activity content) cannot be read.
///
/// Callers match on ``code``; ``message`` names the member that is wrong (as a path such as
/// `runningTimers[2].startTime`) and says how to fix it; ``cause`` carries the JSON parser's error when
/// the bytes are not JSON at all.
public struct ProjectionDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the snapshot has.
    public enum Code: String, Hashable, Sendable {
        /// The bytes are not valid JSON.
        case malformedJSON
        /// A required member is missing.
        case missingMember
        /// A member has the wrong JSON type (a string where a number belongs, for example).
        case wrongType
        /// A member has the right type but a value that cannot be (a negative count, an unparsable id).
        case invalidValue
    }

    public var code: Code
    /// Where the problem is, as a path from the document root (`""` for the root itself).
    public var path: String
    public var message: String
    public var cause: JSONParseError?

    public init(code: Code, path: String, message: String, cause: JSONParseError? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
