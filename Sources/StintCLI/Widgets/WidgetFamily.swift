/// A widget look that `stint widget --family NAME` renders: one of the reference app's home screen,
/// lock screen and "Time by Tag" widget sizes, or its Live Activity.
///
/// The raw value is the name `--family` takes:
///
/// | name | the reference's widget | SVG points | text columns × rows |
/// |---|---|---|---|
/// | `systemSmall` | home widget, small | 170 × 170 | 26 × 9 |
/// | `systemMedium` | home widget, medium | 364 × 170 | 54 × 9 |
/// | `systemLarge` | home widget, large | 364 × 382 | 54 × 20 |
/// | `accessoryCircular` | lock screen, circular | 76 × 76 | 11 × 5 |
/// | `accessoryRectangular` | lock screen, rectangular | 172 × 76 | 26 × 5 |
/// | `accessoryInline` | lock screen, inline | 234 × 24 | 34 × 3 |
/// | `summaryMedium` | Time by Tag, medium (4 rows) | 364 × 170 | 54 × 9 |
/// | `summaryLarge` | Time by Tag, large (10 rows) | 364 × 382 | 54 × 20 |
/// | `liveActivity` | Live Activity on the lock screen | 364 × 58–160 | 54 × 3–9 |
/// | `dynamicIslandCompact` | Live Activity, Dynamic Island compact | 250 × 36 | 34 × 3 |
/// | `dynamicIslandExpanded` | Live Activity, Dynamic Island expanded | 371 × 58–160 | 54 × 3–9 |
///
/// The Live Activity's height, on the lock screen and in the expanded Dynamic Island, follows its rows, as the
/// real one does; every other family has a fixed size.
enum WidgetFamily: String, CaseIterable, Hashable, Sendable {
    case systemSmall
    case systemMedium
    case systemLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline
    case summaryMedium
    case summaryLarge
    case liveActivity
    case dynamicIslandCompact
    case dynamicIslandExpanded

    /// The name `--family` takes, for example `systemSmall`.
    var name: String { rawValue }

    /// The family named `name` (exact spelling); nil for any other text.
    init?(name: String) {
        self.init(rawValue: name)
    }

    /// The names of all families, comma separated, for help texts and error messages.
    static var allNames: String {
        allCases.map(\.name).joined(separator: ", ")
    }

    /// Whether the family is a presentation of the Live Activity (the lock screen's or the Dynamic Island's):
    /// drawn from the running timers, with no snapshot staleness, and gone once iOS ended the activity.
    var isLiveActivity: Bool {
        self == .liveActivity || self == .dynamicIslandCompact || self == .dynamicIslandExpanded
    }

    /// Whether the family is a "Time by Tag" summary widget, the only ones `--period` applies to.
    var isSummary: Bool {
        self == .summaryMedium || self == .summaryLarge
    }

    /// How many rows the Time by Tag widget lists, the last one folding the rest into "Other"; nil for
    /// the other families.
    var summaryRowLimit: Int? {
        switch self {
        case .summaryMedium: return 4
        case .summaryLarge: return 10
        default: return nil
        }
    }
}
