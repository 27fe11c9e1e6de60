/// Constants shared by the widget snapshot's writer and its readers.
public enum WidgetDataConstants {
    /// The name of the snapshot file, `widget-data.json`.
    public static let filename = "widget-data.json"

    /// How many tags the quick-start buttons offer, most recently used first.
    public static let maxRecentTags = 4

    /// The age in milliseconds (24 hours of elapsed time, not a calendar day) after which a reader
    /// treats a snapshot as stale and asks the user to open the app (or run `stint publish`).
    public static let staleSnapshotAgeMilliseconds: Int64 = 24 * 60 * 60 * 1000
}
