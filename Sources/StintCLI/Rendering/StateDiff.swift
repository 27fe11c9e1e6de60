import StintCore
import StintEngine

/// How a log's projections changed between two points, for `stint diff`.
struct StateDiff {
    /// A daily total of the widget snapshot on one side or both.
    struct TotalChange {
        var day: Instant
        var tagId: EntityID?
        var before: Int64?
        var after: Int64?
    }

    let before: LogView
    let after: LogView
    let events: [RecordedEvent]
    let format: TextFormat
    let snapshotBefore: WidgetData
    let snapshotAfter: WidgetData
    let added: [Record]
    let changed: [(before: Record, after: Record)]
    let removed: [Record]
    let totals: [TotalChange]

    init(before: LogView, after: LogView, events: [RecordedEvent]) {
        self.before = before
        self.after = after
        self.events = events
        format = TextFormat(calendar: after.state.calendar)
        snapshotBefore = WidgetData(source: before.state.projectionSource, now: before.now)
        snapshotAfter = WidgetData(source: after.state.projectionSource, now: after.now)
        let order: (Record, Record) -> Bool = { ($0.start, $0.id) < ($1.start, $1.id) }
        let old = before.state.records
        let new = after.state.records
        added = new.values.filter { old[$0.id] == nil }.sorted(by: order)
        removed = old.values.filter { new[$0.id] == nil }.sorted(by: order)
        changed = new.values.compactMap { record in
            guard let previous = old[record.id], previous != record else { return nil }
            return (previous, record)
        }.sorted { order($0.after, $1.after) }
        let tags = after.state.tags.merging(before.state.tags) { new, _ in new }
        totals = StateDiff.totals(snapshotBefore.dailyTotals, snapshotAfter.dailyTotals) { id in
            id.map { tags[$0]?.name ?? "" } ?? ""
        }
    }

    /// The totals that differ, by day, then untagged first and tags by name (`name` names a tag id).
    static func totals(
        _ old: [WidgetDayTotal], _ new: [WidgetDayTotal], name: (EntityID?) -> String
    ) -> [TotalChange] {
        struct Key: Hashable {
            var day: Instant
            var tagId: EntityID?
        }
        var changes: [Key: TotalChange] = [:]
        for total in old {
            let key = Key(day: total.day, tagId: total.tagId)
            changes[key, default: TotalChange(day: total.day, tagId: total.tagId)].before = total.milliseconds
        }
        for total in new {
            let key = Key(day: total.day, tagId: total.tagId)
            changes[key, default: TotalChange(day: total.day, tagId: total.tagId)].after = total.milliseconds
        }
        return changes.values.filter { $0.before != $0.after }.sorted { lhs, rhs in
            if lhs.day != rhs.day { return lhs.day < rhs.day }
            let (left, right) = (name(lhs.tagId), name(rhs.tagId))
            return left != right ? left < right : (lhs.tagId?.uuidString ?? "") < (rhs.tagId?.uuidString ?? "")
        }
    }

    /// The Live Activity content at the first point; nil when no timer ran.
    var activityBefore: LiveActivityContent? {
        snapshotBefore.runningTimers.isEmpty ? nil : LiveActivityContent(runningTimers: snapshotBefore.runningTimers)
    }

    /// What the app does to its Live Activity to go from the first point to the second.
    var activityAction: LiveActivityAction {
        LiveActivityPlan.decide(current: activityBefore, timers: snapshotAfter.runningTimers)
    }

    // MARK: Text

    func point(_ view: LogView) -> String {
        "seq \(view.state.lastSeq) (\(format.day(format.calendar.date(of: view.now))) \(format.time(view.now)))"
    }

