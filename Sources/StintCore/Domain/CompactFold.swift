/// The whole-log fold of ``LogState`` in flat storage, for rebuilding the read models from a long log.
///
/// Records get dense numbers (``RecordNumbers``) and live in parallel arrays (start, end, tag number,
/// interned comment, status); an inverse on the undo and redo stacks is a record or tag number and the
/// column values it restores, kept in one array that is compacted now and then, and becomes a
/// ``DomainEvent`` only for the entries that are still on the stacks at the end. So folding the common
/// events (timers started and stopped, records tracked, edited and deleted) allocates nothing per event.
///
/// It applies every event ``LogState/apply(_:)`` applies, with the same result (``logState`` is equal to
/// the reference fold's state; `CompactFoldTests` checks it). It does not explain refusals: ``apply(_:)``
/// returns false for any event the reference would refuse, and the fold is then unusable: fold the log
/// with ``LogState`` instead, which throws the error to report.
///
/// ```swift
/// guard var fold = CompactFold(genesis: events[0], capacity: events.count) else { /* LogState.fold */ }
/// for event in events.dropFirst() where !fold.apply(event) { /* LogState.fold */ }
/// ```
public struct CompactFold: Sendable {
    /// Whether a record number stands for a live record, a deleted one, or neither (an unimported one).
    enum Status: UInt8, Sendable { case live, deleted, absent }

    static let noEnd = Int64.min
    static let none: Int32 = -1

    /// The settings from `log.created`.
    public private(set) var settings: LogSettings
    /// The `seq` and `at` of the last applied event.
    public private(set) var lastSeq: Int64
    public private(set) var lastAt: Instant
    var batch: LogState.OpenBatch
    /// ``LogState/resumedAfterRepair``: from this repair's gap on, an event that does not fit is ignored.
    public private(set) var resumedAfterRepair: Int64?
    /// The `seq`s of the events ignored after the gap, in order, as this fold met them (what `verify` lists;
    /// not part of the state: a fold from a checkpoint does not know the earlier ones).
    public private(set) var ignoredAfterGap: [Int64] = []

    // Records, by number.
    var numbers: RecordNumbers
    var ids: [EntityID] = []
    var starts: [Int64] = []
    /// ``noEnd`` while running.
    var ends: [Int64] = []
    /// Indices into ``tags``, or ``none``.
    var tagNumbers: [Int32] = []
    /// Indices into ``strings``, or ``none``.
    var comments: [Int32] = []
    var statuses: [Status] = []
    /// The numbers of the running records, oldest start first, then by id.
    var running: [Int32] = []
    /// Provenance of imported records (live or deleted), by record number.
    var provenance: [Int32: ImportProvenance] = [:]

    // Tags, by number (creation order), and the recent ones.
    var tags: [Tag] = []
    var tagNumbersByID: [EntityID: Int32] = [:]
    var recentTagIds: [EntityID] = []

    /// Interned texts: comments and former tag names (they repeat).
    var strings: [String] = []
    var stringNumbers: [String: Int32] = [:]

    // The undo and redo stacks: entries over ranges of one array of compact inverses.
    var inverses: [Inverse] = []
    /// Inverses that are rare and carry whole values (of re-imports and un-imports), by ``Inverse/number``.
    var rareInverses: [DomainEvent] = []
    var undo: [StackEntry] = []
    var redo: [StackEntry] = []
    /// How many of ``inverses`` the stacks still use; the rest is garbage that compaction drops.
    var usedInverses = 0

    /// The fold after a log's first event (`log.created` at `seq` 1), sized for about `capacity` records;
    /// nil when the event is not one (``LogState/init(genesis:)`` says why).
    public init?(genesis event: RecordedEvent, capacity: Int) {
        guard event.seq == 1, case .logCreated(let settings)? = try? DomainEvent(event) else { return nil }
        self.settings = settings
        lastSeq = 1
        lastAt = event.at
        batch = LogState.OpenBatch(start: 1, at: event.at, target: .none, grouped: event.tx != nil)
        // A capacity from a damaged log's last seq can be absurd: never more than a table sizes for up front.
        let capacity = min(max(0, capacity), RecordNumbers.largestReservation)
        numbers = RecordNumbers(capacity: capacity)
        ids.reserveCapacity(capacity)
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        tagNumbers.reserveCapacity(capacity)
        comments.reserveCapacity(capacity)
        statuses.reserveCapacity(capacity)
    }

    /// How many records are live.
    public private(set) var liveCount = 0

