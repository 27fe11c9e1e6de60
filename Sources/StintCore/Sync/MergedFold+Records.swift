/// The record events of the merged fold: rules 1–5 and 11 (decision 0007 §7.2's table).
extension MergedFold {
    mutating func mutateRecord(_ event: DomainEvent, _ ref: EventRef) -> [DomainEvent] {
        switch event {
        case .timerStarted(let id, let start, let tagId, let comment):
            guard create(Record(id: id, start: start, tagId: tagId, comment: comment), ref) else { return [] }
            LogState.noteUse(of: tagId, in: &base.recentTagIds)
            if batch.stopped { noteKeptRunning(ref) }
            return [.recordDeleted(recordId: id)]
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            let record = Record(id: id, start: start, end: max(end, start), tagId: tagId, comment: comment)
            guard create(record, ref) else { return [] }
            LogState.noteUse(of: tagId, in: &base.recentTagIds)
            return [.recordDeleted(recordId: id)]
        case .timerStopped(let id, let end):
            let number = records.number(of: id)
            switch RecordRules.stop(presence(number), end: end) {
            case .violates(.notLive(let deleted)):
                if deleted { listIgnoredOnDeleted(id, "stop", ref) }
                return []
            case .violates(.notRunning):
                let number = number!
                let record = records.live(number)!
                let calendar = base.calendar
                list(
                    1, .record(id),
                    .stoppedTwice(
                        endedBy: records[stamps: number].setters.map { eventRef($0.end) },
                        end: record.end.map { MessageFormat.local($0, calendar) },
                        ignored: ref, ignoredEnd: MessageFormat.local(end, calendar)))
                return []
            case .apply, .violates(.endsBeforeStart):
                // A stop before the start is applied with the span clamped (rule 3, in `set`).
                let number = number!
                let record = records.live(number)!
                var values = record
                values.end = end
                batch.stopped = true
                return set(values, fields: .end, ref, before: record, number: number)
            case .violates:
                return []  // a stop gives no other violation
            }
        case .timerCanceled(let id):
            let number = records.number(of: id)
            switch RecordRules.cancel(presence(number)) {
            case .violates(.notLive(let deleted)):
                if deleted { listIgnoredOnDeleted(id, "cancel", ref) }
                return []
            case .apply:
                let record = records.live(number!)!
                delete(number!, ref)
                return [.recordRestored(record)]
            case .violates:
                // Not running (a cancel has no span to check): rule 1.
                list(1, .record(id), .canceledNotRunning(ignored: ref))
                return []
            }
        case .recordEdited(let values, let fields):
            let verdict = RecordRules.edit(
                presence(records.number(of: values.id)), start: values.start, end: values.end,
                tag: base.tagPresence(of: values.tagId))
            guard let (number, before) = live(values.id, verdict, ref, "edit") else { return [] }
            return set(values, fields: fields, ref, before: before, number: number)
        case .recordDeleted(let id):
            // A delete of a record that is not live (deleted again, or never seen here) is ignored silently.
            let number = records.number(of: id)
            guard RecordRules.delete(presence(number)) == .apply, let number, let record = records.live(number) else {
                return []
            }
            delete(number, ref)
            return [.recordRestored(record)]
        case .recordRestored(let values):
            let number = records.number(of: values.id)
            let verdict = RecordRules.restore(
                presence(number), start: values.start, end: values.end, tag: base.tagPresence(of: values.tagId))
            // A restore of a live record is applied as an edit of all its fields; of one deleted, unimported or
            // never seen here, it brings the record in; its span and tag as they come (decision 0007 §7.2).
            if verdict == .violates(.notDeleted), let number, let before = records.live(number) {
                _ = set(values, fields: .all, ref, before: before, number: number)
                return [.recordEdited(before, fields: .all)]
            }
            insert(values, number: number, ref)
            return [.recordDeleted(recordId: values.id)]
        case .recordImported(let values, let source):
            let number = records.number(of: values.id)
            let verdict = RecordRules.create(
                presence(number), start: values.start, end: values.end, tag: base.tagPresence(of: values.tagId),
                allowsDeletedTag: true)
            // The same record imported on two devices (its id taken by a live record): a re-import (rule 6).
            if verdict == .violates(.idTaken(deleted: false)), let number, let before = records.live(number) {
                list(
                    6, .record(values.id),
                    .importedTwice(first: records[stamps: number].created.map(eventRef), second: ref), minor: true)
                return reimport(values, source, ref, before: before, number: number)
            }
            guard create(values, ref) else { return [] }
            base.importProvenance[values.id] = base.provenance(values, source)
            LogState.noteUse(of: values.tagId, in: &base.recentTagIds)
            return [.recordUnimported(recordId: values.id)]
        case .recordReimported(let values, let source):
            let verdict = RecordRules.reimport(
                presence(records.number(of: values.id)), imported: base.importProvenance[values.id] != nil,
                start: values.start, end: values.end, tag: base.tagPresence(of: values.tagId))
            guard let (number, before) = live(values.id, verdict, ref, "re-import") else { return [] }
            // One that was not imported here is re-imported all the same: an edit of all four fields.
            return reimport(values, source, ref, before: before, number: number)
        case .recordUnimported(let id):
            let verdict = RecordRules.unimport(
                presence(records.number(of: id)), imported: base.importProvenance[id] != nil)
            guard let (number, record) = live(id, verdict, ref, "unimport"), verdict == .apply,
                let provenance = base.importProvenance[id]
            else { return [] }
            let inverses = LogState.importInverse(of: record, provenance, removing: true)
            remove(number, to: .absent)
            base.importProvenance[id] = nil
            records[stamps: number].setters = nil
            return inverses
        default:
            return []
        }
    }

