/// One interval as a source system recorded it, before it is mapped to a Stint record.
///
/// The values are exactly the source's: times converted to instants without loss (Timewarrior's
/// whole seconds, Watson's epoch seconds), names and texts as written. An interval may be invalid for
/// Stint (an end before its start); ``ImportPlan`` decides what becomes of it.
public struct ImportedInterval: Hashable, Sendable {
    /// The system and the identity the record id is derived from.
    public var source: ImportSource
    /// Where the interval is written: the start of its element.
    public var position: ImportPosition
    public var start: Instant
    /// nil while it runs (an open Timewarrior interval, Watson's running frame).
    public var end: Instant?
    /// Watson's project; nil for Timewarrior, which has none.
    public var project: String?
    /// The tags in the source's order (Timewarrior sorts them; Watson keeps the order they were given in).
    public var tags: [String]
    /// Timewarrior's annotation; nil when absent or for Watson, which has none.
    public var annotation: String?
    /// Members of the element that neither Timewarrior nor Watson are known to write; they are not
    /// imported, and the report names them.
    public var unknownMembers: [String]
    /// Whether a time had digits finer than a millisecond that were rounded away (Watson files written
    /// with fractional seconds).
    public var roundedToMillisecond: Bool

    public init(
        source: ImportSource, position: ImportPosition, start: Instant, end: Instant?, project: String? = nil,
        tags: [String] = [], annotation: String? = nil, unknownMembers: [String] = [],
        roundedToMillisecond: Bool = false
    ) {
        self.source = source
        self.position = position
        self.start = start
        self.end = end
        self.project = project
        self.tags = tags
        self.annotation = annotation
        self.unknownMembers = unknownMembers
        self.roundedToMillisecond = roundedToMillisecond
    }
}