    /// Applies the next event of the log (from a store or a log reader, as ``LogState/apply(_:)``).
    ///
    /// - Returns: false when ``LogState/apply(_:)`` would refuse the event (or this fold cannot apply it);
    ///   the fold must then be dropped.
    public mutating func apply(_ event: RecordedEvent) -> Bool {
        guard let domain = try? DomainEvent(event) else { return false }
        let startsBatch = event.batchStart == event.seq
        let target: LogState.OpenBatch.Target
        switch domain {
        case .logCreated:
            return ignoreAfterGap(domain, event, target: nil)
        case .commandUndone(let tx):
            guard startsBatch, undo.last?.batchStart == tx else { return ignoreAfterGap(domain, event, target: nil) }
            target = .redo
        case .commandRedone(let tx):
            guard startsBatch, redo.last?.batchStart == tx else { return ignoreAfterGap(domain, event, target: nil) }
            target = .undo
        case .logRepaired(_, _, _, _?):
            // As the reference: a repair that names a resume point is a batch of its own.
            guard startsBatch, event.tx == nil else { return ignoreAfterGap(domain, event, target: nil) }
            target = .none
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            target = startsBatch ? .none : batch.target
        default:
            target = startsBatch ? .undo : batch.target
        }
        var first = Inverse.nothing
        var second = Inverse.nothing
        guard mutate(domain, inverse: &first, then: &second) else {
            return ignoreAfterGap(domain, event, target: target)
        }
        if case .logRepaired(_, _, _, _?) = domain {
            // As the reference: undo never reaches across the gap.
            resumedAfterRepair = event.seq
            undo.removeAll()
            redo.removeAll()
            inverses.removeAll()
            rareInverses.removeAll()
            usedInverses = 0
        }
        if startsBatch { openBatch(domain, target: target, seq: event.seq, at: event.at, grouped: event.tx != nil) }
        if batch.target != .none {
            // Stored last to first (as UndoEntry does): the event's inverses go in reverse order.
            if second.kind != .nothing { inverses.append(second) }
            if first.kind != .nothing { inverses.append(first) }
            let added = (first.kind != .nothing ? 1 : 0) + (second.kind != .nothing ? 1 : 0)
            usedInverses += added
            if batch.target == .undo {
                undo[undo.count - 1].end = inverses.count
            } else {
                redo[redo.count - 1].end = inverses.count
            }
        }
        lastSeq = event.seq
        lastAt = event.at
        return true
    }

    /// After a repair's gap, moves past an event that does not fit, as ``LogState``'s fold does (a batch it
    /// starts opens as its first event would open it, with `target`, unless it is a batch of its own or that
    /// is nil: then it moves neither stack); returns true. Before any gap, returns false: the event is damage.
    private mutating func ignoreAfterGap(
        _ domain: DomainEvent, _ event: RecordedEvent, target: LogState.OpenBatch.Target?
    ) -> Bool {
        guard resumedAfterRepair != nil else { return false }
        ignoredAfterGap.append(event.seq)
        if event.batchStart == event.seq {
            if event.tx != nil, let target {
                openBatch(domain, target: target, seq: event.seq, at: event.at, grouped: true)
            } else {
                batch = LogState.OpenBatch(start: event.seq, at: event.at, target: .none, grouped: event.tx != nil)
            }
        }
        lastSeq = event.seq
        lastAt = event.at
        return true
    }

