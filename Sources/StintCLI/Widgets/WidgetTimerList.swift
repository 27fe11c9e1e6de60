/// The running timers a widget lists, and how many others it folds into "+N".
///
/// Three rules, one per kind of widget:
/// - ``first(of:)``: the first timer and "+N" for the others (small and medium home widgets, circular and
///   inline lock screen widgets).
/// - ``prefix(_:of:)``: up to `limit` timers, then "+N more" on a line of its own (large home widget, Live
///   Activity: four timers show three rows and "+1 more").
/// - ``fitting(lines:of:)``: at most `lines` lines in all; when the timers do not fit, `lines − 1` timers
///   and a "+N more" line (rectangular lock screen widget: three timers, or two and "+2 more" for four).
struct WidgetTimerList: Hashable, Sendable {
    /// The listed timers, oldest first.
    var shown: [WidgetContent.Timer]
    /// How many running timers are not listed.
    var moreCount: Int

    /// How many timers run in all.
    var runningCount: Int { shown.count + moreCount }

    /// Whether no timer runs.
    var isEmpty: Bool { runningCount == 0 }

    /// The first timer and a count of the others.
    static func first(of timers: [WidgetContent.Timer]) -> WidgetTimerList {
        prefix(1, of: timers)
    }

    /// Up to `limit` timers and a count of the rest.
    static func prefix(_ limit: Int, of timers: [WidgetContent.Timer]) -> WidgetTimerList {
        WidgetTimerList(shown: Array(timers.prefix(limit)), moreCount: max(0, timers.count - limit))
    }

    /// All timers when they fit in `lines` lines, otherwise `lines − 1` of them and a count of the rest
    /// (which takes the last line).
    ///
    /// - Precondition: `lines >= 2`.
    static func fitting(lines: Int, of timers: [WidgetContent.Timer]) -> WidgetTimerList {
        precondition(lines >= 2, "a line for a timer and one for \"+N more\"")
        return timers.count <= lines ? prefix(lines, of: timers) : prefix(lines - 1, of: timers)
    }
}
