/// Choices that change how intervals are mapped to records.
///
/// Changing an option between two imports of the same file changes the mapped values, so the second
/// import edits the records the first created. The limits on names and comments are the domain's
/// (``InputLimits``), not options.
public struct ImportOptions: Hashable, Sendable {
    /// Timewarrior only: tags that become an interval's Stint tag in preference to the first, in order of
    /// preference, compared case-insensitively. Timewarrior sorts an interval's tags, so without this the
    /// Stint tag is the alphabetically first usable one.
    public var preferredTags: [String]

    public init(preferredTags: [String] = []) {
        self.preferredTags = preferredTags
    }
}
