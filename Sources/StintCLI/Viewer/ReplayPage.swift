import StintCore
import StintEngine

/// What `stint view` shows (docs/decisions/0011-html-replay-viewer.md): the points of a log's history, each an
/// instant at which batches were recorded, with what the app had on screen there and what the batches did.
///
/// Made by one ``PublishReplay`` walk from the log's first batch, so that each point's widgets are those
/// `stint widget --at` draws at its instant. Every point of the range is kept up to ``maximumPoints``; past it,
/// every other point is dropped and the stride doubles, so that the points stay evenly spread (the last
/// one is always kept). Only the kept points are drawn.
struct ReplayPage {
    /// A widget drawn at every point: its family and, for Time by Tag, its period.
    struct Slot: Hashable {
        var family: WidgetFamily
        var period: WidgetPeriod

        /// `systemSmall`, `summaryMedium (today)`.
        var label: String { family.isSummary ? "\(family.name) (\(period.name))" : family.name }
    }

    /// The widgets of every point: home screen, lock screen, Time by Tag for each period, the Live Activity on
    /// the lock screen and in the Dynamic Island (compact and expanded).
    static let slots: [Slot] =
        [.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline]
        .map { Slot(family: $0, period: .thisWeek) }
        + [WidgetFamily.summaryMedium, .summaryLarge].flatMap { family in
            [WidgetPeriod.today, .thisWeek, .thisMonth].map { Slot(family: family, period: $0) }
        }
        + [WidgetFamily.liveActivity, .dynamicIslandCompact, .dynamicIslandExpanded].map {
            Slot(family: $0, period: .thisWeek)
        }

    /// An event of a point's batches.
    struct Event {
        var seq: Int64
        var device: String?
        var type: String
        var text: String
        /// Its place in the hash chain: `genesis` for a log's first line, else `✓` and the first digits of the
        /// hash of the line before it, which its `prev` names (every event shown was checked as the log was
        /// read; damage stops the walk, and the page says where).
        var chain: String
    }

    /// What a point's batches changed: a record, the running timers, or a total, before and after them.
    struct Change {
        var what: String
        var before: String
        var after: String
    }

    /// One instant of the history.
    struct Point {
        var at: Instant
        /// The batches recorded at the instant: their seqs, events and `stint replay` rows.
        var firstSeq: Int64
        var lastSeq: Int64
        var rows: [String]
        /// The first of their events (``ReplayPage/eventsShown``), and how many more there are.
        var events: [Event]
        var moreEvents: Int
        /// How many batches the point stands for: its own and those of the dropped points since the last point.
        var batches: Int
        /// Whether the app wrote the snapshot file at the point or at a dropped point since the last one.
        var wrote: Bool
        /// What the batches changed (``ReplayPage/changes(_:format:)``).
        var changes: [Change]
        /// On a space: the devices whose batches the point holds (the first digits of their ids), in merge
        /// order, and what the space's rules resolved while folding them (`stint conflicts` lines).
        var devices: [String]
        var conflicts: [String]
        /// How many conflicts were resolved since the point before: its own, and those of the dropped points.
        var conflictsSince: Int
        /// The SHA-256 of `stint snapshot --at` at the instant.
        var fingerprint: String
        /// Per slot, the index of its SVG in ``ReplayPage/svgs``: as the app had it on screen (nil when nothing
        /// was published yet), and as a publish at the instant would draw it (`stint widget --as-computed`).
        var widgets: [Int?]
        var computed: [Int?]
    }

    /// The log's name and time zone, the points, and each distinct SVG once.
    var name: String
    /// On a space, the devices of the points' batches, in the order they first appear: a lane each.
    var lanes: [String] = []
    var timeZone: String
    var points: [Point]
    var svgs: [String]
    /// How many points the range held, and how many batches.
    var pointsInRange: Int
    var batchesInRange: Int
    /// Where damage stopped the walk, if it did.
    var warning: String?

    static let defaultPoints = 400
    static let maximumPoints = 800
}
