/// The fold of a space's merged history (decision 0007 §7): applies every event that decodes, in every
/// state, by the rules of §8, and lists what the rules resolved as ``Conflict``s.
///
/// Feed it the events of every device in merge order (``MergeOrder/merge(_:key:)`` by (hlc, device, seq)):
/// ``init(genesis:)`` with the first (the founder's `log.created`), then ``apply(_:)`` for each other. The
/// result is a function of the merged order alone, so every replica that holds the same events computes
/// the same ``state`` and ``conflicts``.
///
/// Only an event that does not decode, a `log.created` after the first, and an undo or redo marker that does
/// not name the top of its device's stack are damage (thrown, the fold unchanged). Everything else applies:
/// a stop of a stopped record is a no-op (rule 1), an edit sets only its `fields` with the last writer in
/// merge order winning per field (rules 3, 4), delete wins (rule 5), tag names and colours are last writer
/// wins and may be shared (rules 6–8). Undo stacks are per device (rule 11): ``state(for:)`` is the state a
/// device decides on. Events without a device (log format 1) belong to one implicit device (`nil`).
///
/// ```swift
/// let merged = try MergeOrder.merge(logs, key: { MergeKey(hlc: $0.hlc!, device: $0.device!, seq: $0.seq) })
/// let fold = try MergedFold.fold(merged)   // fold.state, fold.conflicts
/// ```
public struct MergedFold: Sendable {
    /// The merged state but for its records: tags, settings, running ids, import provenance and position as
    /// the rules leave them. The records are in ``records``; ``state`` joins the two.
    var base: LogState
    /// The records, live and deleted, and each one's stamps.
    var records = RecordTable()
    /// Whether ``base`` also holds the records by id, kept as the fold goes (``keepRecordsByID()``), so that
    /// ``state`` costs nothing: for readers that look at the state after every event.
    var keepsRecordsByID = false
    /// What the rules resolved, in merge order.
    public internal(set) var conflicts: [Conflict] = []

    /// Per device, per other device, the last `seq` of it the device had ingested (its `sync.ingested`).
    var knowledge: [DeviceID?: [DeviceID: Int64]] = [:]
    /// The devices of the events folded, in the order they first appeared (``Stamp/device`` indexes it).
    var devices: [DeviceID?] = []
    var deviceIndex: [DeviceID?: Int] = [:]
    /// The event being folded.
    var current: Stamp
    /// Per deleted record, the event that deleted it.
    var deletedBy: [EntityID: EventRef] = [:]
    /// Per tag, the event that created it, the event that set its name (and whether a rename did), and the
    /// event that set its colour.
    var tagCreatedBy: [EntityID: EventRef] = [:]
    var tagNamedBy: [EntityID: (ref: EventRef, renamed: Bool)] = [:]
    var tagColoredBy: [EntityID: EventRef] = [:]
    /// Each device's undo and redo stacks, by the device's index in ``devices`` (nil before its first command):
    /// found at every batch and every event that has an inverse, without hashing the device.
    var stacks: [Stacks?] = []
    /// The indices of the devices whose stacks this fold does not hold: a frame read without them
    /// (``init(frameApart:)``) until ``restoreStacks(of:from:)`` puts each back. Empty for every other fold.
    var stacksNotAtHand: Set<Int> = []
    /// The batch the last event belongs to.
    var batch: Batch
    /// How many events have been folded (the position of the last one).
    var position: Int64 = 1
    /// How many events have been folded.
    public var eventCount: Int64 { position }
    /// The `at` of the last event folded.
    public var lastAt: Instant { base.lastAt }

    /// Whether a record is live, deleted, or neither (only its stamps are left: an unimported record).
    package enum RecordStatus: UInt8, Sendable { case live, deleted, absent }

    /// A device's stacks; each entry with the position of its batch's first event.
    struct Stacks: Sendable {
        var undo = Stack(limit: LogState.undoLimit)
        var redo = Stack(limit: LogState.undoLimit)

        typealias Stack = BoundedStack<(entry: UndoEntry, position: Int64)>
    }

    /// The open batch: its device and first event, where its inverses go, the entry it undoes (for rule 11)
    /// and whether it stopped a timer (for rule 2).
    struct Batch: Sendable {
        var device: DeviceID?
        /// The device's index in ``MergedFold/devices``.
        var deviceIndex: Int
        var start: EventRef
        var target: LogState.OpenBatch.Target
        var undone: Int64?
        var stopped = false
    }

