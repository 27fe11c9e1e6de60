import StintCore
import StintEngine

/// What a point's batches changed, as the page shows it beside their events (docs/decisions/0011 step 3b):
/// each record their events name that they changed, the running timers, today's total and today's completed
/// time by tag, before the point's first batch and after its last, at the point's instant.
extension ReplayPage {
    /// A record as a change shows it: live with its values, deleted, or not there (never created, or an
    /// import withdrawn).
    enum RecordValue: Equatable {
        case live(Record)
        case deleted
        case none

        init(_ record: Record?, deleted: Bool) {
            if let record {
                self = .live(record)
            } else {
                self = deleted ? .deleted : .none
            }
        }
    }

    /// The changes of `candidate`'s batches, records first (in the order their events name them), then the
    /// running timers, today's total and today's completed time by tag (in the order of the tags' names).
    static func changes(_ candidate: Candidate, format: TextFormat) -> [Change] {
        let at = candidate.point.at
        var changes: [Change] = []
        for (id, before, after) in candidate.records where before != after {
            changes.append(
                Change(
                    what: "record \(TextFormat.short(id))",
                    before: describe(before, tags: candidate.tagsBefore, format: format),
                    after: describe(after, tags: candidate.tagsAfter, format: format)))
        }
        let before = candidate.before ?? WidgetData()
        let after = candidate.snapshot
        let timers = (
            describe(before.runningTimers, at: at, format: format),
            describe(after.runningTimers, at: at, format: format)
        )
        if timers.0 != timers.1 { changes.append(Change(what: "running timers", before: timers.0, after: timers.1)) }
        let today = (total(of: before, at: at, format: format), total(of: after, at: at, format: format))
        if today.0 != today.1 { changes.append(Change(what: "today", before: today.0, after: today.1)) }
        let byTag = (completedToday(before, at: at, format: format), completedToday(after, at: at, format: format))
        let names = Set(byTag.0.keys).union(byTag.1.keys).sorted()
        for name in names where byTag.0[name] != byTag.1[name] {
            changes.append(
                Change(
                    what: "completed today, \(name)",
                    before: DurationFormatter.hoursMinutes(milliseconds: byTag.0[name] ?? 0),
                    after: DurationFormatter.hoursMinutes(milliseconds: byTag.1[name] ?? 0)))
        }
        return changes
    }

    /// `2026-11-29 09:00–10:30  writing  chapter 3`, `2026-11-29 09:00–running  writing`, `deleted`, `none`.
    static func describe(_ value: RecordValue, tags: [EntityID: Tag], format: TextFormat) -> String {
        switch value {
        case .deleted: return "deleted"
        case .none: return "none"
        case .live(let record):
            var text = "\(format.dateTime(record.start))–\(record.end.map(format.time) ?? "running")  "
            text += format.tagName(record.tagId, tags: tags)
            if let comment = record.comment { text += "  " + comment.replacingNewlines() }
            return text
        }
    }

    /// `writing since 09:00, (untagged) since 2026-11-20 08:00`, or `none`.
    static func describe(_ timers: [WidgetTimer], at: Instant, format: TextFormat) -> String {
        guard !timers.isEmpty else { return "none" }
        return timers.map { "\($0.tagName ?? "(untagged)") since \(format.moment($0.startTime, onDayOf: at))" }
            .joined(separator: ", ")
    }

    /// `1:30 in 3 records`: today's total at `at`, running time included, and how many records started today.
    static func total(of snapshot: WidgetData, at: Instant, format: TextFormat) -> String {
        let total = DurationFormatter.hoursMinutes(milliseconds: snapshot.todayTotal(at: at, calendar: format.calendar))
        return "\(total) in \(snapshot.todayRecordsCount) record\(snapshot.todayRecordsCount == 1 ? "" : "s")"
    }

    /// Today's completed time by tag name (`(untagged)` for none).
    static func completedToday(_ snapshot: WidgetData, at: Instant, format: TextFormat) -> [String: Int64] {
        let today = format.calendar.startOfDay(containing: at)
        let names = Dictionary(snapshot.summaryTags.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var totals: [String: Int64] = [:]
        for total in snapshot.dailyTotals where total.day == today {
            totals[total.tagId.flatMap { names[$0] } ?? "(untagged)", default: 0] += total.milliseconds
        }
        return totals
    }
}
