import StintCore

/// One-line, human descriptions of domain events, for `history`, `undo` and `replay`.
struct EventSummary {
    let format: TextFormat
    /// Tags as they were when the event was recorded (before it, for events that change a tag).
    let tags: [EntityID: Tag]

    func tag(_ id: EntityID?) -> String {
        guard let id else { return "(untagged)" }
        return tags[id]?.name ?? "(unknown tag)"
    }

    func short(_ id: EntityID) -> String { TextFormat.short(id) }

    func span(_ start: Instant, _ end: Instant?) -> String {
        let from = format.dateTime(start)
        guard let end else { return "from \(from), running" }
        let sameDay = format.date(start) == format.date(end)
        return "\(from)–\(sameDay ? format.time(end) : format.dateTime(end))"
    }

    func comment(_ text: String?) -> String {
        text.map { " “\($0.replacingNewlines())”" } ?? ""
    }

    /// `started writing at 2026-11-29 09:00 (3f2a9c4e) “chapter 3”`.
    func describe(_ event: DomainEvent) -> String {
        switch event {
        case .logCreated(let settings):
            let weekday = TextFormat.weekdayNames[settings.calendar.firstWeekday - 1]
            return "log created (time zone \(settings.calendar.timeZoneIdentifier), weeks start on \(weekday))"
        case .tagCreated(_, let name, let color): return "tag \(name) created (\(color))"
        case .tagRenamed(let id, let name): return "tag \(tag(id)) renamed to \(name)"
        case .tagArchived(let id): return "tag \(tag(id)) archived"
        case .tagUnarchived(let id): return "tag \(tag(id)) unarchived"
        case .tagDeleted(let id): return "tag \(tag(id)) deleted"
        case .tagRestored(let id): return "tag \(tag(id)) restored"
        case .timerStarted(let id, let start, let tagId, let text):
            return "timer \(short(id)) started: \(tag(tagId)) at \(format.dateTime(start))\(comment(text))"
        case .timerStopped(let id, let end): return "timer \(short(id)) stopped at \(format.dateTime(end))"
        case .timerCanceled(let id): return "timer \(short(id)) canceled"
        case .recordTracked(let id, let start, let end, let tagId, let text):
            return "record \(short(id)) tracked: \(tag(tagId)) \(span(start, end))\(comment(text))"
        case .recordEdited(let record, _):
            return "record \(short(record.id)) edited: \(tag(record.tagId)) \(span(record.start, record.end))"
                + comment(record.comment)
        case .recordDeleted(let id): return "record \(short(id)) deleted"
        case .recordRestored(let record):
            return "record \(short(record.id)) restored: \(tag(record.tagId)) \(span(record.start, record.end))"
                + comment(record.comment)
        case .recordImported(let record, let source):
            return "record \(short(record.id)) imported from \(source.system.title): \(tag(record.tagId)) "
                + span(record.start, record.end) + comment(record.comment)
        case .recordReimported(let record, let source):
            return "record \(short(record.id)) imported again from \(source.system.title): \(tag(record.tagId)) "
                + span(record.start, record.end) + comment(record.comment)
        case .recordUnimported(let id): return "record \(short(id)) unimported"
        case .commandUndone(let tx): return "undo of the command at seq \(tx)"
        case .commandRedone(let tx): return "redo of the undo at seq \(tx)"
        case .deviceJoined(_, let device, let name):
            return "device \(device.description.prefix(8)) joined the space" + (name.map { " (\($0))" } ?? "")
        case .deviceForked(let from, let upTo, _):
            return "forked off device \(from.description.prefix(8)) after seq \(upTo)"
        case .syncIngested(let from, let upTo, _):
            return "ingested device \(from.description.prefix(8)) up to seq \(upTo)"
        case .logRepaired(let from, let to, let reason, let resume):
            let resumes = resume.map { "; the log resumes at seq \($0.seq)" } ?? ""
            return "log repaired: seqs \(from)–\(to) were damaged and set aside (\(reason))\(resumes)"
        }
    }
}