    /// The fold after the first event of the merged history, which must be `log.created` at `seq` 1, with
    /// its tables sized for a history of about `expectedEvents` events (about a record for every two: growing
    /// a table of half a million records rehashes every id of it again and again).
    ///
    /// - Throws: ``DomainError`` (damaged) as ``LogState/init(genesis:)``.
    public init(genesis event: RecordedEvent, expectedEvents: Int64 = 0) throws(DomainError) {
        base = try LogState(genesis: event)
        // An estimate from file names (the table trusts it up to a few million records: a damaged or crafted
        // name must not reserve gigabytes). Records outlive deletions (0.55 per event in the 1M bench history):
        // sized higher, since what is reserved and unused there is only address space.
        records.reserveCapacity(Int(clamping: expectedEvents) / 5 * 3)
        let ref = EventRef(device: event.device, seq: event.seq, position: 1)
        batch = Batch(device: event.device, deviceIndex: 0, start: ref, target: .none)
        current = Stamp(device: 0, seq: event.seq, position: 1)
        devices = [event.device]
        deviceIndex = [event.device: 0]
    }

    /// Folds a whole merged history: its first event, then the others in order.
    ///
    /// - Throws: ``DomainError`` (damaged) for an empty history or the first event that is damage.
    public static func fold(_ events: some Sequence<RecordedEvent>) throws(DomainError) -> MergedFold {
        var iterator = events.makeIterator()
        guard let first = iterator.next() else {
            throw DomainError(.inconsistentEvent, "the history has no events; it must begin with log.created")
        }
        var fold = try MergedFold(genesis: first)
        while let event = iterator.next() { try fold.apply(event) }
        return fold
    }

    /// Folds `event` into `fold`: the first event of the history starts it (``init(genesis:)``), every other
    /// is applied (``apply(_:)``). For folds that read a history one event at a time;
    /// `expectedEvents` sizes a fold it starts (``init(genesis:expectedEvents:)``).
    public static func fold(_ event: borrowing RecordedEvent, into fold: inout MergedFold?, expectedEvents: Int64 = 0)
        throws(DomainError)
    {
        if fold == nil {
            fold = try MergedFold(genesis: copy event, expectedEvents: expectedEvents)
        } else {
            try fold!.apply(event)
        }
    }

    /// Folds the events of one batch that `including` selects by `seq` into `fold`, each as
    /// ``fold(_:into:expectedEvents:)`` folds it. The number folded and the index of the last of them.
    ///
    /// Each event is still copied for the call (a dozen reference counts, on memory the read-ahead threads
    /// wrote: about a tenth of the fold's thread); neither a borrowing parameter nor a pointer into the
    /// array avoided it.
    ///
    /// - Throws: ``DomainError`` (damaged) as ``apply(_:)``; the events before the one that threw stay folded.
    public static func fold(
        batch events: [RecordedEvent], into fold: inout MergedFold?, expectedEvents: Int64 = 0,
        including: (Int64) -> Bool = { _ in true }
    ) throws(DomainError) -> (count: Int, last: Int?) {
        var folded: (count: Int, last: Int?) = (0, nil)
        for index in events.indices where including(events[index].seq) {
            try Self.fold(events[index], into: &fold, expectedEvents: expectedEvents)
            folded = (folded.count + 1, index)
        }
        return folded
    }

    /// The merged state: records, tags and settings as the rules leave them. Its undo and redo stacks are
    /// empty; each device's are in ``state(for:)``.
    ///
    /// Built from the record table (every live record into a dictionary: a fifth of a second at a million
    /// events) unless the fold keeps its records by id (``keepRecordsByID()``).
    public var state: LogState {
        guard !keepsRecordsByID else { return base }
        var state = base
        state.records = records.recordsByID
        state.deletedRecordIds = records.deletedIDs
        return state
    }

    /// The log's calendar.
    public var calendar: LogCalendar { base.calendar }

    /// What ``state``'s ``LogState/projectionSource(from:)`` is, with tags that share a name shown as
    /// ``LogState/withDisplayNames()`` shows them, taken from the record table without building the state's
    /// records.
    public func projectionSource(from horizon: Instant) -> ProjectionSource {
        ProjectionSource(
            calendar: base.calendar, tags: base.withDisplayNames().tags,
            records: records.records(runningOrFrom: horizon), recentTagIds: base.recentTagIds)
    }

    /// Keeps the records by id in the state as the fold goes on, so that ``state`` is at hand after every
    /// event; for readers that look at it often (a walk of the history, an import). The first call builds
    /// them.
    public mutating func keepRecordsByID() {
        guard !keepsRecordsByID else { return }
        base = state
        keepsRecordsByID = true
    }