    /// `3f2a9c4e  Sat 2026-03-07 10:00–11:30  1:30  writing  chapter 3`.
    func describe(_ record: Record, tags: [EntityID: Tag], now: Instant) -> String {
        let startDate = format.calendar.date(of: record.start)
        var end = "running"
        if let stop = record.end {
            end = format.calendar.date(of: stop) == startDate ? format.time(stop) : format.dateTime(stop)
        }
        let duration = DurationFormatter.hoursMinutes(
            milliseconds: (record.end ?? max(now, record.start)).milliseconds(since: record.start))
        var line = "\(TextFormat.short(record.id))  \(format.day(startDate)) \(format.time(record.start))–\(end)  "
        line += "\(duration)  \(format.tagName(record.tagId, tags: tags))"
        if let comment = record.comment { line += "  " + comment.replacingNewlines() }
        return line
    }

    func tagName(_ id: EntityID?) -> String {
        guard let id else { return WidgetPeriodSummary.untaggedName }
        return (after.state.tags[id] ?? before.state.tags[id])?.name ?? "(unknown tag)"
    }

    func today(_ snapshot: WidgetData, at now: Instant) -> String {
        let count = snapshot.todayRecordsCount
        return DurationFormatter.hoursMinutes(milliseconds: snapshot.todayTotal(at: now, calendar: format.calendar))
            + " (\(count) record\(count == 1 ? "" : "s"))"
    }

