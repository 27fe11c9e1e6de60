public import StintCore

/// Builds widget snapshots of a changing ``LogState`` without scanning every record each time.
///
/// `WidgetData(source:now:)` reads a log's records for three things: today's counters, the daily totals
/// of the summary window (``WidgetPeriod/earliestStart(at:calendar:)`` up to
/// ``WidgetPeriod/latestEnd(at:calendar:)``, which contains today) and the running timers. This index
/// files the live records under the local day their start falls on and keeps, per day, the sums those
/// three need (recomputed only for the days a batch touched). ``snapshot(of:now:)`` then assembles the
/// same value as `WidgetData(source: state.projectionSource, now: now)` from the days around the window,
/// at a cost that grows with the window's days, not with the log.
///
/// Exactness does not rest on the filing: a day's sums are used whole only when its earliest and latest
/// record starts both fall inside the window (or today); otherwise that day's records are filtered one
/// by one, as the plain projection does. Days one beyond each end are looked at too, so a zone whose
/// clock jumps across midnight cannot hide a record. `SnapshotIndexTests` checks the equality after
/// every batch of random logs in several zones.
///
/// Keep it in step with the state: ``update(after:state:)`` after each folded batch.
///
/// ```swift
/// var index = SnapshotIndex(state: state)
/// try state.apply(event)
/// index.update(after: [event], state: state)
/// let snapshot = index.snapshot(of: state, now: event.at)  // == WidgetData(source: state.projectionSource, now: event.at)
/// ```
public struct SnapshotIndex: Sendable {
    /// The records filed under one local day, and their sums once computed.
    struct Day: Sendable {
        /// Few per day, so an array beats a set.
        var ids: [EntityID] = []
        var sums: Sums?
    }

    /// What a day's records contribute to a snapshot.
    struct Sums: Sendable {
        /// The earliest and latest start among the day's records.
        var first: Instant
        var last: Instant
        /// How many records (running or completed) and their completed milliseconds.
        var count: Int
        var completed: Int64
        /// Completed milliseconds by tag (nil: untagged, or a tag that is deleted or unknown), keyed by the
        /// day's start as `WidgetData.dailyTotals` keys them.
        var totals: [WidgetDayTotal]
    }

    let calendar: LogCalendar
    /// Days since 1970-01-01 → the records whose start falls on that local day.
    private var days: [Int64: Day] = [:]
    /// The day each live record is filed under.
    private var dayOfRecord: [EntityID: Int64] = [:]
    /// The summary window and today's interval of the last local date asked for.
    private var cachedDate: CivilDate?
    private var cachedWindow = TimeInterval64(start: Instant(milliseconds: 0), end: Instant(milliseconds: 0))
    private var cachedToday = TimeInterval64(start: Instant(milliseconds: 0), end: Instant(milliseconds: 0))

    /// Indexes every live record of `state`.
    public init(state: LogState) {
        calendar = state.calendar
        for record in state.records.values { file(record) }
    }

    /// Brings the index up to date after `events` were folded into `state`.
    ///
    /// Only the records the events name are filed again. Creating, deleting or restoring a tag changes
    /// which time counts as untagged, so it drops every day's sums. An event that cannot be decoded (it
    /// was folded, so this does not happen) makes the index start over from `state`.
    public mutating func update(after events: some Sequence<RecordedEvent>, state: LogState) {
        for event in events {
            guard let domain = try? DomainEvent(event) else {
                self = SnapshotIndex(state: state)
                return
            }
            switch domain {
            case .tagCreated, .tagDeleted, .tagRestored:
                for key in days.keys { days[key]!.sums = nil }
            default:
                guard let id = SnapshotIndex.recordId(of: domain) else { continue }
                unfile(id)
                if let record = state.records[id] { file(record) }
            }
        }
    }

