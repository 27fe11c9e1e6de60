/// The record events of the merged fold: rules 1–5 and 11 (decision 0007 §7.2's table).
extension MergedFold {
    mutating func mutateRecord(_ event: DomainEvent, _ ref: EventRef) -> [DomainEvent] {
        switch event {
        case .timerStarted(let id, let start, let tagId, let comment):
            guard create(Record(id: id, start: start, tagId: tagId, comment: comment), ref) else { return [] }
            LogState.noteUse(of: tagId, in: &state.recentTagIds)
            if batch.stopped { noteKeptRunning(ref) }
            return [.recordDeleted(recordId: id)]
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            let record = Record(id: id, start: start, end: max(end, start), tagId: tagId, comment: comment)
            guard create(record, ref) else { return [] }
            LogState.noteUse(of: tagId, in: &state.recentTagIds)
            return [.recordDeleted(recordId: id)]
        case .timerStopped(let id, let end):
            guard let record = live(id, ref, "stop") else { return [] }
            guard record.isRunning else {
                let calendar = state.calendar
                list(
                    1, .record(id),
                    .stoppedTwice(
                        endedBy: stamps[id]?.setters.map { eventRef($0.end) },
                        end: record.end.map { MessageFormat.local($0, calendar) },
                        ignored: ref, ignoredEnd: MessageFormat.local(end, calendar)))
                return []
            }
            var values = record
            values.end = end
            batch.stopped = true
            return set(values, fields: .end, ref, before: record)
        case .timerCanceled(let id):
            guard let record = live(id, ref, "cancel") else { return [] }
            guard record.isRunning else {
                list(1, .record(id), .canceledNotRunning(ignored: ref))
                return []
            }
            delete(id, ref)
            return [.recordRestored(record)]
        case .recordEdited(let values, let fields):
            guard let before = live(values.id, ref, "edit") else { return [] }
            return set(values, fields: fields, ref, before: before)
        case .recordDeleted(let id):
            guard let record = state.records[id] else { return [] }
            delete(id, ref)
            return [.recordRestored(record)]
        case .recordRestored(let values):
            if let before = state.records[values.id] {
                _ = set(values, fields: .all, ref, before: before)
                return [.recordEdited(before, fields: .all)]
            }
            insert(values, ref)
            return [.recordDeleted(recordId: values.id)]
        case .recordImported(let values, let source):
            if let before = state.records[values.id] {
                list(
                    6, .record(values.id), .importedTwice(first: stamps[values.id]?.created.map(eventRef), second: ref),
                    minor: true)
                return reimport(values, source, ref, before: before)
            }
            guard create(values, ref) else { return [] }
            state.importProvenance[values.id] = state.provenance(values, source)
            LogState.noteUse(of: values.tagId, in: &state.recentTagIds)
            return [.recordUnimported(recordId: values.id)]
        case .recordReimported(let values, let source):
            guard let before = live(values.id, ref, "re-import") else { return [] }
            return reimport(values, source, ref, before: before)
        case .recordUnimported(let id):
            guard live(id, ref, "unimport") != nil, state.importProvenance[id] != nil,
                let inverses = try? state.importInverse(of: id, removing: true)
            else { return [] }
            state.records[id] = nil
            state.runningRecordIds.removeAll { $0 == id }
            state.importProvenance[id] = nil
            stamps[id]?.setters = nil
            return inverses
        default:
            return []
        }
    }

    /// The live record `id`; nil, listing rule 5 when it is deleted, when there is none.
    private mutating func live(_ id: EntityID, _ ref: EventRef, _ what: String) -> Record? {
        if let record = state.records[id] { return record }
        if state.deletedRecordIds.contains(id) {
            list(5, .record(id), .ignoredOnDeleted(what: what, ignored: ref, deletedBy: deletedBy[id]))
        }
        return nil
    }

    /// Adds a new record; false, listing rule 0, when its id was used before.
    private mutating func create(_ record: Record, _ ref: EventRef) -> Bool {
        guard state.records[record.id] == nil, !state.deletedRecordIds.contains(record.id) else {
            list(0, .record(record.id), .idReused(ignored: ref))
            return false
        }
        // Neither live nor deleted: there is no deletion to take back (``deletedBy`` holds deleted ids only).
        state.replace(record)
        stamps.add(RecordStamps(created: current, setters: FieldSetters(all: current)), for: record.id)
        return true
    }

    /// Brings back a deleted record (or an unimported one) with `record`'s values, set by the current event.
    private mutating func insert(_ record: Record, _ ref: EventRef) {
        state.deletedRecordIds.remove(record.id)
        deletedBy[record.id] = nil
        state.replace(record)
        var entry = stamps[record.id] ?? RecordStamps()
        entry.setters = FieldSetters(all: current)
        stamps[record.id] = entry
    }

    private mutating func delete(_ id: EntityID, _ ref: EventRef) {
        state.remove(id)
        deletedBy[id] = ref
        stamps[id]?.setters = nil
    }

    /// Sets the `fields` of live record `values.id`, whose values are `before`, from `values` (rules 3, 4 and
    /// 11); the inverse.
    private mutating func set(_ values: Record, fields: RecordFields, _ ref: EventRef, before: Record)
        -> [DomainEvent]
    {
        let id = values.id
        var after = fields.apply(values, to: before)
        // One lookup for reading and writing the setters.
        let number = stamps.number(of: id)
        var setters = number.flatMap { stamps[number: $0].setters } ?? FieldSetters(all: current)
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
        if let number {
            stamps[number: number].setters = setters
        } else {
            stamps.add(RecordStamps(setters: setters), for: id)
        }
        state.replace(after)
        return [.recordEdited(before, fields: fields)]
    }

    /// A re-import: the complete values and the source's (an edit of all four fields).
    private mutating func reimport(_ values: Record, _ source: ImportSource, _ ref: EventRef, before: Record)
        -> [DomainEvent]
    {
        let inverses =
            state.importProvenance[values.id] != nil
            ? (try? state.importInverse(of: values.id, removing: false)) : nil
        let edit = set(values, fields: .all, ref, before: before)
        state.importProvenance[values.id] = state.provenance(values, source)
        return inverses ?? edit
    }

    /// Rule 2: after a switch on this batch's device started `ref`, the timers still running whose start
    /// the device had not seen.
    private mutating func noteKeptRunning(_ ref: EventRef) {
        for id in state.runningRecordIds {
            guard let started = stamps[id]?.created, started != current, !currentKnew(started) else { continue }
            list(2, .record(id), .keptRunning(switchedBy: batch.start, startedBy: eventRef(started)))
        }
    }

    /// A field's value as conflict lines show it: times in the log's zone, a tag by name, texts quoted.
    private func text(_ record: Record, _ field: RecordFields) -> String {
        switch field {
        case .start: return MessageFormat.local(record.start, state.calendar)
        case .end: return record.end.map { MessageFormat.local($0, state.calendar) } ?? "running"
        case .tagId:
            return record.tagId.map { id in state.tags[id].map { "\"\($0.name)\"" } ?? MessageFormat.short(id) }
                ?? "untagged"
        default: return record.comment.map { "\"\($0)\"" } ?? "none"
        }
    }
}
