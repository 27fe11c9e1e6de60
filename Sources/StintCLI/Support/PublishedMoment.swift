import StintCore
import StintEngine

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

    /// The moment `point` names and the last event whose batch the app had published by then: --at TIME
    /// (every batch recorded by TIME), --seq N (the time event N was recorded, the batches that end at or
    /// before N), or now.
    static func moment(
        of point: ResolvedPoint, in reader: LogSource, context: CommandContext
    ) throws(CLIError) -> (moment: Instant, seqLimit: Int64) {
        switch point.point {
        case .latest: return (context.now, Int64.max)
        case .at(let instant): return (instant, Int64.max)
        case .seq(let n): return (try context.projectionView(at: point, of: reader).now, n)
        case .deviceSeq, .knownBy: throw devicePoint
        }
    }

    private static let devicePoint = CLIError.usage(
        "what the app had published is replayed up to a time: give --at (a space's devices publish apart)", verb: nil)

    /// What the app had published at `point`; refuses (exit 1) when nothing was published by then.
    static func load(_ point: PointArguments, context: CommandContext) throws(CLIError) -> (
        published: PublishedMoment, snapshot: WidgetData, moment: Instant, calendar: LogCalendar
    ) {
        let reader = try context.reader()
        if reader.isReplica, case .seq = point {
            // A space's batches come from several devices, whose seqs do not order them.
            throw CLIError.usage(
                "what the app had published is replayed up to a time in a space: give --at (its devices' seqs do "
                    + "not order its batches)", verb: nil)
        }
        switch point {
        case .deviceSeq, .knownBy: throw devicePoint
        case .latest, .at, .seq: break
        }
        let resolved = try context.resolve(point, of: reader)
        let calendar: LogCalendar
        if let read = resolved.calendar {
            calendar = read
        } else {
            calendar = try context.settings(of: reader).calendar
        }
        let (moment, seqLimit) = try moment(of: resolved, in: reader, context: context)
        let published = try load(reader, moment: moment, seqLimit: seqLimit, context: context)
        guard let snapshot = published.snapshot else {
            throw CLIError.refused(
                "nothing was recorded at or before \(moment.iso8601), so no snapshot was published yet; "
                    + "give a later --at")
        }
        return (published, snapshot, moment, calendar)
    }

    /// Replays `reader`'s log up to `moment`, over the batches that end at or before event `seqLimit` (the
    /// app publishes after whole batches).
    static func load(
        _ reader: LogSource, moment: Instant, seqLimit: Int64, context: CommandContext
    ) throws(CLIError) -> PublishedMoment {
        var snapshot: WidgetData?
        var liveActivity: (content: LiveActivityContent, startedAt: Instant)?
        do {
            let replay = try PublishReplay(source: reader, since: nil, options: context.engineOptions)
            while let step = try replay.next(), step.at <= moment, step.batch.lastSeq <= seqLimit {
                if step.writesSnapshot { snapshot = step.snapshot }
                liveActivity = replay.shownLiveActivity
            }
            if let warning = replay.warning {
                context.warn("the log is damaged; showing what was recorded before the damage: \(warning.message)")
            }
        } catch {
            throw CLIError(error)
        }
        return PublishedMoment(snapshot: snapshot, liveActivity: liveActivity, at: moment)
    }

    /// What was on screen at `moment`, after the batches that wrote `snapshot` last and left `liveActivity`
    /// shown (iOS ends an activity 8 hours after it started).
    init(snapshot: WidgetData?, liveActivity: (content: LiveActivityContent, startedAt: Instant)?, at moment: Instant) {
        self.snapshot = snapshot
        self.liveActivity = liveActivity?.content
        if let liveActivity {
            let end = LiveActivityPlan.systemEnd(ofActivityStartedAt: liveActivity.startedAt)
            if end <= moment {
                self.liveActivity = nil
                liveActivityEndedBySystem = end
            }
        }
    }
}