    func lines() -> [String] {
        var lines = [
            "From \(point(before)) to \(point(after)): \(events.count) event\(events.count == 1 ? "" : "s")"
        ]
        if !events.isEmpty {
            lines.append("")
            lines.append("Events:")
            var state = before.state
            for event in events {
                guard let domain = try? DomainEvent(event) else { break }
                let previous = AuditState(state, naming: [domain])
                guard (try? state.apply(event)) != nil else { break }
                let summary = EventSummary(format: format, tags: previous.tags)
                lines.append(
                    "\(String(event.seq).leftPadded(6))  \(format.dateTime(event.at))  \(event.type.padding(15))  "
                        + summary.describe(domain))
                let now = AuditState(state, naming: [domain])
                for detail in HistoryVerb.beforeAndAfter(domain, before: previous, after: now, format: format) {
                    lines.append(String(repeating: " ", count: 8) + detail)
                }
            }
        }
        lines.append("")
        lines.append("Records: \(added.count) added, \(changed.count) changed, \(removed.count) removed")
        for record in added {
            lines.append("  added    " + describe(record, tags: after.state.tags, now: after.now))
        }
        for change in changed {
            lines.append("  changed  " + describe(change.before, tags: before.state.tags, now: before.now))
            lines.append("       →   " + describe(change.after, tags: after.state.tags, now: after.now))
        }
        for record in removed {
            lines.append("  removed  " + describe(record, tags: before.state.tags, now: before.now))
        }
        lines.append("")
        let todayBefore = today(snapshotBefore, at: before.now)
        let todayAfter = today(snapshotAfter, at: after.now)
        lines.append(
            todayBefore == todayAfter ? "Today (unchanged): \(todayAfter)" : "Today: \(todayBefore) → \(todayAfter)")
        if totals.isEmpty {
            lines.append("Daily totals (unchanged)")
        } else {
            lines.append("Daily totals (widget snapshot, each side at its own time):")
            let names = totals.map { tagName($0.tagId) }
            let width = names.map(\.count).max() ?? 0
            for (total, name) in zip(totals, names) {
                let old = total.before.map { DurationFormatter.hoursMinutes(milliseconds: $0) } ?? "–"
                let new = total.after.map { DurationFormatter.hoursMinutes(milliseconds: $0) } ?? "–"
                lines.append(
                    "  \(format.day(format.calendar.date(of: total.day)))  \(name.padding(width))  \(old.leftPadded(6)) → \(new)"
                )
            }
        }
        let recentBefore = snapshotBefore.recentTags.map(\.name)
        let recentAfter = snapshotAfter.recentTags.map(\.name)
        let recent = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ", ") }
        lines.append(
            recentBefore == recentAfter
                ? "Recent tags (unchanged): \(recent(recentAfter))"
                : "Recent tags: \(recent(recentBefore)) → \(recent(recentAfter))")
        let oldTimers = snapshotBefore.runningTimers
        let newTimers = snapshotAfter.runningTimers
        lines.append("Running timers: \(oldTimers.count) → \(newTimers.count)")
        let oldIds = Set(oldTimers.map(\.id))
        let newIds = Set(newTimers.map(\.id))
        for timer in oldTimers where !newIds.contains(timer.id) {
            lines.append("  stopped  " + timerLine(timer))
        }
        for timer in newTimers where !oldIds.contains(timer.id) {
            lines.append("  started  " + timerLine(timer))
        }
        for timer in newTimers where oldIds.contains(timer.id) {
            let old = oldTimers.first { $0.id == timer.id }
            lines.append((old == timer ? "  running  " : "  changed  ") + timerLine(timer))
        }
        lines.append("Live Activity: " + ReplayLines.describe(activityAction))
        return lines
    }

    func timerLine(_ timer: WidgetTimer) -> String {
        var line =
            "\(TextFormat.short(timer.id))  \(timer.tagName ?? WidgetWording.untaggedTimer)  since "
            + "\(format.day(format.calendar.date(of: timer.startTime))) \(format.time(timer.startTime))"
        if let comment = timer.comment { line += "  " + comment.replacingNewlines() }
        return line
    }

    // MARK: JSON

    var json: JSON {
        func side(_ view: LogView) -> JSON {
            .object([JSONField("seq", .int(view.state.lastSeq)), JSONField("now", .string(view.now.iso8601))])
        }
        func record(_ record: Record, _ view: LogView) -> JSON {
            TextFormat.json(record, tags: view.state.tags)
        }
        func today(_ snapshot: WidgetData, _ now: Instant) -> JSON {
            .object([
                JSONField("total", JSON.seconds(milliseconds: snapshot.todayTotal(at: now, calendar: format.calendar))),
                JSONField("records", .int(Int64(snapshot.todayRecordsCount))),
            ])
        }
        let eventObjects: [JSON] = events.map { event in
            (try? JSON.parse(event.encodedLine())) ?? .null
        }
        return .object([
            JSONField("from", side(before)),
            JSONField("to", side(after)),
            JSONField("events", .array(eventObjects)),
            JSONField(
                "records",
                .object([
                    JSONField("added", .array(added.map { record($0, after) })),
                    JSONField(
                        "changed",
                        .array(
                            changed.map {
                                .object([
                                    JSONField("before", record($0.before, before)),
                                    JSONField("after", record($0.after, after)),
                                ])
                            })),
                    JSONField("removed", .array(removed.map { record($0, before) })),
                ])),
            JSONField(
                "today",
                .object([
                    JSONField("before", today(snapshotBefore, before.now)),
                    JSONField("after", today(snapshotAfter, after.now)),
                ])),
            JSONField(
                "dailyTotals",
                .array(
                    totals.map { total in
                        var object = JSONObjectBuilder()
                        object.add("day", .string(total.day.iso8601))
                        object.add("tagId", total.tagId?.uuidString)
                        object.add("tag", .string(tagName(total.tagId)))
                        object.add("before", total.before.map { JSON.seconds(milliseconds: $0) } ?? .null)
                        object.add("after", total.after.map { JSON.seconds(milliseconds: $0) } ?? .null)
                        return object.json
                    })),
            JSONField(
                "recentTags",
                .object([
                    JSONField("before", .array(snapshotBefore.recentTags.map { .string($0.name) })),
                    JSONField("after", .array(snapshotAfter.recentTags.map { .string($0.name) })),
                ])),
            JSONField(
                "runningTimers",
                .object([
                    JSONField("before", .array(snapshotBefore.runningTimers.map(\.json))),
                    JSONField("after", .array(snapshotAfter.runningTimers.map(\.json))),
                ])),
            JSONField(
                "liveActivity",
                .object([
                    JSONField("action", .string(activityAction.name)),
                    JSONField("before", activityBefore?.json ?? .null),
                    JSONField(
                        "after",
                        snapshotAfter.runningTimers.isEmpty
                            ? .null : LiveActivityContent(runningTimers: snapshotAfter.runningTimers).json),
                ])),
        ])
    }
}
