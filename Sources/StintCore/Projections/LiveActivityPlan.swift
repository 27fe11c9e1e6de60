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
///
/// iOS ends an activity ``maximumDurationMilliseconds`` (8 hours) after it started, whatever updates it had
/// since; the timers keep running without one until the app next syncs, which starts a new activity. Pass
/// the activity's start to ``decide(current:startedAt:timers:at:)`` to have that end taken into account.
public enum LiveActivityPlan {
    /// How long iOS lets an activity live: 8 hours from its start (updates do not extend it).
    public static let maximumDurationMilliseconds: Int64 = 8 * 60 * 60 * 1000

    /// When iOS ends an activity that started at `start`: 8 elapsed hours later (not calendar hours, so
    /// a DST change in between does not move it).
    public static func systemEnd(ofActivityStartedAt start: Instant) -> Instant {
        start.adding(milliseconds: maximumDurationMilliseconds)
    }

    /// The action at `now` for an activity that showed `current` since `startedAt`.
    ///
    /// When the system has ended the activity by `now` (``systemEnd(ofActivityStartedAt:)`` is at or before
    /// `now`), no activity is shown any more: the result is `.start` while timers run, `.none` otherwise.
    /// Otherwise the same as ``decide(current:timers:)``.
    ///
    /// ```swift
    /// let action = LiveActivityPlan.decide(current: shown, startedAt: shownSince, timers: timers, at: now)
    /// ```
    public static func decide(
        current: LiveActivityContent?, startedAt: Instant?, timers: [WidgetTimer], at now: Instant
    ) -> LiveActivityAction {
        if let startedAt, systemEnd(ofActivityStartedAt: startedAt) <= now {
            return decide(current: nil, timers: timers)
        }
        return decide(current: current, timers: timers)
    }

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
