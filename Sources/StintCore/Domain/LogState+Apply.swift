extension LogState {
    /// Applies the next event of the log.
    ///
    /// Decodes the payload strictly, checks that the event fits the state (for instance that a stopped
    /// record exists and is running, that an undo marker starts its batch and names the batch on top of the
    /// stack), computes the event's inverse for the undo model, and only then changes the state. On error the
    /// state is unchanged.
    ///
    /// The envelope is trusted, not checked: `event` must be the event after ``lastSeq``, with an `at` not
    /// earlier than ``lastAt``, and an event that does not start a batch (`tx` ≠ `seq`) must belong to the
    /// batch of the event before it, with its `at`. Those are the store's rules (log-format §2): the log
    /// reader checks them as it reads (problems `seqDiscontinuity`, `timeWentBackwards` and
    /// `malformedBatch`) and stops before an event that breaks them, and every store places the events it
    /// appends with one `BatchEncoder`. Fold events from a store or a `LogReader`, never from elsewhere.
    ///
    /// After a repair's gap (``resumedAfterRepair``), an event that does not fit is ignored instead: the state
    /// only moves past it (``ignoreAfterGap(_:_:startsBatch:)``).
    ///
    /// - Throws: ``DomainError`` of category ``DomainError/Category/damaged``, carrying the event's `seq`.
    public mutating func apply(_ event: RecordedEvent) throws(DomainError) {
        let domain = try DomainEvent(event)
        let startsBatch = event.batchStart == event.seq
        let target: OpenBatch.Target
        let inverses: [DomainEvent]
        do throws(DomainError) {
            if case .logRepaired(_, _, _, _?) = domain, !startsBatch || event.tx != nil {
                throw DomainError(
                    .inconsistentEvent, "a log.repaired that names a resume point must be a batch of its own",
                    seq: event.seq)
            }
            target = try batchTarget(for: domain, startsBatch: startsBatch, seq: event.seq)
            inverses = try inverse(of: domain)
            try mutate(domain)
        } catch {
            guard resumedAfterRepair == nil else {
                return ignoreAfterGap(domain, event, startsBatch: startsBatch)
            }
            var error = error
            error.seq = event.seq
            throw error
        }
        if case .logRepaired(_, _, _, _?) = domain {
            // Undo never reaches across the gap: the lost events may have moved both stacks.
            resumedAfterRepair = event.seq
            undoStack.removeAll()
            redoStack.removeAll()
        }
        if startsBatch { openBatch(domain, target: target, seq: event.seq, at: event.at, grouped: event.tx != nil) }
        switch batch.target {
        case .none: break
        case .undo: undoStack[undoStack.count - 1].prepend(inverses)
        case .redo: redoStack[redoStack.count - 1].prepend(inverses)
        }
        lastSeq = event.seq
        lastAt = event.at
    }

    /// Moves past an event after a repair's gap that does not fit the state (it names what the lost events made):
    /// nothing changes but the position. A batch it starts is opened as its first event would open it — unless
    /// that is an undo marker that does not fit, or the event is a batch of its own: then the batch moves
    /// neither stack and records no inverse.
    private mutating func ignoreAfterGap(_ domain: DomainEvent, _ event: RecordedEvent, startsBatch: Bool) {
        if startsBatch {
            let target = event.tx == nil ? nil : try? batchTarget(for: domain, startsBatch: true, seq: event.seq)
            if let target {
                openBatch(domain, target: target, seq: event.seq, at: event.at, grouped: true)
            } else {
                batch = OpenBatch(start: event.seq, at: event.at, target: .none, grouped: event.tx != nil)
            }
        }
        lastSeq = event.seq
        lastAt = event.at
    }

    /// Which stack a batch that starts with `event` records its inverses on; checks the undo markers.
    private func batchTarget(
        for event: DomainEvent, startsBatch: Bool, seq: Int64
    ) throws(DomainError) -> OpenBatch.Target {
        switch event {
        case .logCreated:
            throw DomainError(.inconsistentEvent, "log.created may only be the first event of a log", seq: seq)
        case .commandUndone(let tx):
            guard startsBatch else {
                throw DomainError(.inconsistentEvent, "command.undone must be the first event of its batch", seq: seq)
            }
            guard undoStack.last?.batchStart == tx else {
                throw DomainError(
                    .inconsistentEvent,
                    "command.undone names batch \(tx), but the batch that can be undone is "
                        + (undoStack.last.map { "\($0.batchStart)" } ?? "none"), seq: seq)
            }
            return .redo
        case .commandRedone(let tx):
            guard startsBatch else {
                throw DomainError(.inconsistentEvent, "command.redone must be the first event of its batch", seq: seq)
            }
            guard redoStack.last?.batchStart == tx else {
                throw DomainError(
                    .inconsistentEvent,
                    "command.redone names batch \(tx), but the batch that can be redone is "
                        + (redoStack.last.map { "\($0.batchStart)" } ?? "none"), seq: seq)
            }
            return .undo
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return startsBatch ? .none : batch.target
        default:
            return startsBatch ? .undo : batch.target
        }
    }

    /// Starts a batch: moves the undo and redo stacks as the batch's first event says (a bookkeeping batch
    /// leaves both alone).
    private mutating func openBatch(
        _ first: DomainEvent, target: OpenBatch.Target, seq: Int64, at: Instant, grouped: Bool
    ) {
        switch first {
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            break
        case .commandUndone:
            undoStack.removeLast()
            LogState.push(UndoEntry(batchStart: seq, inverses: []), on: &redoStack)
        case .commandRedone:
            redoStack.removeLast()
            LogState.push(UndoEntry(batchStart: seq, inverses: []), on: &undoStack)
        default:
            redoStack.removeAll()
            LogState.push(UndoEntry(batchStart: seq, inverses: []), on: &undoStack)
        }
        batch = OpenBatch(start: seq, at: at, target: target, grouped: grouped)
    }

    private static func push(_ entry: UndoEntry, on stack: inout [UndoEntry]) {
        stack.append(entry)
        if stack.count > undoLimit { stack.removeFirst(stack.count - undoLimit) }
    }

    /// Changes the entities as `event` says, after checking that it fits; throws before any change.
    private mutating func mutate(_ event: DomainEvent) throws(DomainError) {
        switch event {
        case .logCreated, .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            break
        case .tagCreated(let id, let name, let color):
            try require(TagRules.create(tags[id], nameTaken: nameHolder(name, other: id) != nil), tag: id, name: name)
            tags[id] = Tag(id: id, name: name, color: color)
        case .tagRenamed(let id, let name):
            try require(TagRules.rename(tags[id], nameTaken: nameHolder(name, other: id) != nil), tag: id, name: name)
            tags[id]!.name = name
        case .tagArchived(let id):
            try require(TagRules.archive(tags[id]), tag: id)
            tags[id]!.isArchived = true
        case .tagUnarchived(let id):
            try require(TagRules.unarchive(tags[id]), tag: id)
            tags[id]!.isArchived = false
        case .tagDeleted(let id):
            try require(TagRules.delete(tags[id]), tag: id)
            tags[id]!.isDeleted = true
        case .tagRestored(let id):
            let name = tags[id]?.name ?? ""
            try require(TagRules.restore(tags[id], nameTaken: nameHolder(name, other: id) != nil), tag: id, name: name)
            tags[id]!.isDeleted = false
        case .timerStarted(let id, let start, let tagId, let comment):
            try create(Record(id: id, start: start, tagId: tagId, comment: comment), allowsDeletedTag: false)
            noteUse(of: tagId)
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            try create(Record(id: id, start: start, end: end, tagId: tagId, comment: comment), allowsDeletedTag: true)
            noteUse(of: tagId)
        case .timerStopped(let id, let end):
            try require(RecordRules.stop(presence(of: id), end: end), record: id, end: end)
            var record = records[id]!
            record.end = end
            replace(record)
        case .recordEdited(let record, _):
            try require(
                RecordRules.edit(
                    presence(of: record.id), start: record.start, end: record.end, tag: tagPresence(of: record.tagId)),
                record)
            replace(record)
        case .timerCanceled(let id):
            try require(RecordRules.cancel(presence(of: id)), record: id)
            remove(id)
        case .recordDeleted(let id):
            try require(RecordRules.delete(presence(of: id)), record: id)
            remove(id)
        case .recordRestored(let record):
            try require(
                RecordRules.restore(
                    presence(of: record.id), start: record.start, end: record.end, tag: tagPresence(of: record.tagId)),
                record)
            insert(record)
        case .recordImported(let record, let source):
            try create(record, allowsDeletedTag: true)
            importProvenance[record.id] = provenance(record, source)
            noteUse(of: record.tagId)
        case .recordReimported(let record, let source):
            try require(
                RecordRules.reimport(
                    presence(of: record.id), imported: importProvenance[record.id] != nil, start: record.start,
                    end: record.end, tag: tagPresence(of: record.tagId)), record)
            replace(record)
            importProvenance[record.id] = provenance(record, source)
        case .recordUnimported(let id):
            try require(RecordRules.unimport(presence(of: id), imported: importProvenance[id] != nil), record: id)
            records[id] = nil
            runningRecordIds.removeAll { $0 == id }
            importProvenance[id] = nil
        }
    }

    private func inconsistent(_ message: String) -> DomainError {
        DomainError(.inconsistentEvent, message)
    }

    /// What the fold knows of record `id`, for ``RecordRules``.
    func presence(of id: EntityID) -> RecordPresence {
        if let record = records[id] { return .live(start: record.start, running: record.isRunning) }
        return deletedRecordIds.contains(id) ? .deleted : .unknown
    }

    /// What the fold knows of tag `id` (nil: no tag given), for ``RecordRules``.
    func tagPresence(of id: EntityID?) -> TagPresence? {
        guard let id else { return nil }
        guard let tag = tags[id] else { return .unknown }
        return tag.isDeleted ? .deleted : .live
    }

    /// Adds a new record when ``RecordRules/create(_:start:end:tag:allowsDeletedTag:)`` allows it.
    private mutating func create(_ record: Record, allowsDeletedTag: Bool) throws(DomainError) {
        try require(
            RecordRules.create(
                presence(of: record.id), start: record.start, end: record.end, tag: tagPresence(of: record.tagId),
                allowsDeletedTag: allowsDeletedTag), record)
        insert(record)
    }

    /// Throws the damage a rule's violation is in this strict fold, for an event carrying `record`'s values.
    private func require(_ verdict: RuleVerdict<RecordRules.Violation>, _ record: Record) throws(DomainError) {
        try require(verdict, record: record.id, start: record.start, end: record.end, tag: record.tagId)
    }

    /// Throws the damage a record rule's violation is in this strict fold; `start`, `end` and `tag` are the
    /// values the event gives (the start defaults to the record's own).
    private func require(
        _ verdict: RuleVerdict<RecordRules.Violation>, record id: EntityID, start: Instant? = nil, end: Instant? = nil,
        tag: EntityID? = nil
    ) throws(DomainError) {
        guard case .violates(let violation) = verdict else { return }
        switch violation {
        case .notLive: throw inconsistent("record \(id) does not exist or is deleted")
        case .notRunning: throw inconsistent("record \(id) is not running")
        case .endsBeforeStart:
            let start = start ?? records[id]!.start
            throw inconsistent("record \(id) would end (\(end!)) before it starts (\(start))")
        case .idTaken(let deleted):
            throw inconsistent(
                deleted ? "record \(id) was deleted; a record id is never reused" : "record \(id) already exists")
        case .notDeleted: throw inconsistent("record \(id) is not a deleted record")
        case .notImported: throw inconsistent("record \(id) was not imported")
        case .tagUnknown: throw inconsistent("tag \(tag!) does not exist")
        case .tagDeleted: throw inconsistent("tag \(tag!) is deleted")
        }
    }

    /// Throws the damage a tag rule's violation is in this strict fold; `name` is the name the event gives.
    private func require(
        _ verdict: RuleVerdict<TagRules.Violation>, tag id: EntityID, name: String = ""
    ) throws(DomainError) {
        guard case .violates(let violation) = verdict else { return }
        switch violation {
        case .notLive: throw inconsistent("tag \(id) does not exist or is deleted")
        case .alreadyArchived: throw inconsistent("tag \(id) is already archived")
        case .notArchived: throw inconsistent("tag \(id) is not archived")
        case .idTaken: throw inconsistent("tag \(id) already exists")
        case .notDeleted: throw inconsistent("tag \(id) is not a deleted tag")
        case .nameTaken:
            let holder = nameHolder(name, other: id).map { "\($0)" } ?? "another tag"
            throw inconsistent("the name \"\(name)\" is already taken by tag \(holder)")
        }
    }

    /// The live tag other than `id` that has `name`, if any.
    private func nameHolder(_ name: String, other id: EntityID) -> EntityID? {
        guard let holder = tag(named: name), holder.id != id else { return nil }
        return holder.id
    }

    /// Adds a record a rule allowed (a new one, or a deleted one restored).
    private mutating func insert(_ record: Record) {
        deletedRecordIds.remove(record.id)
        records[record.id] = record
        if record.isRunning { insertRunning(record) }
    }

    mutating func replace(_ record: Record) {
        runningRecordIds.removeAll { $0 == record.id }
        records[record.id] = record
        if record.isRunning { insertRunning(record) }
    }

    mutating func remove(_ id: EntityID) {
        records[id] = nil
        runningRecordIds.removeAll { $0 == id }
        deletedRecordIds.insert(id)
    }

    private mutating func insertRunning(_ record: Record) {
        let index = runningRecordIds.firstIndex { other in
            let running = records[other]!
            return (record.start, record.id) < (running.start, running.id)
        }
        runningRecordIds.insert(record.id, at: index ?? runningRecordIds.endIndex)
    }

    private mutating func noteUse(of tagId: EntityID?) {
        LogState.noteUse(of: tagId, in: &recentTagIds)
    }

    /// Moves a used tag to the front of the recent tags (the rule ``ProjectionState`` folds by too).
    static func noteUse(of tagId: EntityID?, in recentTagIds: inout [EntityID]) {
        guard let tagId else { return }
        recentTagIds.removeAll { $0 == tagId }
        recentTagIds.insert(tagId, at: 0)
    }
}
