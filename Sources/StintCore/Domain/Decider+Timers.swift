/// start, stop, continue and cancel.
extension Decider {
    mutating func start(
        tag: TagChoice, comment text: String?, at: ParsedTime?, switching: Bool, force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        // As the reference's Shortcuts action start(tagName:comment:): an empty name starts untagged.
        var tag = tag
        if case .name(let name) = tag, InputLimits.trimmed(name).isEmpty { tag = .untagged }
        let choice = try checkedName(tag)
        let comment = try comment(text)
        let start = try time(at, "start")
        let (tagId, created) = try tagId(for: choice, refuseArchived: true, unknownIDIsUntagged: true)
        return try startTimer(
            at: start, tagId: tagId, created: created, comment: comment, switching: switching, force: force
        ) { .started($0, stopped: $1) }
    }

    /// The events of a new timer, after stopping the running ones when switching.
    mutating func startTimer(
        at start: Instant, tagId: EntityID?, created: DomainEvent?, comment: String?, switching: Bool, force: Bool,
        outcome: (Record, [Record]) -> Outcome
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        try checkSpan(start: start, end: nil, force: force, of: "the new timer")
        var events: [DomainEvent] = []
        var stopped: [Record] = []
        if switching {
            for var running in state.runningRecords {
                try checkSpan(
                    start: running.start, end: start, force: force,
                    of: "the running timer \(MessageFormat.short(running.id))",
                    fix: Self.fix(ofRunningTimer: running.id))
                running.end = start
                stopped.append(running)
                events.append(.timerStopped(recordId: running.id, end: start))
            }
        }
        if let created { events.append(created) }
        let record = Record(id: context.newID(), start: start, tagId: tagId, comment: comment)
        events.append(.timerStarted(recordId: record.id, start: start, tagId: tagId, comment: comment))
        return (events, outcome(record, stopped))
    }

    mutating func stop(
        records references: [RecordRef], all: Bool, at: ParsedTime?, force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        if all && !references.isEmpty {
            throw DomainError(.conflictingArguments, "give record ids or --all, not both")
        }
        let end = try time(at, "end")
        var targets: [Record] = []
        if all {
            targets = state.runningRecords
            if targets.isEmpty { notices.append(Notice(.nothingRunning, "no timer is running; nothing to stop")) }
        } else if references.isEmpty {
            targets = [try onlyRunning("stop")]
        } else {
            for reference in references {
                guard let record = try runningRecord(reference, verb: "stop") else { continue }
                if !targets.contains(where: { $0.id == record.id }) { targets.append(record) }
            }
        }
        let order = Dictionary(uniqueKeysWithValues: state.runningRecordIds.enumerated().map { ($1, $0) })
        targets.sort { order[$0.id]! < order[$1.id]! }
        var stopped: [Record] = []
        for var record in targets {
            try checkSpan(
                start: record.start, end: end, force: force, of: "the timer \(MessageFormat.short(record.id))",
                fix: Self.fix(ofRunningTimer: record.id))
            record.end = end
            stopped.append(record)
        }
        return (stopped.map { .timerStopped(recordId: $0.id, end: end) }, .stopped(stopped))
    }

    /// The running record a reference names; nil with a notice when it is stopped or deleted (a stale id).
    mutating func runningRecord(_ reference: RecordRef, verb: String) throws(DomainError) -> Record? {
        switch try resolve(reference) {
        case .live(let record) where record.isRunning:
            return record
        case .live(let record):
            notices.append(
                Notice(
                    .notRunning,
                    "record \(MessageFormat.short(record.id)) is not running (it ended at "
                        + "\(MessageFormat.local(record.end!, calendar))); nothing to \(verb)"))
        case .deleted(let id):
            notices.append(Notice(.notRunning, "record \(MessageFormat.short(id)) was deleted; nothing to \(verb)"))
        case .unknown:
            throw DomainError(.unknownRecord, "no record has an id starting with \"\(reference.text)\"")
        }
        return nil
    }

    mutating func continueRecord(
        _ reference: RecordRef?, at: ParsedTime?, switching: Bool, force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        let source: Record
        if let reference {
            source = try liveRecord(reference)
            guard !source.isRunning else {
                throw DomainError(
                    .recordRunning,
                    "record \(MessageFormat.short(source.id)) is still running; continue a record that has ended")
            }
        } else {
            guard let last = state.lastEndedRecord else {
                throw DomainError(.nothingToContinue, "no record has ended yet; start a timer with `stint start`")
            }
            source = last
        }
        let start = try time(at, "start")
        let (tagId, _) = try tagId(
            for: source.tagId.map { .id($0) } ?? .untagged, refuseArchived: false, unknownIDIsUntagged: true)
        return try startTimer(
            at: start, tagId: tagId, created: nil, comment: source.comment, switching: switching, force: force
        ) { .continued($0, from: source, stopped: $1) }
    }

    mutating func cancel(_ reference: RecordRef?) throws(DomainError) -> ([DomainEvent], Outcome) {
        let target: Record
        if let reference {
            guard let record = try runningRecord(reference, verb: "cancel") else { return ([], .unchanged) }
            target = record
        } else {
            target = try onlyRunning("cancel")
        }
        return ([.timerCanceled(recordId: target.id)], .canceled(target))
    }
}
