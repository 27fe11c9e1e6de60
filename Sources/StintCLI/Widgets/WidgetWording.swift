import StintCore

/// Every text the widgets show that does not come from the log.
///
/// The reference app's stale snapshot says "Open Minuta to refresh"; Stint's snapshot is refreshed by
/// `stint publish`, so its widgets say so, in as few characters as the reference's text.
enum WidgetWording {
    /// The caption of today's total.
    static let today = "Today"
    /// The name of a running timer without a tag, and of the quick-start button that starts one.
    static let untaggedTimer = "Timer"
    /// Replaces the "Today" caption (home widgets) or the period title (Time by Tag) on a stale snapshot.
    static let staleSnapshot = "Refresh: stint publish"
    /// What the Time by Tag widget shows for a period without tracked time.
    static let noRecords = "No records"
    /// The large home widget's timer section when no timer runs.
    static let noTimerRunning = "No timer running"
    /// The title of the large home widget's time-by-tag section.
    static let timeByTag = "Time by Tag"
    /// The label of a running timer's stop button.
    static let stop = "Stop"
    /// The label of the button that stops every running timer.
    static let stopAll = "Stop All"
    /// What `--family liveActivity` shows when no timer runs (the reference shows no activity then).
    static let noLiveActivity = "No Live Activity: no timer is running"
    /// What `--family liveActivity` shows after iOS ended the activity, 8 hours after it started, while
    /// timers still run (the app starts a new one at its next sync, in Stint at the next command).
    static let liveActivityEndedBySystem = "iOS ended the activity after 8 hours"

    /// "+N more", for timers a widget has no room to list.
    static func more(_ count: Int) -> String {
        "+\(count) more"
    }

    /// "1 record", "3 records": today's record count.
    static func records(_ count: Int) -> String {
        count == 1 ? "1 record" : "\(count) records"
    }

    /// The Time by Tag widget's title for `period`: "Today", "This Week" or "This Month".
    static func title(of period: WidgetPeriod) -> String {
        switch period {
        case .today: return "Today"
        case .thisWeek: return "This Week"
        case .thisMonth: return "This Month"
        }
    }
}
