/// What an import read and what became of it: nothing is changed or left out without being listed here.
public struct ImportReport: Hashable, Sendable {
    /// Why an interval did not become a record.
    public enum SkipReason: String, Hashable, Sendable {
        /// Its end is before its start.
        case endBeforeStart
        /// Its end equals its start: it holds no time.
        case empty
        /// An earlier interval of the file has the same identity (the same Timewarrior start, the same Watson
        /// frame id); the first one is imported.
        case duplicateIdentity
    }

    /// An interval that was not imported.
    public struct Skip: Hashable, Sendable {
        public var reason: SkipReason
        public var source: ImportSource
        public var position: ImportPosition
        public var start: Instant
        public var end: Instant?
    }

    /// A record whose comment was cut to the maximum length; ``fullComment`` is what it would have been.
    public struct Truncation: Hashable, Sendable {
        public var recordId: EntityID
        public var position: ImportPosition
        public var fullComment: String
        /// The length of ``fullComment`` in characters.
        public var length: Int
    }

    /// A record whose comment holds a name that could not be its tag (too long, blank, with control
    /// characters): a Timewarrior tag or a Watson project.
    public struct NameInComment: Hashable, Sendable {
        public var recordId: EntityID
        public var position: ImportPosition
        public var name: String
    }

    /// A record whose values were changed in a way the report must mention.
    public struct Adjustment: Hashable, Sendable {
        public var recordId: EntityID
        public var position: ImportPosition
    }

    /// A member of the source's elements that is not imported, with how often it occurs.
    public struct UnknownMember: Hashable, Sendable {
        public var name: String
        public var count: Int
        /// The first element it occurs in.
        public var first: ImportPosition
    }

    /// Intervals in the input.
    public var read: Int
    /// Records produced (``running`` of them running).
    public var mapped: Int
    public var running: Int
    /// Intervals not imported, in the order of the input.
    public var skipped: [Skip]
    /// Records whose comment lists tags that are not their Stint tag.
    public var commentsWithExtraTags: Int
    /// Comments cut to the maximum length.
    public var truncated: [Truncation]
    /// Tag or project names that went into the comment because they cannot be Stint tag names.
    public var namesInComments: [NameInComment]
    /// Annotations in which control characters were replaced: carriage returns by newlines, the others by
    /// U+FFFD.
    public var controlCharactersReplaced: [Adjustment]
    /// Records with a time that had digits finer than a millisecond.
    public var roundedToMillisecond: [Adjustment]
    /// Records longer than ``InputLimits/maximumRecordMilliseconds`` (a forgotten timer, usually), which
    /// the domain accepts only when forced.
    public var longerThanMaximum: [Adjustment]
    /// Members of the input that are not imported, by name.
    public var unknownMembers: [UnknownMember]
    /// Tag names that differ only in case: Stint matches tag names case-insensitively, so each group
    /// names one Stint tag. Spellings in the order they first occur.
    public var mergedTagSpellings: [[String]]
    /// The distinct tag names of the records (case-insensitively), each in its first spelling, in the
    /// order they first occur.
    public var tagNames: [String]

    public init(
        read: Int = 0, mapped: Int = 0, running: Int = 0, skipped: [Skip] = [], commentsWithExtraTags: Int = 0,
        truncated: [Truncation] = [], namesInComments: [NameInComment] = [],
        controlCharactersReplaced: [Adjustment] = [], roundedToMillisecond: [Adjustment] = [],
        longerThanMaximum: [Adjustment] = [], unknownMembers: [UnknownMember] = [], mergedTagSpellings: [[String]] = [],
        tagNames: [String] = []
    ) {
        self.read = read
        self.mapped = mapped
        self.running = running
        self.skipped = skipped
        self.commentsWithExtraTags = commentsWithExtraTags
        self.truncated = truncated
        self.namesInComments = namesInComments
        self.controlCharactersReplaced = controlCharactersReplaced
        self.roundedToMillisecond = roundedToMillisecond
        self.longerThanMaximum = longerThanMaximum
        self.unknownMembers = unknownMembers
        self.mergedTagSpellings = mergedTagSpellings
        self.tagNames = tagNames
    }

    /// The skipped intervals with `reason`.
    public func skipped(_ reason: SkipReason) -> [Skip] {
        skipped.filter { $0.reason == reason }
    }
}
