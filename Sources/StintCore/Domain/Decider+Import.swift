/// import: the records of an ``ImportPlan`` against the log.
///
/// Each imported record is looked up in the log by its derived id (or, for a finished Watson frame, by the
/// id it had while running) and compared field by field with two things: the record as the log has it, and
/// the values the source gave it at the last import (``ImportProvenance``). A field the source changed
/// takes the source's value; a field only Stint changed keeps Stint's value. A record the log does not have
/// is added; one deleted in Stint stays deleted. The rules are in `docs/import-export.md` §6.
extension Decider {
    mutating func importRecords(
        _ plan: ImportPlan, from system: ImportSystem, force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        let values = try sourceValues(plan)
        var work = ImportWork(system: system, state: state)
        for (record, source) in zip(plan.records, values) {
            try importRecord(record, values: source, into: &work)
        }
        work.findVanished(in: state)
        if let first = work.tooLong.first(where: { $0.milliseconds > InputLimits.longestForcedRecordMilliseconds }) {
            throw DomainError(
                .recordTooLong,
                "the record at \(first.position) would last \(MessageFormat.duration(first.milliseconds)) from "
                    + "\(MessageFormat.local(first.start, calendar)); \(Self.longestRecordRule): correct it in the source"
            )
        }
        if !force, let first = work.tooLong.first {
            let count = work.tooLong.count
            throw DomainError(
                .recordTooLong,
                "\(count == 1 ? "a record" : "\(count) records") would last more than 7 days; the first, at "
                    + "\(first.position), lasts \(MessageFormat.duration(first.milliseconds)) from "
                    + "\(MessageFormat.local(first.start, calendar)) (usually a timer forgotten in the source): "
                    + "correct \(count == 1 ? "it" : "them") there, or pass --force to import them as they are")
        }
        return (work.tagEvents + work.recordEvents, .imported(work.changes))
    }

    /// The records' values as the domain normalizes them (names and comments trimmed and checked),
    /// refusing what no import may write: a repeated record id, an end before the start, a time in the future.
    private func sourceValues(_ plan: ImportPlan) throws(DomainError) -> [ImportWork.Values] {
        var seen = Set<EntityID>()
        seen.reserveCapacity(plan.records.count)
        var values: [ImportWork.Values] = []
        values.reserveCapacity(plan.records.count)
        let latest = now.adding(milliseconds: InputLimits.futureToleranceMilliseconds)
        for record in plan.records {
            guard seen.insert(record.recordId).inserted else {
                throw DomainError(
                    .conflictingArguments,
                    "the import names record \(record.recordId) twice (\(record.position)); import each interval once")
            }
            if let end = record.end, end < record.start {
                throw DomainError(
                    .endBeforeStart,
                    "the interval at \(record.position) ends before it starts; correct it in the source")
            }
            let last = record.end ?? record.start
            if last > latest {
                throw DomainError(
                    .timeInFuture,
                    "the interval at \(record.position) \(record.end == nil ? "starts" : "ends") at "
                        + "\(MessageFormat.local(last, calendar)), \(MessageFormat.duration(last.milliseconds(since: now))) "
                        + "after now (\(MessageFormat.local(now, calendar))): correct it in the source, or check "
                        + "this computer's clock")
            }
            values.append(
                ImportWork.Values(
                    start: record.start, end: record.end, tagName: try record.tagName.map(InputLimits.tagName),
                    comment: try record.comment.flatMap(InputLimits.comment)))
        }
        return values
    }