    /// Checks that `event` fits and changes the state; sets the inverses (`inverse` first); false before any
    /// change when it does not fit.
    private mutating func mutate(_ event: DomainEvent, inverse: inout Inverse, then: inout Inverse) -> Bool {
        switch event {
        case .logCreated, .commandUndone, .commandRedone, .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            return true
        case .tagCreated(let id, let name, let color):
            let existing = tagNumbersByID[id].map { tags[Int($0)] }
            guard TagRules.create(existing, nameTaken: !nameIsFree(name, for: id)) == .apply else { return false }
            let number = Int32(tags.count)
            tags.append(Tag(id: id, name: name, color: color))
            tagNumbersByID[id] = number
            inverse = Inverse(.tagDeleted, number)
        case .tagRenamed(let id, let name):
            guard let number = tagNumbersByID[id],
                TagRules.rename(tags[Int(number)], nameTaken: !nameIsFree(name, for: id)) == .apply
            else { return false }
            inverse = Inverse(.tagRenamed, number, comment: intern(tags[Int(number)].name))
            tags[Int(number)].name = name
        case .tagArchived(let id):
            guard let number = tagNumbersByID[id], TagRules.archive(tags[Int(number)]) == .apply else { return false }
            inverse = Inverse(.tagUnarchived, number)
            tags[Int(number)].isArchived = true
        case .tagUnarchived(let id):
            guard let number = tagNumbersByID[id], TagRules.unarchive(tags[Int(number)]) == .apply else {
                return false
            }
            inverse = Inverse(.tagArchived, number)
            tags[Int(number)].isArchived = false
        case .tagDeleted(let id):
            guard let number = tagNumbersByID[id], TagRules.delete(tags[Int(number)]) == .apply else { return false }
            inverse = Inverse(.tagRestored, number)
            tags[Int(number)].isDeleted = true
        case .tagRestored(let id):
            guard let number = tagNumbersByID[id],
                TagRules.restore(tags[Int(number)], nameTaken: !nameIsFree(tags[Int(number)].name, for: id)) == .apply
            else { return false }
            inverse = Inverse(.tagDeleted, number)
            tags[Int(number)].isDeleted = false
        case .timerStarted(let id, let start, let tagId, let comment):
            guard let number = insert(id, start, nil, tagId, comment, new: true, deletedTag: false) else {
                return false
            }
            inverse = Inverse(.recordDeleted, number)
            noteUse(of: tagId)
        case .recordTracked(let id, let start, let end, let tagId, let comment):
            guard let number = insert(id, start, end, tagId, comment, new: true, deletedTag: true) else {
                return false
            }
            inverse = Inverse(.recordDeleted, number)
            noteUse(of: tagId)
        case .timerStopped(let id, let end):
            // Any violation is `false`: the caller falls back to the reference fold, which says why.
            let number = numbers.find(id, in: ids)
            guard RecordRules.stop(presence(number), end: end) == .apply, let number else { return false }
            inverse = values(of: number, as: .recordEdited, fields: .end)
            replace(
                number, start: starts[Int(number)], end: end.milliseconds, tag: tagNumbers[Int(number)],
                comment: comments[Int(number)])
        case .recordEdited(let record, let fields):
            let number = numbers.find(record.id, in: ids)
            let tag = tag(record.tagId)
            guard
                RecordRules.edit(presence(number), start: record.start, end: record.end, tag: tag.presence) == .apply,
                let number
            else { return false }
            inverse = values(of: number, as: .recordEdited, fields: fields)
            replace(number, record, tag: tag.number)
        case .timerCanceled(let id):
            let number = numbers.find(id, in: ids)
            guard RecordRules.cancel(presence(number)) == .apply, let number else { return false }
            inverse = values(of: number, as: .recordRestored)
            remove(number, to: .deleted)
        case .recordDeleted(let id):
            let number = numbers.find(id, in: ids)
            guard RecordRules.delete(presence(number)) == .apply, let number else { return false }
            inverse = values(of: number, as: .recordRestored)
            remove(number, to: .deleted)
        case .recordRestored(let record):
            guard
                let number = insert(
                    record.id, record.start, record.end, record.tagId, record.comment, new: false, deletedTag: true)
            else { return false }
            inverse = Inverse(.recordDeleted, number)
        case .recordImported(let record, let source):
            guard
                let number = insert(
                    record.id, record.start, record.end, record.tagId, record.comment, new: true, deletedTag: true)
            else { return false }
            inverse = Inverse(.recordUnimported, number)
            provenance[number] = provenance(record, source)
            noteUse(of: record.tagId)
        case .recordReimported(let record, let source):
            let number = numbers.find(record.id, in: ids)
            let tag = tag(record.tagId)
            guard
                RecordRules.reimport(
                    presence(number), imported: imported(number), start: record.start, end: record.end,
                    tag: tag.presence) == .apply, let number
            else { return false }
            importInverse(of: number, removing: false, into: &inverse, then: &then)
            replace(number, record, tag: tag.number)
            provenance[number] = provenance(record, source)
        case .recordUnimported(let id):
            let number = numbers.find(id, in: ids)
            guard RecordRules.unimport(presence(number), imported: imported(number)) == .apply, let number else {
                return false
            }
            importInverse(of: number, removing: true, into: &inverse, then: &then)
            remove(number, to: .absent)
            provenance[number] = nil
        }
        return true
    }

    // MARK: - Tags

    /// Whether no other tag that is not deleted has `name` (the reference's `checkNameFree`; names of tags
    /// that are not deleted are unique, so the first match is the only one).
    private func nameIsFree(_ name: String, for id: EntityID) -> Bool {
        let key = InputLimits.nameKey(name)
        return !tags.contains { !$0.isDeleted && $0.id != id && InputLimits.nameKey($0.name) == key }
    }

    private mutating func noteUse(of tagId: EntityID?) {
        // The tag used last is the usual case: already in front, nothing moves.
        if let tagId, recentTagIds.first == tagId { return }
        LogState.noteUse(of: tagId, in: &recentTagIds)
    }

    private mutating func intern(_ text: String) -> Int32 {
        if let number = stringNumbers[text] { return number }
        let number = Int32(strings.count)
        strings.append(text)
        stringNumbers[text] = number
        return number
    }