    /// The state `device` decides on: ``state`` with that device's undo and redo stacks (rule 11; `nil` for
    /// the implicit device of events without one).
    public func state(for device: DeviceID?) -> LogState {
        withStacks(of: device, state)
    }

    /// `state` with `device`'s undo and redo stacks.
    func withStacks(of device: DeviceID?, _ state: LogState) -> LogState {
        var result = state
        let own = stacks(of: device)
        result.undoStack = own?.undo.map { keepingOthers($0.entry, after: $0.position, device) } ?? []
        result.redoStack = own?.redo.map { keepingOthers($0.entry, after: $0.position, device) } ?? []
        return result
    }

    /// `entry` without what would revert another device's later change (rule 11): each record edit it holds
    /// sets only the fields no other device set after the batch at `position`; an edit left with none is
    /// dropped.
    func keepingOthers(_ entry: UndoEntry, after position: Int64, _ device: DeviceID?) -> UndoEntry {
        var entry = entry
        entry.inverses = entry.inverses.compactMap { inverse in
            guard case .recordEdited(let record, let fields) = inverse,
                let setters = records[stampsOf: record.id]?.setters
            else {
                return inverse
            }
            var kept = fields
            for (field, _) in RecordFields.named where fields.contains(field) {
                let setter = setters[field]
                if devices[setter.device] != device && setter.position > position { kept.remove(field) }
            }
            return kept.isEmpty ? nil : .recordEdited(record, fields: kept)
        }
        return entry
    }

    /// The conflicts `stint conflicts` lists: all of them with `all`, else those that are not minor.
    public func conflicts(all: Bool) -> [Conflict] {
        all ? conflicts : conflicts.filter { !$0.isMinor }
    }

    /// Applies the next event of the merged history.
    ///
    /// - Throws: ``DomainError`` (damaged, carrying the event's `seq`) for an event that does not decode, a
    ///   second `log.created`, or an undo or redo marker that is not first in its batch or does not name the
    ///   top of its device's stack; the fold is then unchanged.
    public mutating func apply(_ event: borrowing RecordedEvent) throws(DomainError) {
        let (domain, ref, stamp) = try checked(event)
        if event.batchStart == event.seq { openBatch(domain, ref, deviceIndex: stamp.device) }
        position += 1
        register(event.device, as: stamp)
        current = stamp
        let inverses = mutate(domain, ref)
        if !inverses.isEmpty {
            switch batch.target {
            case .none: break
            case .undo:
                stacks[batch.deviceIndex]!.undo.updateLast { $0.entry.prepend(inverses) }
            case .redo:
                stacks[batch.deviceIndex]!.redo.updateLast { $0.entry.prepend(inverses) }
            }
        }
        base.lastSeq = event.seq
        base.lastAt = event.at
    }

    /// Whether `events`, a batch of one device that comes next in the merged order, would apply: throws what
    /// ``apply(_:)`` would throw for the first of them it refuses, without changing the fold. False when it
    /// cannot tell without applying them (a second event that starts a batch: the first one's changes to
    /// the stacks would decide whether it applies).
    ///
    /// A command on a replica checks its batch this way before appending it and applies it to the fold
    /// after: a copy of the fold to apply it to was two copies of every record at a million events.
    public func check(batch events: [RecordedEvent]) throws(DomainError) -> Bool {
        for index in events.indices {
            if index > 0 && events[index].batchStart == events[index].seq { return false }
            _ = try checked(events[index])
        }
        return true
    }

    /// The decoded event, its reference and its stamp, when ``apply(_:)`` would apply `event` next;
    /// throws what it would throw otherwise. Changes nothing.
    private func checked(_ event: borrowing RecordedEvent) throws(DomainError) -> (DomainEvent, EventRef, Stamp) {
        let domain = try DomainEvent(event)
        let ref = EventRef(device: event.device, seq: event.seq, position: position + 1)
        let stamp = try stamp(ref)
        if event.batchStart == event.seq {
            try checkBatchStart(domain, ref, deviceIndex: stamp.device)
        } else if case .logCreated = domain {
            throw DomainError(.inconsistentEvent, "log.created may only be the first event", seq: event.seq)
        } else if domain.isUndoMarker {
            throw DomainError(.inconsistentEvent, "\(event.type) must be the first event of its batch", seq: event.seq)
        }
        return (domain, ref, stamp)
    }

