import StintCore
import StintEngine
import StintLog

/// What an app following the reference design had put on screen at a moment: the snapshot file's content
/// (the last write at or before the moment) and its Live Activity.
///
/// Found by replaying the app's publishes (``PublishReplay``) from the log's first batch up to the moment,
/// so the file's `lastUpdated` and the activity's age are exact whatever happened before.
struct PublishedMoment {
    /// The snapshot of the last write at or before the moment; nil when nothing was written yet.
    var snapshot: WidgetData?
    /// The Live Activity's content at the moment; nil when none is shown.
    var liveActivity: LiveActivityContent?
    /// When iOS ended the activity, 8 hours after it started, when timers were still running at the moment
    /// and no batch started a new one since.
    var liveActivityEndedBySystem: Instant?

    /// Replays `reader`'s log up to `moment`, over the batches that end at or before event `seqLimit` (the
    /// app publishes after whole batches).
    static func load(
        _ reader: LogReader, moment: Instant, seqLimit: Int64, context: CommandContext
    ) throws(CLIError) -> PublishedMoment {
        var result = PublishedMoment()
        var activityStart: Instant?
        do {
            let replay = try PublishReplay(reader: reader, since: nil, options: context.engineOptions)
            while let step = try replay.next(), step.at <= moment, step.batch.lastSeq <= seqLimit {
                if step.writesSnapshot { result.snapshot = step.snapshot }
                result.liveActivity = replay.liveActivity
                activityStart = replay.liveActivityStartedAt
            }
            if let warning = replay.warning {
                context.warn("the log is damaged; showing what was recorded before the damage: \(warning.message)")
            }
        } catch {
            throw CLIError(error)
        }
        if result.liveActivity != nil, let activityStart {
            let end = LiveActivityPlan.systemEnd(ofActivityStartedAt: activityStart)
            if end <= moment {
                result.liveActivity = nil
                result.liveActivityEndedBySystem = end
            }
        }
        return result
    }
}