    /// Adds, updates or leaves alone the log's record of one imported interval.
    private mutating func importRecord(
        _ imported: ImportedRecord, values: ImportWork.Values, into work: inout ImportWork
    ) throws(DomainError) {
        switch try work.target(of: imported, in: state) {
        case .new:
            let record = Record(
                id: imported.recordId, start: values.start, end: values.end,
                tagId: values.tagName.map { importTag($0, &work) }, comment: values.comment)
            work.checkLength(record, position: imported.position, now: now)
            work.recordEvents.append(.recordImported(record, source: imported.source))
            work.changes.added.append(
                ImportChanges.Added(record: record, source: imported.source, position: imported.position))
        case .deleted(let id):
            work.changes.leftDeleted.append(
                ImportChanges.LeftDeleted(recordId: id, source: imported.source, position: imported.position))
        case .live(let record, let provenance):
            try merge(imported, values: values, into: record, provenance: provenance, work: &work)
        }
    }

    /// The three-way merge of a record the log has: the source's values now, the source's values at the
    /// last import, and the record in the log.
    private mutating func merge(
        _ imported: ImportedRecord, values: ImportWork.Values, into log: Record, provenance: ImportProvenance,
        work: inout ImportWork
    ) throws(DomainError) {
        let base = provenance.values
        var changed: [ImportChanges.Field] = []
        var overwritten: [ImportChanges.Field] = []
        var kept: [ImportChanges.Field] = []
        func pick<Value: Equatable>(_ field: ImportChanges.Field, _ source: Value, _ base: Value, _ log: Value) -> Value
        {
            if source != base {
                changed.append(field)
                if log != base && log != source { overwritten.append(field) }
                return source
            }
            if log != base { kept.append(field) }
            return log
        }
        // What the source holds now, as a record (its tag as the last import resolved it when unchanged).
        var current = Record(
            id: log.id, start: values.start, end: values.end, tagId: base.tagId, comment: values.comment)
        var merged = log
        merged.start = pick(.start, values.start, base.start, log.start)
        merged.end = pick(.end, values.end, base.end, log.end)
        merged.comment = pick(.comment, values.comment, base.comment, log.comment)
        let tagChanged = values.tagName.map(InputLimits.nameKey) != provenance.tagName.map(InputLimits.nameKey)
        if tagChanged {
            current.tagId = values.tagName.map { importTag($0, &work) }
            changed.append(.tag)
            if log.tagId != base.tagId && log.tagId != current.tagId { overwritten.append(.tag) }
            merged.tagId = current.tagId
        } else if log.tagId != base.tagId {
            kept.append(.tag)
        }
        if let end = merged.end, end < merged.start {
            // Stint's start and the source's end (or the reverse) do not make a record: the source wins.
            overwritten = ImportChanges.Field.allCases.filter { field in
                field == .tag
                    ? log.tagId != current.tagId
                    : ImportWork.value(field, of: log) != ImportWork.value(field, of: current)
            }
            kept = []
            merged = current
        }
        guard !changed.isEmpty || provenance.source != imported.source else {
            if kept.isEmpty {
                work.changes.unchanged += 1
            } else {
                work.changes.kept.append(
                    ImportChanges.Kept(record: log, source: imported.source, position: imported.position, fields: kept))
            }
            return
        }
        work.checkLength(merged, position: imported.position, now: now)
        work.recordEvents.append(.recordReimported(current, source: imported.source))
        if merged != current {
            work.recordEvents.append(.recordEdited(merged, fields: RecordFields(changedFrom: current, to: merged)))
        }
        work.changes.updated.append(
            ImportChanges.Updated(
                before: log, after: merged, source: imported.source, position: imported.position, changed: changed,
                overwritten: overwritten, kept: kept))
    }

    /// The id of the tag named `name` (case-insensitively, among tags that are not deleted), creating the
    /// tag in this batch when the log has none: archived tags are used, as `track` does for past time.
    private mutating func importTag(_ name: String, _ work: inout ImportWork) -> EntityID {
        let key = InputLimits.nameKey(name)
        if let id = work.tagIds[key] { return id }
        let id = newTagID(named: name)
        let tag = Tag(id: id, name: name, color: TagPalette.color(forTagNumber: state.tags.count + createdTags))
        createdTags += 1
        work.tagIds[key] = id
        work.tagEvents.append(.tagCreated(tagId: id, name: tag.name, color: tag.color))
        work.changes.createdTags.append(tag)
        return id
    }
}