    /// Throws when `first` cannot start a batch: a `log.created`, or an undo or redo marker that does not name
    /// the top of its device's stack.
    private func checkBatchStart(_ first: DomainEvent, _ ref: EventRef, deviceIndex device: Int) throws(DomainError) {
        guard !stacksNotAtHand.contains(device) else {
            throw DomainError(
                .invalidCheckpoint,
                "the fold in parts lacks the undo stacks of device \(devices[device].map { "\($0)" } ?? "none")",
                seq: ref.seq)
        }
        let own = device < stacks.count ? stacks[device] : nil
        switch first {
        case .logCreated:
            throw DomainError(.inconsistentEvent, "log.created may only be the first event", seq: ref.seq)
        case .commandUndone(let tx):
            guard let top = own?.undo.last, top.entry.batchStart == tx else {
                throw DomainError(
                    .inconsistentEvent,
                    "command.undone names batch \(tx), but the batch its device can undo is "
                        + (own?.undo.last.map { "\($0.entry.batchStart)" } ?? "none"), seq: ref.seq)
            }
        case .commandRedone(let tx):
            guard let top = own?.redo.last, top.entry.batchStart == tx else {
                throw DomainError(
                    .inconsistentEvent,
                    "command.redone names batch \(tx), but the batch its device can redo is "
                        + (own?.redo.last.map { "\($0.entry.batchStart)" } ?? "none"), seq: ref.seq)
            }
        default:
            break
        }
    }

    /// Starts a batch with its first event, which ``checkBatchStart(_:_:deviceIndex:)`` accepted: moves its
    /// device's stacks (a bookkeeping batch moves none).
    private mutating func openBatch(_ first: DomainEvent, _ ref: EventRef, deviceIndex device: Int) {
        var next = Batch(device: ref.device, deviceIndex: device, start: ref, target: .undo)
        // A device's first event: its index is the next one (``register(_:as:)`` adds it once the event applies).
        while stacks.count <= device { stacks.append(nil) }
        // The stacks are changed in place: a copy taken out of the array would copy both at every batch.
        switch first {
        case .commandUndone:
            let undone = stacks[device]!.undo.last!.position
            stacks[device]!.undo.removeLast()
            stacks[device]!.redo.push((UndoEntry(batchStart: ref.seq, inverses: []), ref.position))
            next.target = .redo
            next.undone = undone
        case .commandRedone:
            stacks[device]!.redo.removeLast()
            stacks[device]!.undo.push((UndoEntry(batchStart: ref.seq, inverses: []), ref.position))
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            next.target = .none
        default:
            if stacks[device] == nil { stacks[device] = Stacks() }
            stacks[device]!.redo.removeAll()
            stacks[device]!.undo.push((UndoEntry(batchStart: ref.seq, inverses: []), ref.position))
        }
        batch = next
    }

    /// The undo and redo stacks of `device`, when it has any.
    func stacks(of device: DeviceID?) -> Stacks? {
        guard let index = deviceIndex[device], index < stacks.count else { return nil }
        assert(!stacksNotAtHand.contains(index), "the stacks of \(String(describing: device)) are not at hand")
        return stacks[index]
    }

    /// Whether `device` had seen `event` when it wrote: its own events, and another device's up to the `upTo`
    /// of its latest `sync.ingested` of that device. Two events are concurrent when the later one's device
    /// had not seen the earlier one.
    func knew(_ device: DeviceID?, _ event: EventRef) -> Bool {
        if event.device == device { return true }
        guard let other = event.device else { return false }
        return (knowledge[device]?[other] ?? 0) >= event.seq
    }

    /// Whether the device of the event being folded had seen `event` (``knew(_:_:)``).
    func currentKnew(_ event: Stamp) -> Bool {
        event.device == current.device || knew(devices[current.device], eventRef(event))
    }

    mutating func list(_ rule: Int, _ subject: Conflict.Subject, _ detail: Conflict.Detail, minor: Bool = false) {
        conflicts.append(Conflict(rule: rule, subject: subject, detail: detail, isMinor: minor))
    }

    /// Applies `event` by the rules; the events that revert what it did (none when it was a no-op).
    private mutating func mutate(_ event: DomainEvent, _ ref: EventRef) -> [DomainEvent] {
        switch event {
        case .logCreated, .commandUndone, .commandRedone, .deviceJoined:
            return []
        case .deviceForked(let from, let upTo, _), .syncIngested(let from, let upTo, _):
            knowledge[ref.device, default: [:]][from] = max(knowledge[ref.device]?[from] ?? 0, upTo)
            return []
        case .tagCreated, .tagRenamed, .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored:
            return mutateTag(event, ref)
        default:
            return mutateRecord(event, ref)
        }
    }
}

extension DomainEvent {
    var isUndoMarker: Bool {
        switch self {
        case .commandUndone, .commandRedone: return true
        default: return false
        }
    }
}
