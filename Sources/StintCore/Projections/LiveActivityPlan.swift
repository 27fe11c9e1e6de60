/// What to do with the Live Activity after the running timers changed.
public enum LiveActivityAction: Hashable, Sendable {
    /// No activity is shown and timers run: start one with this content.
    case start(LiveActivityContent)
    /// The activity shows other content than the timers call for: update it to this content.
    case update(LiveActivityContent)
    /// An activity is shown and no timer runs: end it.
    case end
    /// Nothing to do: the activity already shows this content, or no activity and no timer.
    case none

    /// `start`, `update`, `end` or `none`.
    public var name: String {
        switch self {
        case .start: return "start"
        case .update: return "update"
        case .end: return "end"
        case .none: return "none"
        }
    }

    /// The content to start or update with; nil for `end` and `none`.
    public var content: LiveActivityContent? {
        switch self {
        case .start(let content), .update(let content): return content
        case .end, .none: return nil
        }
    }
}

/// Decides what to do with the Live Activity.
public enum LiveActivityPlan {
    /// The action that makes the activity show `timers`, given what it shows now.
    ///
    /// - Parameters:
    ///   - current: the content the activity shows, nil when none is shown.
    ///   - timers: all running timers, oldest first (``WidgetTimer/make(runningTimers:tags:)``).
    /// - Returns: `.start` when none is shown and timers run; `.update` only when the content changed;
    ///   `.end` when one is shown and no timer runs; `.none` otherwise.
    public static func decide(current: LiveActivityContent?, timers: [WidgetTimer]) -> LiveActivityAction {
        guard !timers.isEmpty else { return current == nil ? .none : .end }
        let content = LiveActivityContent(runningTimers: timers)
        guard let current else { return .start(content) }
        return current == content ? .none : .update(content)
    }
}
