/// The small text forms domain messages use: short ids, local times, durations and UTC offsets.
enum MessageFormat {
    /// The first eight hex digits of an id, as people type them back.
    static func short(_ id: EntityID) -> String {
        String(id.uuidString.prefix(8))
    }

    /// `2026-11-29 09:05` (with `:SS` when the seconds are not zero) in the calendar's zone.
    static func local(_ instant: Instant, _ calendar: LogCalendar) -> String {
        local(calendar.local(instant))
    }

    static func local(_ time: LocalDateTime) -> String {
        "\(time.date.iso8601) \(clock(time))"
    }

    /// `09:05` or `09:05:30`.
    static func clock(_ time: LocalDateTime) -> String {
        var text = "\(CivilDate.pad(time.hour, 2)):\(CivilDate.pad(time.minute, 2))"
        if time.second != 0 || time.millisecond != 0 { text += ":\(CivilDate.pad(time.second, 2))" }
        return text
    }

    /// `+02:00`, `-05:00`, `+05:45`.
    static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + "\(CivilDate.pad(minutes / 60, 2)):\(CivilDate.pad(minutes % 60, 2))"
    }

    /// `2026-11-01T01:30:00-04:00`: a local time with the offset that makes it one instant.
    static func withOffset(_ instant: Instant, _ calendar: LogCalendar) -> String {
        let offset = calendar.offsetSeconds(at: instant)
        return LocalDateTime(instant, offsetSeconds: offset).iso8601 + Self.offset(offset)
    }

    /// `9d 2h 5m`, `45m`, `30s`: an elapsed time, rounded down to the second.
    static func duration(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        let parts: [(Int64, String)] = [
            (seconds / 86_400, "d"), (seconds / 3600 % 24, "h"), (seconds / 60 % 60, "m"), (seconds % 60, "s"),
        ]
        let text = parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined(separator: " ")
        return text.isEmpty ? "0s" : text
    }

    /// One line per record: short id, tag name, start (and end) in the calendar's zone.
    static func list(_ records: [Record], _ state: LogState) -> String {
        records.map { record in
            let tag = record.tagId.flatMap { state.tags[$0] }.map { $0.isDeleted ? "(untagged)" : $0.name }
            var line = "  \(short(record.id))  \(tag ?? "(untagged)")  started \(local(record.start, state.calendar))"
            if let end = record.end { line += ", ended \(local(end, state.calendar))" }
            return line
        }.joined(separator: "\n")
    }
}