    /// The number and values of live record `id` unless `verdict` says it is not live: then nil, listing rule 5
    /// when it is deleted. Any other violation is this fold's to apply its own way (a span clamped by rule 3 in
    /// `set`, a tag as it comes).
    private mutating func live(
        _ id: EntityID, _ verdict: RuleVerdict<RecordRules.Violation>, _ ref: EventRef, _ what: String
    ) -> (Int, Record)? {
        if case .violates(.notLive(let deleted)) = verdict {
            if deleted { listIgnoredOnDeleted(id, what, ref) }
            return nil
        }
        guard let number = records.number(of: id), let record = records.live(number) else { return nil }
        return (number, record)
    }

    /// Rule 5: an event on a deleted record is ignored, and listed.
    private mutating func listIgnoredOnDeleted(_ id: EntityID, _ what: String, _ ref: EventRef) {
        list(5, .record(id), .ignoredOnDeleted(what: what, ignored: ref, deletedBy: deletedBy[id]))
    }

    /// What the fold knows of the record numbered `number` (nil: none has the id), for ``RecordRules``; an
    /// import withdrawn (`absent`) is as unknown.
    private func presence(_ number: Int?) -> RecordPresence {
        guard let number else { return .unknown }
        if let record = records.live(number) { return .live(start: record.start, running: record.isRunning) }
        return records.statuses[number] == .deleted ? .deleted : .unknown
    }

    /// Adds a new record; false, listing rule 0, when its id was used before. Only the id is this fold's to
    /// refuse: a span is clamped before (rule 3), and a tag is taken as it comes.
    private mutating func create(_ record: Record, _ ref: EventRef) -> Bool {
        let stamps = RecordStamps(created: current, setters: FieldSetters(all: current))
        let number: Int
        let existing = records.number(of: record.id)
        let verdict = RecordRules.create(
            presence(existing), start: record.start, end: record.end, tag: base.tagPresence(of: record.tagId),
            allowsDeletedTag: true)
        if case .violates(.idTaken) = verdict {
            list(0, .record(record.id), .idReused(ignored: ref))
            return false
        }
        if let existing {
            // An unimported record's id: neither live nor deleted, a new record as far as the rules go.
            number = existing
            records[stamps: number] = stamps
        } else {
            number = records.add(record.id, stamps: stamps)
        }
        // Neither live nor deleted: there is no deletion to take back (``deletedBy`` holds deleted ids only).
        store(record, number: number)
        return true
    }

    /// Brings back a deleted record (or an unimported one, or one never seen) with `record`'s values, set by
    /// the current event.
    private mutating func insert(_ record: Record, number: Int?, _ ref: EventRef) {
        deletedBy[record.id] = nil
        let setters = FieldSetters(all: current)
        let number = number ?? records.add(record.id, stamps: RecordStamps())
        records[stamps: number].setters = setters
        store(record, number: number)
    }

    private mutating func delete(_ number: Int, _ ref: EventRef) {
        deletedBy[records.ids[number]] = ref
        remove(number, to: .deleted)
        records[stamps: number].setters = nil
    }

