/// The colors a new tag gets when none is given: the next one in a fixed cycle.
///
/// The choice depends only on how many tags the log has ever created (deleted ones included), so the same
/// commands always give the same colors.
public enum TagPalette {
    /// Twelve colors that are distinct on light and dark backgrounds, in the order they are handed out.
    public static let colors: [String] = [
        "#3A7BD5", "#E4572E", "#29BF12", "#F2A541", "#8E44AD", "#17BEBB",
        "#D7263D", "#6C8EAD", "#F46036", "#2E294E", "#1B998B", "#C5D86D",
    ]

    /// The default color of the tag created after `createdCount` others.
    public static func color(forTagNumber createdCount: Int) -> String {
        colors[createdCount % colors.count]
    }
}
