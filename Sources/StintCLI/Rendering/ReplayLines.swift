import StintCore
import StintEngine

/// The lines and the per-day counts of `stint replay`.
struct ReplayLines {
    struct Day {
        var date: CivilDate
        var batches = 0
        /// Reloads by kind.
        var kinds: [WidgetReload.Kind: Int] = [:]

        var reloads: Int { kinds.values.reduce(0, +) }

        func count(_ kind: WidgetReload.Kind) -> Int {
            kinds[kind] ?? 0
        }
    }

    let format: TextFormat
    let json: Bool
    private(set) var days: [Day] = []
    /// When iOS ended the Live Activity (8 hours after its start), in the range shown.
    private(set) var systemEnds: [Instant] = []
    private var batches: [JSON] = []
    /// Every reload shown, in time order.
    private(set) var reloads: [WidgetReload] = []

    init(format: TextFormat, json: Bool) {
        self.format = format
        self.json = json
    }

    /// Counts a shown step (and keeps its JSON form for --json).
    mutating func add(_ step: PublishReplay.Step) {
        let date = format.calendar.date(of: step.at)
        if days.last?.date != date { days.append(Day(date: date)) }
        days[days.count - 1].batches += 1
        if step.writesSnapshot { add(WidgetReload(date: step.at, kind: .write)) }
        if json { batches.append(ReplayLines.json(step, date: date)) }
    }

    /// Counts a reload on its day (steps and reloads come in time order).
    mutating func add(_ reload: WidgetReload) {
        let date = format.calendar.date(of: reload.date)
        if days.last?.date != date { days.append(Day(date: date)) }
        days[days.count - 1].kinds[reload.kind, default: 0] += 1
        reloads.append(reload)
    }

    mutating func addSystemEnd(_ instant: Instant) {
        systemEnds.append(instant)
    }

    /// `             2026-05-04 16:00             ended by iOS         (8 hours after it started; no batch)`.
    func systemEndLine(_ instant: Instant) -> String {
        "\("".leftPadded(11))  \(format.dateTime(instant))  \("".padding(9))  \("ended by iOS".padding(19))  "
            + "(8 hours after it started; no batch)"
    }

    static let header = "        SEQ  RECORDED          SNAPSHOT   LIVE ACTIVITY        EVENTS"

    /// `    2–3  2026-03-07 10:00  write      start, 1 running     tag.created, timer.started`.
    func line(for step: PublishReplay.Step) -> String {
        let range =
            step.batch.firstSeq == step.batch.lastSeq
            ? String(step.batch.firstSeq) : "\(step.batch.firstSeq)–\(step.batch.lastSeq)"
        let snapshot = step.writesSnapshot ? "write" : "unchanged"
        return "\(range.leftPadded(11))  \(format.dateTime(step.at))  \(snapshot.padding(9))  "
            + "\(ReplayLines.describe(step.liveActivity).padding(19))  \(ReplayLines.types(step.batch))"
    }

    /// `start, 2 running`, `update, 9 running`, `end`, `none`.
    static func describe(_ action: LiveActivityAction) -> String {
        guard let content = action.content else { return action.name }
        return "\(action.name), \(content.runningCount) running"
    }

    /// The batch's event types, a run of one type written once with its count: `timer.stopped ×9`.
    static func types(_ batch: StoredBatch) -> String {
        var runs: [(type: String, count: Int)] = []
        for event in batch.events {
            if runs.last?.type == event.type {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((event.type, 1))
            }
        }
        return runs.map { $0.count == 1 ? $0.type : "\($0.type) ×\($0.count)" }.joined(separator: ", ")
    }

    /// `  (3 writes, 23 hourly, 1 midnight)`, the kinds that occurred; empty for a day without reloads.
    static func kinds(_ day: Day) -> String {
        var parts: [String] = []
        if day.count(.write) > 0 { parts.append("\(day.count(.write)) write\(day.count(.write) == 1 ? "" : "s")") }
        if day.count(.hourly) > 0 { parts.append("\(day.count(.hourly)) hourly") }
        if day.count(.midnight) > 0 { parts.append("\(day.count(.midnight)) midnight") }
        return parts.isEmpty ? "" : "  (" + parts.joined(separator: ", ") + ")"
    }

