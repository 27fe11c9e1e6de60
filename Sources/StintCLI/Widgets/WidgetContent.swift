import StintCore

/// What one widget family shows at one timeline entry, decided before anything is drawn: which timers,
/// how many fold into "+N more", the captions, totals, quick-start buttons and summary rows.
///
/// The text and SVG renderers draw the same content, so the rules (three rows or two and "+N more",
/// the stale caption, "No records") are decided and tested here once. Build it with
/// ``init(family:entry:calendar:period:)``.
struct WidgetContent: Hashable, Sendable {
    /// A running timer as a widget row shows it.
    struct Timer: Hashable, Sendable {
        var id: EntityID
        /// The tag's name, or "Timer" for an untagged timer.
        var name: String
        var color: WidgetColor
        var comment: String?
        /// Elapsed time at the entry's date.
        var elapsedMilliseconds: Int64

        /// `H:MM`, as the widgets show it.
        var elapsed: String { DurationFormatter.hoursMinutes(milliseconds: elapsedMilliseconds) }

        /// `M:SS` or `H:MM:SS`, as the Live Activity's ticking text shows it.
        var clock: String { LiveActivityClock.text(milliseconds: elapsedMilliseconds) }
    }

    /// A quick-start button: a recent tag, or an untagged "Timer" when the log has no recent tags.
    struct QuickStart: Hashable, Sendable {
        /// nil for the untagged button.
        var tagId: EntityID?
        var name: String
        var color: WidgetColor
    }

    /// A time-by-tag section: a title, its total and its rows.
    struct Summary: Hashable, Sendable {
        struct Row: Hashable, Sendable {
            var name: String
            var color: WidgetColor
            /// The compact form, `2h 15m`.
            var time: String
        }

        var title: String
        /// The compact form of the period's total.
        var total: String
        /// Already folded to the family's row limit; empty when nothing was tracked ("No records").
        var rows: [Row]
    }

    var family: WidgetFamily
    /// The entry's date: the moment the widget shows.
    var date: Instant
    /// Whether the snapshot is older than ``WidgetDataConstants/staleSnapshotAgeMilliseconds`` at ``date``.
    var isStale: Bool
    /// The caption the family shows above its numbers: "Today" (home widgets), the period title (Time by
    /// Tag), or ``WidgetWording/staleSnapshot`` on a stale snapshot for the families that show staleness.
    /// The Live Activity shows it only when it shows no timer: why there is no activity.
    var caption: String
    /// The timers the family lists and how many it folds into "+N more".
    var timers: WidgetTimerList
    /// Whether the family shows a "Stop All" button.
    var showsStopAll: Bool
    /// Today's total as `H:MM` (``WidgetTimelineEntry/todayTotal``).
    var todayTotal: String
    /// "3 records": the records that started today.
    var todayRecords: String
    /// Quick-start buttons (medium and large home widgets), at most ``WidgetDataConstants/maxRecentTags``.
    var quickStart: [QuickStart]
    /// Time by tag: today's for the large home widget, the period's for the Time by Tag widgets.
    var summary: Summary?

    /// Whether the family shows the stale caption: the home widgets (in place of "Today") and the Time by
    /// Tag widgets (in place of the period title), as in the reference.
    ///
    /// The lock screen accessories have no caption to replace, and the Live Activity is not drawn from a
    /// snapshot (the app or `stint` updates it directly), so they never show it.
    static func showsStaleness(_ family: WidgetFamily) -> Bool {
        switch family {
        case .systemSmall, .systemMedium, .systemLarge, .summaryMedium, .summaryLarge: return true
        case .accessoryCircular, .accessoryRectangular, .accessoryInline, .liveActivity, .dynamicIslandCompact,
            .dynamicIslandExpanded:
            return false
        }
    }

    /// How many summary rows the large home widget lists for today.
    static let largeSummaryRowLimit = 4
    /// How many timers the large home widget and the Live Activity list before "+N more".
    static let listedTimerLimit = 3
    /// How many lines the rectangular lock screen widget has.
    static let rectangularLines = 3
}

extension WidgetContent {
    /// This Live Activity content after iOS ended the activity (8 hours after it started): no timer rows,
    /// no buttons, and ``WidgetWording/liveActivityEndedBySystem`` in their place.
    func endedBySystem() -> WidgetContent {
        var content = self
        content.timers = WidgetTimerList(shown: [], moreCount: 0)
        content.showsStopAll = false
        content.caption = WidgetWording.liveActivityEndedBySystem
        return content
    }

    /// The stale caption when this family shows one and the snapshot is stale; nil otherwise.
    var staleNotice: String? {
        isStale && WidgetContent.showsStaleness(family) ? WidgetWording.staleSnapshot : nil
    }
}
