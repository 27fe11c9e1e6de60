/// Choices that change how intervals are mapped to records.
///
/// Changing an option between two imports of the same file changes the mapped values, so the second
/// import edits the records the first created.
public struct ImportOptions: Hashable, Sendable {
    /// Timewarrior only: tags that become an interval's Stint tag in preference to the first, in order of
    /// preference, compared case-insensitively. Timewarrior sorts an interval's tags, so without this the
    /// Stint tag is the alphabetically first usable one.
    public var preferredTags: [String]
    /// The longest comment a record may have, in characters; longer ones are cut, ending in "…".
    public var maximumCommentLength: Int
    /// The longest tag name, in characters; longer names go into the comment instead.
    public var maximumTagNameLength: Int

    public init(preferredTags: [String] = [], maximumCommentLength: Int = 500, maximumTagNameLength: Int = 64) {
        self.preferredTags = preferredTags
        self.maximumCommentLength = maximumCommentLength
        self.maximumTagNameLength = maximumTagNameLength
    }
}