    // MARK: - Records

    /// What the fold knows of the record numbered `number` (nil: no record has the id), for ``RecordRules``.
    private func presence(_ number: Int32?) -> RecordPresence {
        guard let number else { return .unknown }
        switch statuses[Int(number)] {
        case .live:
            return .live(start: Instant(milliseconds: starts[Int(number)]), running: ends[Int(number)] == Self.noEnd)
        case .deleted: return .deleted
        default: return .unknown
        }
    }

    /// Whether the record numbered `number` was imported (and not withdrawn since), for ``RecordRules``.
    private func imported(_ number: Int32?) -> Bool {
        number.map { provenance[$0] != nil } ?? false
    }

    /// What the rules need to know of tag `tagId` (nil: none given), and its number (``none`` when there is none).
    private func tag(_ tagId: EntityID?) -> (presence: TagPresence?, number: Int32) {
        guard let tagId else { return (nil, Self.none) }
        guard let number = tagNumbersByID[tagId] else { return (.unknown, Self.none) }
        return (tags[Int(number)].isDeleted ? .deleted : .live, number)
    }

    /// Adds a record (the reference's `insert`) when ``RecordRules`` allows it: a new one (`new`; `deletedTag`
    /// allows a deleted tag), or a deleted one restored. Its number, or nil when a rule refuses it.
    private mutating func insert(
        _ id: EntityID, _ start: Instant, _ end: Instant?, _ tagId: EntityID?, _ comment: String?, new: Bool,
        deletedTag: Bool
    ) -> Int32? {
        let existing = numbers.find(id, in: ids)
        let tag = tag(tagId)
        let verdict =
            new
            ? RecordRules.create(
                presence(existing), start: start, end: end, tag: tag.presence, allowsDeletedTag: deletedTag)
            : RecordRules.restore(presence(existing), start: start, end: end, tag: tag.presence)
        guard verdict == .apply else { return nil }
        let text = comment.map { intern($0) } ?? Self.none
        let number: Int32
        if let existing {
            number = existing
            starts[Int(number)] = start.milliseconds
            ends[Int(number)] = end?.milliseconds ?? Self.noEnd
            tagNumbers[Int(number)] = tag.number
            comments[Int(number)] = text
            statuses[Int(number)] = .live
        } else {
            number = Int32(ids.count)
            ids.append(id)
            starts.append(start.milliseconds)
            ends.append(end?.milliseconds ?? Self.noEnd)
            tagNumbers.append(tag.number)
            comments.append(text)
            statuses.append(.live)
            numbers.insert(id, number: number, in: ids)
        }
        liveCount += 1
        if end == nil { insertRunning(number) }
        return number
    }

    private mutating func replace(_ number: Int32, _ record: Record, tag: Int32) {
        replace(
            number, start: record.start.milliseconds, end: record.end?.milliseconds ?? Self.noEnd, tag: tag,
            comment: record.comment.map { intern($0) } ?? Self.none)
    }

    private mutating func replace(_ number: Int32, start: Int64, end: Int64, tag: Int32, comment: Int32) {
        let index = Int(number)
        if ends[index] == Self.noEnd { running.removeAll { $0 == number } }
        starts[index] = start
        ends[index] = end
        tagNumbers[index] = tag
        comments[index] = comment
        if end == Self.noEnd { insertRunning(number) }
    }

    private mutating func remove(_ number: Int32, to status: Status) {
        if ends[Int(number)] == Self.noEnd { running.removeAll { $0 == number } }
        statuses[Int(number)] = status
        liveCount -= 1
    }

    private mutating func insertRunning(_ number: Int32) {
        let key = (starts[Int(number)], ids[Int(number)])
        let index = running.firstIndex { key < (starts[Int($0)], ids[Int($0)]) }
        running.insert(number, at: index ?? running.endIndex)
    }

    /// The values of live record `number` as a ``Record``.
    func record(_ number: Int32) -> Record {
        let index = Int(number)
        let end = ends[index]
        let tag = tagNumbers[index]
        let comment = comments[index]
        return Record(
            id: ids[index], start: Instant(milliseconds: starts[index]),
            end: end == Self.noEnd ? nil : Instant(milliseconds: end), tagId: tag < 0 ? nil : tags[Int(tag)].id,
            comment: comment < 0 ? nil : strings[Int(comment)])
    }

    /// The reference's `provenance(_:_:)`: with the tag's current name.
    private func provenance(_ record: Record, _ source: ImportSource) -> ImportProvenance {
        ImportProvenance(
            source: source, values: record,
            tagName: record.tagId.flatMap { tagNumbersByID[$0] }.map { tags[Int($0)].name })
    }
}