/// The working memory of one import decision.
struct ImportWork {
    /// An imported record's values, normalized.
    struct Values {
        var start: Instant
        var end: Instant?
        var tagName: String?
        var comment: String?
    }

    /// A record that would last longer than ``InputLimits/maximumRecordMilliseconds``.
    struct TooLong {
        var position: ImportPosition
        var start: Instant
        var milliseconds: Int64
    }

    /// What the log has for an imported record.
    enum Target {
        case new
        case deleted(EntityID)
        case live(Record, ImportProvenance)
    }

    var changes: ImportChanges
    var tagEvents: [DomainEvent] = []
    var recordEvents: [DomainEvent] = []
    /// The ids of the tags that are not deleted, and of those created so far, by name key.
    var tagIds: [String: EntityID] = [:]
    /// The log's records the imported records were matched with.
    var matched = Set<EntityID>()
    var tooLong: [TooLong] = []

    init(system: ImportSystem, state: LogState) {
        changes = ImportChanges(system: system)
        for tag in state.tags.values where !tag.isDeleted { tagIds[InputLimits.nameKey(tag.name)] = tag.id }
    }

    /// Finds the log's record of `imported`: by its id, else (a finished Watson frame) by the id it had while
    /// running, if that record still stands for the running frame or already for this frame.
    ///
    /// - Throws: ``DomainError/Code/inconsistentEvent`` when the log has a record with the derived id that
    ///   was not imported, which no correct writer produces (derived ids are version 8, new ids version 4).
    mutating func target(of imported: ImportedRecord, in state: LogState) throws(DomainError) -> Target {
        var candidates = [imported.recordId]
        if let running = imported.replacesRunningId { candidates.append(running) }
        for id in candidates where !matched.contains(id) {
            if let record = state.records[id], let provenance = state.importProvenance[id],
                id == imported.recordId || provenance.source.recordId == id || provenance.source == imported.source
            {
                matched.insert(id)
                return .live(record, provenance)
            }
            if state.deletedRecordIds.contains(id),
                id == imported.recordId || state.importProvenance[id].map({ $0.source.recordId == id }) == true
            {
                matched.insert(id)
                return .deleted(id)
            }
        }
        guard state.records[imported.recordId] == nil, !state.deletedRecordIds.contains(imported.recordId) else {
            throw DomainError(
                .inconsistentEvent,
                "the log has a record \(imported.recordId) that was not imported, with the id of an imported "
                    + "interval (\(imported.position)); run `stint verify`")
        }
        matched.insert(imported.recordId)
        return .new
    }

    /// Notes a record longer than the domain allows without `force` (a running one measured to `now`).
    mutating func checkLength(_ record: Record, position: ImportPosition, now: Instant) {
        let length = (record.end ?? max(now, record.start)).milliseconds(since: record.start)
        if length > InputLimits.maximumRecordMilliseconds {
            tooLong.append(TooLong(position: position, start: record.start, milliseconds: length))
        }
    }

    /// Lists the live records imported from the same system that no imported record matched.
    mutating func findVanished(in state: LogState) {
        var vanished: [ImportChanges.Vanished] = []
        for (id, provenance) in state.importProvenance
        where provenance.source.system == changes.system && !matched.contains(id) {
            guard let record = state.records[id] else { continue }
            vanished.append(ImportChanges.Vanished(record: record, source: provenance.source))
        }
        vanished.sort { ($0.record.start, $0.record.id) < ($1.record.start, $1.record.id) }
        changes.vanished = vanished
    }

    /// A field's value as text, for comparing fields of any type.
    static func value(_ field: ImportChanges.Field, of record: Record) -> String? {
        switch field {
        case .start: return record.start.iso8601
        case .end: return record.end?.iso8601
        case .tag: return record.tagId?.uuidString
        case .comment: return record.comment
        }
    }
}
