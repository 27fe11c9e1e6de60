/// Checks shared by several commands: times, spans, tags and record references.
extension Decider {
    /// The instant of a time argument (now when absent), refusing one more than a minute in the future.
    ///
    /// A time at most ``InputLimits/futureToleranceMilliseconds`` ahead of now is taken as now, with a notice.
    mutating func time(_ argument: ParsedTime?, _ role: String) throws(DomainError) -> Instant {
        guard let argument else { return now }
        if let notice = argument.notice { notices.append(notice) }
        let ahead = argument.instant.milliseconds(since: now)
        if ahead > InputLimits.futureToleranceMilliseconds {
            throw DomainError(
                .timeInFuture,
                "the \(role) \(argument.text) (\(MessageFormat.local(argument.instant, calendar))) is "
                    + "\(MessageFormat.duration(ahead)) in the future; it is now \(MessageFormat.local(now, calendar)): "
                    + "give a time that has passed")
        }
        if ahead > 0 {
            notices.append(
                Notice(
                    .clampedToNow, "the \(role) \(argument.text) is \(MessageFormat.duration(ahead)) ahead; used now"))
            return now
        }
        return argument.instant
    }

    /// Refuses an end before the start, a span over seven days unless forced, and one over 366 days even
    /// when forced.
    ///
    /// `end` nil means the record runs, and its span is measured to now. `fix` ends the message of a span over
    /// 366 days: what the person can do instead.
    func checkSpan(
        start: Instant, end: Instant?, force: Bool, of what: String, fix: String = "check the times"
    ) throws(DomainError) {
        if let end, end < start {
            throw DomainError(
                .endBeforeStart,
                "\(what) would end at \(MessageFormat.local(end, calendar)), before its start at "
                    + "\(MessageFormat.local(start, calendar)): give an end after the start")
        }
        let length = (end ?? now).milliseconds(since: start)
        if length > InputLimits.longestForcedRecordMilliseconds {
            throw DomainError(
                .recordTooLong,
                "\(what) would last \(MessageFormat.duration(length)), from \(MessageFormat.local(start, calendar)) "
                    + "to \(MessageFormat.local(end ?? now, calendar)); \(Self.longestRecordRule): \(fix)")
        }
        if !force && length > InputLimits.maximumRecordMilliseconds {
            throw DomainError(
                .recordTooLong,
                "\(what) would last \(MessageFormat.duration(length)), more than 7 days (a forgotten timer?): "
                    + "check the times, or pass --force to keep it")
        }
    }

    /// The rule a span over ``InputLimits/longestForcedRecordMilliseconds`` breaks, as refusals state it.
    static let longestRecordRule =
        "no record may last more than \(InputLimits.longestForcedRecordDays) days, not even with --force"

    /// What to do with timer `id` once it has run for more than 366 days: it can only end earlier (with
    /// `--force`, as it is still longer than 7 days), or be canceled.
    static func fix(ofRunningTimer id: EntityID) -> String {
        let short = MessageFormat.short(id)
        return
            "stop it at an earlier time ('stint stop \(short) --at TIME --force'), or cancel it ('stint cancel \(short)')"
    }

    /// Refuses a record that `track` or `edit` would make zero long: an interval typed with its end equal
    /// to its start is a mistake (a timer stopped the moment it started is not, and `stop` allows it).
    func refuseEmpty(start: Instant, end: Instant) throws(DomainError) {
        guard end == start else { return }
        throw DomainError(
            .endBeforeStart,
            "the record would end when it starts, at \(MessageFormat.local(start, calendar)): give an end after "
                + "the start (or 'stint delete' the record)")
    }

    /// A comment argument, trimmed and checked; nil when absent or empty.
    func comment(_ text: String?) throws(DomainError) -> String? {
        guard let text else { return nil }
        return try InputLimits.comment(text)
    }

    /// A tag choice with its name checked (before anything is looked up); nil stays nil.
    func checkedName(_ choice: TagChoice?) throws(DomainError) -> TagChoice? {
        guard let choice else { return nil }
        return try checkedName(choice)
    }

    /// A tag choice with its name checked (before anything is looked up).
    func checkedName(_ choice: TagChoice) throws(DomainError) -> TagChoice {
        guard case .name(let name) = choice else { return choice }
        return .name(try InputLimits.tagName(name))
    }

