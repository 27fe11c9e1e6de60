/// A time argument resolved to an instant, with the text it came from and what a person should know about it.
public struct ParsedTime: Hashable, Sendable {
    /// The instant the text names.
    public var instant: Instant
    /// The text as typed, quoted in messages.
    public var text: String
    /// Set when the text was ambiguous or had to be adjusted (a DST overlap or gap).
    public var notice: Notice?

    public init(_ instant: Instant, text: String? = nil, notice: Notice? = nil) {
        self.instant = instant
        self.text = text ?? instant.iso8601
        self.notice = notice
    }
}
