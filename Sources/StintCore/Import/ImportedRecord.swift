/// A Stint record to create or update from an import, with the id it has in the log.
///
/// The values are final: a tag name that is a valid Stint tag name (matched case-insensitively against
/// the log's tags, created when unknown) and a comment within Stint's limits. Applying it is the job of
/// the decision step: a record whose id is not in the log is added; one whose id is there with other
/// values is edited; one with equal values is left alone.
public struct ImportedRecord: Hashable, Sendable {
    /// Derived from ``source`` with ``EntityID/derived(source:identity:)``.
    public var recordId: EntityID
    public var start: Instant
    /// nil for a running timer.
    public var end: Instant?
    /// The Stint tag's name, as ``InputLimits/tagName(_:)`` accepts it unchanged; nil for untagged time.
    public var tagName: String?
    /// nil, or a text that ``InputLimits/comment(_:)`` accepts unchanged: trimmed, at most 500 characters,
    /// no control characters other than newline and tab.
    public var comment: String?
    public var source: ImportSource
    /// Where the interval is written in the imported file.
    public var position: ImportPosition
    /// For a finished Watson frame: the id its record had if it was imported while it was running (from
    /// the state file), which Watson does not link to the frame id it gives the frame when stopping it.
    /// When the log holds a running record with this id and none with ``recordId``, that record is this
    /// frame and should be completed and given these values rather than left running.
    public var replacesRunningId: EntityID?

    public init(
        recordId: EntityID, start: Instant, end: Instant?, tagName: String?, comment: String?, source: ImportSource,
        position: ImportPosition, replacesRunningId: EntityID? = nil
    ) {
        self.recordId = recordId
        self.start = start
        self.end = end
        self.tagName = tagName
        self.comment = comment
        self.source = source
        self.position = position
        self.replacesRunningId = replacesRunningId
    }

    public var isRunning: Bool { end == nil }
}