    /// Makes `number` live with `record`'s values, keeping the running ids (and the records by id) in step.
    private mutating func store(_ record: Record, number: Int) {
        let wasRunning = records.statuses[number] == .live && records.isRunning(number)
        records.set(number, record)
        if wasRunning || record.isRunning {
            base.runningRecordIds.removeAll { $0 == record.id }
            if record.isRunning {
                let key = (record.start, record.id)
                let index = base.runningRecordIds.firstIndex { other in
                    let running = records.record(records.number(of: other)!)
                    return key < (running.start, running.id)
                }
                base.runningRecordIds.insert(record.id, at: index ?? base.runningRecordIds.endIndex)
            }
        }
        if keepsRecordsByID {
            base.records[record.id] = record
            base.deletedRecordIds.remove(record.id)
        }
    }

    /// Makes live record `number` deleted or absent.
    private mutating func remove(_ number: Int, to status: RecordTable.Status) {
        let id = records.ids[number]
        if records.isRunning(number) { base.runningRecordIds.removeAll { $0 == id } }
        records.setStatus(number, status)
        if keepsRecordsByID {
            base.records[id] = nil
            if status == .deleted { base.deletedRecordIds.insert(id) }
        }
    }

    /// Sets the `fields` of live record `values.id`, whose values are `before`, from `values` (rules 3, 4 and
    /// 11); the inverse.
    private mutating func set(_ values: Record, fields: RecordFields, _ ref: EventRef, before: Record, number: Int)
        -> [DomainEvent]
    {
        let id = values.id
        var after = fields.apply(values, to: before)
        var setters = records[stamps: number].setters ?? FieldSetters(all: current)
        let device = ref.device
        var listedOthers: [Stamp] = []
        for (field, name) in RecordFields.named {
            let previous = setters[field]
            guard previous != current, !currentKnew(previous) else { continue }
            if fields.contains(field) {
                if text(before, field) != text(after, field) {
                    list(
                        3, .record(id),
                        .fieldLost(
                            field: name, lost: text(before, field), lostBy: eventRef(previous), won: text(after, field),
                            wonBy: ref))
                }
            } else if !listedOthers.contains(previous), let mine = fields.names.first {
                listedOthers.append(previous)
                list(
                    4, .record(id), .bothApplied(field: name, by: eventRef(previous), otherField: mine, otherBy: ref),
                    minor: true
                )
            }
        }
        if batch.target == .redo, let undone = batch.undone {
            // An undo: the fields it leaves alone that another device set after the undone batch (rule 11).
            for (field, name) in RecordFields.named where !fields.contains(field) {
                let previous = setters[field]
                if devices[previous.device] != device && previous.position > undone {
                    list(
                        11, .record(id),
                        .undoKept(
                            undo: batch.start, field: name, value: text(before, field), keptBy: eventRef(previous)))
                }
            }
        }
        if let end = after.end, end < after.start {
            after.end = after.start
            list(3, .record(id), .spanClamped(by: ref))
        }
        for (field, _) in RecordFields.named where fields.contains(field) { setters[field] = current }
        records[stamps: number].setters = setters
        store(after, number: number)
        return [.recordEdited(before, fields: fields)]
    }

    /// A re-import: the complete values and the source's (an edit of all four fields).
    private mutating func reimport(
        _ values: Record, _ source: ImportSource, _ ref: EventRef, before: Record, number: Int
    ) -> [DomainEvent] {
        let inverses = base.importProvenance[values.id].map {
            LogState.importInverse(of: before, $0, removing: false)
        }
        let edit = set(values, fields: .all, ref, before: before, number: number)
        base.importProvenance[values.id] = base.provenance(values, source)
        return inverses ?? edit
    }

    /// Rule 2: after a switch on this batch's device started `ref`, the timers still running whose start
    /// the device had not seen.
    private mutating func noteKeptRunning(_ ref: EventRef) {
        for id in base.runningRecordIds {
            guard let started = records[stampsOf: id]?.created, started != current, !currentKnew(started) else {
                continue
            }
            list(2, .record(id), .keptRunning(switchedBy: batch.start, startedBy: eventRef(started)))
        }
    }

    /// A field's value as conflict lines show it: times in the log's zone, a tag by name, texts quoted.
    private func text(_ record: Record, _ field: RecordFields) -> String {
        switch field {
        case .start: return MessageFormat.local(record.start, base.calendar)
        case .end: return record.end.map { MessageFormat.local($0, base.calendar) } ?? "running"
        case .tagId:
            return record.tagId.map { id in base.tags[id].map { "\"\($0.name)\"" } ?? MessageFormat.short(id) }
                ?? "untagged"
        default: return record.comment.map { "\"\($0)\"" } ?? "none"
        }
    }
}