    /// The tag id a new or edited record gets, and the `tag.created` event when the name is new.
    ///
    /// - Parameters:
    ///   - refuseArchived: refuse a name that matches an archived tag (new timers).
    ///   - unknownIDIsUntagged: an unknown or deleted id means untagged with a notice (new records);
    ///     otherwise it is refused.
    /// The id of a tag this decision creates: a new one, or on a space the derived id of its name (rule 6).
    func newTagID(named name: String) -> EntityID {
        guard let space = context.space else { return context.newID() }
        return EntityID.newSpaceTag(space: space, name: name) { state.tags[$0] != nil }
    }

    mutating func tagId(
        for choice: TagChoice, refuseArchived: Bool, unknownIDIsUntagged: Bool
    ) throws(DomainError) -> (EntityID?, DomainEvent?) {
        switch choice {
        case .untagged:
            return (nil, nil)
        case .name(let text):
            let name = try InputLimits.tagName(text)
            if let tag = state.tag(named: name) {
                if refuseArchived && tag.isArchived {
                    throw DomainError(
                        .tagArchived,
                        "the tag \"\(tag.name)\" is archived; unarchive it first (stint tag unarchive \"\(tag.name)\")")
                }
                return (tag.id, nil)
            }
            _ = try InputLimits.newTagName(name)
            let id = newTagID(named: name)
            let color = TagPalette.color(forTagNumber: state.tags.count + createdTags)
            createdTags += 1
            return (id, .tagCreated(tagId: id, name: name, color: color))
        case .id(let id):
            if let tag = state.tags[id], !tag.isDeleted { return (id, nil) }
            guard unknownIDIsUntagged else {
                throw DomainError(.unknownTag, "no tag has the id \(id); name the tag instead")
            }
            notices.append(Notice(.unknownTagId, "no tag has the id \(id) (deleted?); the timer is untagged"))
            return (nil, nil)
        }
    }

    /// The tag that is not deleted and has this name (case-insensitive).
    func existingTag(named text: String) throws(DomainError) -> Tag {
        let name = try InputLimits.tagName(text)
        guard let tag = state.tag(named: name) else {
            throw DomainError(.unknownTag, "no tag is named \"\(name)\"; `stint tags` lists them")
        }
        return tag
    }

    /// What a record reference names.
    enum Resolution {
        case live(Record)
        case deleted(EntityID)
        case unknown
    }

    /// Resolves a reference among the live records, then among the deleted ones.
    ///
    /// - Throws: ``DomainError/Code/ambiguousReference`` when several live records match, with them as candidates.
    func resolve(_ reference: RecordRef) throws(DomainError) -> Resolution {
        let matches = state.records(matching: reference)
        if matches.count > 1 {
            throw DomainError(
                .ambiguousReference,
                "\"\(reference.text)\" matches \(matches.count) records; type more of the id:\n"
                    + MessageFormat.list(matches, state), candidates: matches)
        }
        if let record = matches.first { return .live(record) }
        if let id = reference.exactID {
            return state.deletedRecordIds.contains(id) ? .deleted(id) : .unknown
        }
        if let id = state.deletedRecordIds.filter({ reference.matches($0) }).min() { return .deleted(id) }
        return .unknown
    }

    /// The live record a reference names, refusing deleted and unknown ones.
    func liveRecord(_ reference: RecordRef) throws(DomainError) -> Record {
        switch try resolve(reference) {
        case .live(let record):
            return record
        case .deleted(let id):
            throw DomainError(
                .unknownRecord, "record \(MessageFormat.short(id)) was deleted; `stint undo` may bring it back")
        case .unknown:
            throw DomainError(.unknownRecord, "no record has an id starting with \"\(reference.text)\"")
        }
    }

    /// The one running timer, when a command without an id needs one.
    func onlyRunning(_ verb: String) throws(DomainError) -> Record {
        let running = state.runningRecords
        guard let first = running.first else {
            throw DomainError(.noTimerRunning, "no timer is running; nothing to \(verb)")
        }
        guard running.count == 1 else {
            throw DomainError(
                .severalRunning,
                "\(running.count) timers are running; say which to \(verb): use an id or --all\n"
                    + MessageFormat.list(running, state), candidates: running)
        }
        return first
    }
}