    func warningMessage(_ day: Day) -> String {
        "\(format.day(day.date)): \(day.reloads) widget reloads, above \(ReplayVerb.dailyReloadBudget), the low end of "
            + "WidgetKit's daily budget; reloads beyond the budget are delayed"
    }

    /// The per-day block and the warnings.
    func summary(timeZone: String) -> [String] {
        guard !days.isEmpty || !systemEnds.isEmpty else { return ["No batches were recorded in that range."] }
        var lines = ["", "Per day (\(timeZone)):"]
        let batchesWidth = days.map { String($0.batches).count }.max() ?? 1
        let reloadsWidth = days.map { String($0.reloads).count }.max() ?? 1
        for day in days {
            lines.append(
                "  \(format.day(day.date))  \(String(day.batches).leftPadded(batchesWidth)) "
                    + "batch\(day.batches == 1 ? "  " : "es")  \(String(day.reloads).leftPadded(reloadsWidth)) "
                    + "reload\(day.reloads == 1 ? " " : "s")\(ReplayLines.kinds(day))")
        }
        let warned = days.filter { $0.reloads > ReplayVerb.dailyReloadBudget }
        if !warned.isEmpty { lines.append("") }
        for day in warned { lines.append("warning: " + warningMessage(day)) }
        return lines
    }

    func json(timeZone: String) -> JSON {
        .object([
            JSONField("timeZone", .string(timeZone)),
            JSONField("reloadBudget", .int(Int64(ReplayVerb.dailyReloadBudget))),
            JSONField("batches", .array(batches)),
            JSONField(
                "days",
                .array(
                    days.map { day in
                        .object([
                            JSONField("date", .string(day.date.iso8601)),
                            JSONField("batches", .int(Int64(day.batches))),
                            JSONField("reloads", .int(Int64(day.reloads))),
                            JSONField("writeReloads", .int(Int64(day.count(.write)))),
                            JSONField("hourlyReloads", .int(Int64(day.count(.hourly)))),
                            JSONField("midnightReloads", .int(Int64(day.count(.midnight)))),
                        ])
                    })),
            JSONField(
                "reloads",
                .array(
                    reloads.map { reload in
                        .object([
                            JSONField("at", .string(reload.date.iso8601)),
                            JSONField("date", .string(format.calendar.date(of: reload.date).iso8601)),
                            JSONField("kind", .string(reload.kind.rawValue)),
                        ])
                    })),
            JSONField(
                "warnings",
                .array(
                    days.filter { $0.reloads > ReplayVerb.dailyReloadBudget }.map { day in
                        .object([
                            JSONField("date", .string(day.date.iso8601)),
                            JSONField("reloads", .int(Int64(day.reloads))),
                            JSONField("message", .string(warningMessage(day))),
                        ])
                    })),
            JSONField(
                "liveActivitySystemEnds",
                .array(
                    systemEnds.map { instant in
                        .object([
                            JSONField("at", .string(instant.iso8601)),
                            JSONField("date", .string(format.calendar.date(of: instant).iso8601)),
                        ])
                    })),
        ])
    }

    static func json(_ step: PublishReplay.Step, date: CivilDate) -> JSON {
        var activity = JSONObjectBuilder()
        activity.add("action", .string(step.liveActivity.name))
        activity.add("content", step.liveActivity.content?.json)
        return .object([
            JSONField("firstSeq", .int(step.batch.firstSeq)),
            JSONField("lastSeq", .int(step.batch.lastSeq)),
            JSONField("at", .string(step.at.iso8601)),
            JSONField("date", .string(date.iso8601)),
            JSONField("types", .array(step.batch.events.map { .string($0.type) })),
            JSONField("snapshot", .string(step.writesSnapshot ? "write" : "unchanged")),
            JSONField("liveActivity", activity.json),
        ])
    }
}
