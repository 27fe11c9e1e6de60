// The simulator's own fold of records, by the intent rules of decision 0007 §8: per field, the last event
// in merge order that set it wins; the first stop ends a timer; a deleted record stays deleted unless a
// later `record.restored` names it. The controls are variants of it that must be caught.
import StintCore

/// A record as the intent rules expect it.
struct ExpectedRecord: Equatable {
    var start: Instant
    var end: Instant?
    var tagId: EntityID?
    var comment: String?

    init(_ record: Record) {
        start = record.start
        end = record.end
        tagId = record.tagId
        comment = record.comment
    }

    /// The fields that differ from `record`.
    func differences(from record: Record) -> [Field] {
        var fields: [Field] = []
        if start != record.start { fields.append(.start) }
        if end != record.end { fields.append(.end) }
        if tagId != record.tagId { fields.append(.tag) }
        if comment != record.comment { fields.append(.comment) }
        return fields
    }

    mutating func set(_ fields: Set<Field>, from record: Record) {
        if fields.contains(.start) { start = record.start }
        if fields.contains(.end) { end = record.end }
        if fields.contains(.tag) { tagId = record.tagId }
        if fields.contains(.comment) { comment = record.comment }
        keepNonNegative()
    }

    /// A concurrent edit that moved the start after the end leaves an empty record, not a negative one
    /// (decision 0007 §7.2).
    mutating func keepNonNegative() {
        if let end, end < start { self.end = start }
    }
}

extension Field {
    /// The fields of a `record.edited`'s `fields`.
    static func set(_ fields: RecordFields) -> Set<Field> {
        var set: Set<Field> = []
        if fields.contains(.start) { set.insert(.start) }
        if fields.contains(.end) { set.insert(.end) }
        if fields.contains(.tagId) { set.insert(.tag) }
        if fields.contains(.comment) { set.insert(.comment) }
        return set
    }
}

struct RecordFold {
    enum Rules {
        /// The intent rules (the oracle).
        case perField
        /// Control: an edit sets every field from the event's complete values.
        case wholeRecord
        /// Control: a deletion forgets the record, so a later edit re-creates it.
        case noTombstones
    }

    let rules: Rules
    private(set) var live: [EntityID: ExpectedRecord] = [:]
    private(set) var deleted: Set<EntityID> = []

    init(rules: Rules) { self.rules = rules }

    /// Folds the events in the order given.
    static func fold(_ events: [AckedEvent], rules: Rules) -> RecordFold {
        var fold = RecordFold(rules: rules)
        for event in events { fold.apply(event) }
        return fold
    }

    mutating func apply(_ acked: AckedEvent) {
        guard let event = try? DomainEvent(acked.event) else { return }
        switch event {
        case .timerStarted(let id, let start, let tagId, let comment):
            create(id, Record(id: id, start: start, tagId: tagId, comment: comment))
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            create(id, Record(id: id, start: start, end: end, tagId: tagId, comment: comment))
        case .timerStopped(let id, let end):
            // The first stop ends the timer; a stop of a stopped or deleted record is a no-op.
            if var record = live[id], record.end == nil {
                record.end = end
                record.keepNonNegative()
                live[id] = record
            }
        case .recordEdited(let record, let named):
            // The fields the command gave, else those the event names (every one for version 1).
            let fields = rules == .wholeRecord ? Set(Field.allCases) : (acked.editedFields ?? Field.set(named))
            if var existing = live[record.id] {
                existing.set(fields, from: record)
                live[record.id] = existing
            } else if rules == .noTombstones {
                // Nothing remembers the deletion: the edit's complete values make the record again.
                live[record.id] = ExpectedRecord(record)
            }
        case .timerCanceled(let id), .recordDeleted(let id):
            if live.removeValue(forKey: id) != nil, rules != .noTombstones { deleted.insert(id) }
        case .recordRestored(let record):
            live[record.id] = ExpectedRecord(record)
            deleted.remove(record.id)
        default:
            break
        }
    }

    private mutating func create(_ id: EntityID, _ record: Record) {
        guard live[id] == nil, !deleted.contains(id) else { return }
        live[id] = ExpectedRecord(record)
    }

}