    /// The snapshot of `state` at `now`: equal to `WidgetData(source: state.projectionSource, now: now)`.
    ///
    /// Mutating only to remember the sums it computed.
    public mutating func snapshot(of state: LogState, now: Instant) -> WidgetData {
        let date = calendar.date(of: now)
        if cachedDate != date {
            cachedDate = date
            cachedWindow = TimeInterval64(
                start: WidgetPeriod.earliestStart(at: now, calendar: calendar),
                end: WidgetPeriod.latestEnd(at: now, calendar: calendar))
            cachedToday = calendar.dayInterval(containing: now)
        }
        let window = cachedWindow
        let today = cachedToday
        let firstDay = calendar.date(of: window.start).daysSinceEpoch - 1
        let lastDay = calendar.date(of: window.end).daysSinceEpoch + 1
        let todayDay = date.daysSinceEpoch

        var totals: [WidgetDayTotal] = []
        var count = 0
        var completed: Int64 = 0
        for day in firstDay...lastDay where days[day] != nil {
            let sums = self.sums(of: day, state: state)
            if window.contains(sums.first), window.contains(sums.last) {
                totals += sums.totals
            } else if sums.last >= window.start, sums.first < window.end {
                totals += dayTotals(
                    records(of: day, state: state).filter { window.contains($0.start) }, day: day, tags: state.tags)
            }
            guard abs(day - todayDay) <= 1 else { continue }
            if today.contains(sums.first), today.contains(sums.last) {
                count += sums.count
                completed += sums.completed
            } else if sums.last >= today.start, sums.first < today.end {
                for record in records(of: day, state: state) where today.contains(record.start) {
                    count += 1
                    completed += record.durationMilliseconds ?? 0
                }
            }
        }
        totals.sort(by: WidgetDayTotal.precedes)
        let timers = WidgetTimer.make(runningTimers: state.runningRecords, tags: state.tags)
        return WidgetData(
            runningTimers: timers, todayRecordsCount: count, todayCompletedMilliseconds: completed,
            recentTags: WidgetData.recentTags(ids: state.recentTagIds, tags: state.tags), dailyTotals: totals,
            summaryTags: WidgetData.summaryTags(dailyTotals: totals, runningTimers: timers, tags: state.tags),
            lastUpdated: now)
    }

    /// The live records filed under `day`.
    private func records(of day: Int64, state: LogState) -> [Record] {
        (days[day]?.ids ?? []).compactMap { state.records[$0] }
    }

    /// The sums of `day`, computed when a batch touched it since they were last asked for.
    private mutating func sums(of day: Int64, state: LogState) -> Sums {
        if let sums = days[day]?.sums { return sums }
        let records = records(of: day, state: state)
        var sums = Sums(
            first: records.map(\.start).min()!, last: records.map(\.start).max()!, count: records.count, completed: 0,
            totals: dayTotals(records, day: day, tags: state.tags))
        for record in records { sums.completed += record.durationMilliseconds ?? 0 }
        days[day]!.sums = sums
        return sums
    }

    /// The completed time of `records` (all filed under `day`) by tag, as `WidgetData.dailyTotals` sums it.
    private func dayTotals(_ records: [Record], day: Int64, tags: [EntityID: Tag]) -> [WidgetDayTotal] {
        var byTag: [EntityID?: Int64] = [:]
        for record in records {
            guard let duration = record.durationMilliseconds else { continue }
            byTag[WidgetData.namedTagId(record.tagId, tags: tags), default: 0] += duration
        }
        guard !byTag.isEmpty else { return [] }
        let start = calendar.startOfDay(CivilDate(daysSinceEpoch: day))
        return byTag.map { WidgetDayTotal(day: start, tagId: $0.key, milliseconds: $0.value) }
    }

    private mutating func file(_ record: Record) {
        let day = calendar.date(of: record.start).daysSinceEpoch
        days[day, default: Day()].ids.append(record.id)
        days[day]!.sums = nil
        dayOfRecord[record.id] = day
    }

    private mutating func unfile(_ id: EntityID) {
        guard let day = dayOfRecord.removeValue(forKey: id) else { return }
        if let index = days[day]?.ids.firstIndex(of: id) { days[day]!.ids.remove(at: index) }
        days[day]?.sums = nil
        if days[day]?.ids.isEmpty == true { days[day] = nil }
    }

    /// The record an event creates, changes or removes; nil for tag and marker events.
    static func recordId(of event: DomainEvent) -> EntityID? {
        switch event {
        case .timerStarted(let id, _, _, _), .timerStopped(let id, _), .timerCanceled(let id),
            .recordTracked(let id, _, _, _, _), .recordDeleted(let id), .recordUnimported(let id):
            return id
        case .recordEdited(let record, _), .recordRestored(let record), .recordImported(let record, _),
            .recordReimported(let record, _):
            return record.id
        case .logCreated, .tagCreated, .tagRenamed, .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored,
            .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return nil
        }
    }
}
