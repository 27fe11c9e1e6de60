/// track, edit, delete, split and join.
extension Decider {
    mutating func track(
        start startArgument: ParsedTime, end endArgument: ParsedTime, tag: TagChoice, comment text: String?,
        force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        let choice = try checkedName(tag)
        let comment = try comment(text)
        let start = try time(startArgument, "start")
        let end = try time(endArgument, "end")
        try checkSpan(start: start, end: end, force: force, of: "the record")
        try refuseEmpty(start: start, end: end)
        let (tagId, created) = try tagId(for: choice, refuseArchived: false, unknownIDIsUntagged: true)
        let record = Record(id: context.newID(), start: start, end: end, tagId: tagId, comment: comment)
        let tracked = DomainEvent.recordTracked(
            recordId: record.id, start: start, end: end, tagId: tagId, comment: comment)
        return ((created.map { [$0] } ?? []) + [tracked], .tracked(record))
    }

    mutating func edit(
        _ reference: RecordRef, start: ParsedTime?, end: ParsedTime?, tag: TagChoice?, comment text: String?,
        force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        guard start != nil || end != nil || tag != nil || text != nil else {
            throw DomainError(.missingArgument, "say what to change: a start, an end, a tag or a comment")
        }
        let choice = try checkedName(tag)
        let comment = try comment(text)
        let before = try liveRecord(reference)
        var after = before
        if let start { after.start = try time(start, "start") }
        if let end { after.end = try time(end, "end") }
        if start != nil || end != nil {
            try checkSpan(start: after.start, end: after.end, force: force, of: "the record")
            if let end = after.end { try refuseEmpty(start: after.start, end: end) }
        }
        if text != nil { after.comment = comment }
        var created: DomainEvent?
        if let choice {
            (after.tagId, created) = try tagId(for: choice, refuseArchived: false, unknownIDIsUntagged: false)
        }
        guard after != before else {
            notices.append(
                Notice(.unchanged, "record \(MessageFormat.short(before.id)) already has these values; nothing changed")
            )
            return ([], .unchanged)
        }
        var fields = RecordFields()
        if start != nil { fields.insert(.start) }
        if end != nil { fields.insert(.end) }
        if tag != nil { fields.insert(.tagId) }
        if text != nil { fields.insert(.comment) }
        let edited = DomainEvent.recordEdited(after, fields: fields)
        return ((created.map { [$0] } ?? []) + [edited], .edited(before: before, after: after))
    }

    mutating func delete(_ reference: RecordRef) throws(DomainError) -> ([DomainEvent], Outcome) {
        switch try resolve(reference) {
        case .live(let record):
            return ([.recordDeleted(recordId: record.id)], .deleted(record))
        case .deleted(let id):
            notices.append(Notice(.alreadyDeleted, "record \(MessageFormat.short(id)) is already deleted"))
            return ([], .unchanged)
        case .unknown:
            throw DomainError(.unknownRecord, "no record has an id starting with \"\(reference.text)\"")
        }
    }

    /// Cuts a record at an instant strictly inside it. The original keeps its id and the later part (so a
    /// running timer keeps running under its id); the earlier part is tracked under a new id.
    mutating func split(_ reference: RecordRef, at argument: ParsedTime) throws(DomainError) -> ([DomainEvent], Outcome)
    {
        let record = try liveRecord(reference)
        let at = try time(argument, "split time")
        guard record.start < at, record.end.map({ at < $0 }) ?? true else {
            let span =
                "\(MessageFormat.local(record.start, calendar)) to "
                + (record.end.map { MessageFormat.local($0, calendar) } ?? "now")
            throw DomainError(
                .splitOutsideRecord,
                "\(MessageFormat.local(at, calendar)) is not inside record \(MessageFormat.short(record.id)) "
                    + "(\(span)): give a time strictly between its start and end")
        }
        // A running timer's earlier part can be longer than any record may be (a completed record's parts are
        // shorter than it, which was checked when it was made). Only that limit applies here: split has no
        // --force, and a part of a forgotten timer longer than 7 days is what a person splits it to keep.
        try checkSpan(
            start: record.start, end: at, force: true, of: "the earlier part of \(MessageFormat.short(record.id))",
            fix: "split it at most \(InputLimits.longestForcedRecordDays) days after its start")
        let earlier = Record(
            id: context.newID(), start: record.start, end: at, tagId: record.tagId, comment: record.comment)
        var later = record
        later.start = at
        let events: [DomainEvent] = [
            .recordTracked(
                recordId: earlier.id, start: earlier.start, end: at, tagId: earlier.tagId, comment: earlier.comment),
            .recordEdited(later, fields: .start),
        ]
        return (events, .split(earlier: earlier, later: later))
    }

    /// Joins two records with the same tag and comment that touch or overlap into the earlier one.
    mutating func join(
        _ firstReference: RecordRef, _ secondReference: RecordRef, force: Bool
    ) throws(DomainError) -> ([DomainEvent], Outcome) {
        let one = try liveRecord(firstReference)
        let other = try liveRecord(secondReference)
        guard one.id != other.id else {
            throw DomainError(.conflictingArguments, "both references name record \(MessageFormat.short(one.id))")
        }
        let (first, second) = (one.start, one.id) <= (other.start, other.id) ? (one, other) : (other, one)
        guard first.tagId == second.tagId else {
            throw DomainError(
                .tagsDiffer, "the two records have different tags; edit one so both have the same tag, then join them")
        }
        guard first.comment == second.comment || first.comment == nil || second.comment == nil else {
            throw DomainError(
                .commentsDiffer, "the two records have different comments; edit or remove one, then join them")
        }
        if let firstEnd = first.end, second.start > firstEnd {
            throw DomainError(
                .notAdjacent,
                "there are \(MessageFormat.duration(second.start.milliseconds(since: firstEnd))) between record "
                    + "\(MessageFormat.short(first.id)) and \(MessageFormat.short(second.id)); only records that "
                    + "touch or overlap can be joined: edit one to close the gap")
        }
        var joined = first
        if let firstEnd = first.end, let secondEnd = second.end {
            joined.end = max(firstEnd, secondEnd)
        } else {
            joined.end = nil
        }
        joined.comment = first.comment ?? second.comment
        try checkSpan(start: joined.start, end: joined.end, force: force, of: "the joined record")
        // A join sets the end, and the comment when it takes the second record's.
        let fields: RecordFields = joined.comment == first.comment ? .end : [.end, .comment]
        let events: [DomainEvent] = [.recordEdited(joined, fields: fields), .recordDeleted(recordId: second.id)]
        return (events, .joined(joined, removed: second))
    }
}
