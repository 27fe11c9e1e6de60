import StintCore

/// How human output writes times, dates and records: in the log's calendar, independent of the
/// machine's locale (English weekday names, 24-hour clock).
struct TextFormat {
    let calendar: LogCalendar

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `09:05`.
    func time(_ instant: Instant) -> String {
        let local = calendar.local(instant)
        return CivilDate.pad(local.hour, 2) + ":" + CivilDate.pad(local.minute, 2)
    }

    /// `2026-11-29`.
    func date(_ instant: Instant) -> String {
        calendar.date(of: instant).iso8601
    }

    /// `Sun 2026-11-29`.
    func day(_ date: CivilDate) -> String {
        TextFormat.weekdays[date.weekday - 1] + " " + date.iso8601
    }

    /// `2026-11-29 09:05`.
    func dateTime(_ instant: Instant) -> String {
        date(instant) + " " + time(instant)
    }

    /// The name of a record's tag: its name, `(untagged)`, or its name marked deleted.
    func tagName(_ id: EntityID?, tags: [EntityID: Tag]) -> String {
        guard let id else { return "(untagged)" }
        guard let tag = tags[id] else { return "(unknown tag)" }
        return tag.isDeleted ? "\(tag.name) (deleted tag)" : tag.name
    }

    /// The first eight hex digits of an id, enough to name it in most logs.
    static func short(_ id: EntityID) -> String {
        String(id.uuidString.prefix(8))
    }

    /// `09:00` when `instant` falls on `reference`'s local day, else `2026-11-20 09:00` (a running timer's
    /// start with an elapsed time such as 216:30 after a bare `09:00` would not say which day).
    func moment(_ instant: Instant, onDayOf reference: Instant) -> String {
        calendar.date(of: instant) == calendar.date(of: reference) ? time(instant) : dateTime(instant)
    }

    /// A record's start in a record line: ``moment(_:onDayOf:)`` of `now` while it runs, else the time (a
    /// record line of a completed record is read under its day, as in `stint log`).
    func start(of record: Record, now: Instant) -> String {
        record.end == nil ? moment(record.start, onDayOf: now) : time(record.start)
    }

    /// `3f2a9c4e  09:00–10:30  1:30  writing  chapter 3` (the end shows `running` while it runs, and a
    /// running timer that started on an earlier day than `now` shows its start's date).
    func recordLine(_ record: Record, tags: [EntityID: Tag], now: Instant) -> String {
        let end = record.end.map { time($0) } ?? "running"
        let duration = DurationFormatter.hoursMinutes(
            milliseconds: (record.end ?? max(now, record.start)).milliseconds(since: record.start))
        var line = "\(TextFormat.short(record.id))  \(start(of: record, now: now))–\(end)  \(duration)  "
        line += tagName(record.tagId, tags: tags)
        if let comment = record.comment { line += "  " + comment.replacingNewlines() }
        return line
    }

    /// A record as JSON for `--json` output.
    static func json(_ record: Record, tags: [EntityID: Tag]) -> JSON {
        var object = JSONObjectBuilder()
        object.add("id", .string(record.id.uuidString))
        object.add("start", .string(record.start.iso8601))
        object.add("end", record.end?.iso8601)
        object.add("tagId", record.tagId?.uuidString)
        object.add("tagName", record.tagId.flatMap { tags[$0] }.flatMap { $0.isDeleted ? nil : $0.name })
        object.add("comment", record.comment)
        return object.json
    }
}

extension String {
    /// The text on one line: newlines and tabs as spaces.
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }
}
