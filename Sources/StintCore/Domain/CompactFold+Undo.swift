/// The undo and redo stacks of ``CompactFold``: inverses as numbers and column values, turned into
/// ``DomainEvent``s only for the entries left at the end.
extension CompactFold {
    /// One compensating event, in a form that needs no allocation: what it does, the record or tag it names
    /// (or, for ``Kind/rare``, an index into ``rareInverses``), and the record values it restores.
    struct Inverse: Sendable {
        enum Kind: UInt8, Sendable {
            case nothing
            case tagDeleted, tagRenamed, tagArchived, tagUnarchived, tagRestored
            case recordDeleted, recordEdited, recordRestored, recordUnimported
            /// A ``DomainEvent`` kept whole in ``rareInverses``.
            case rare
        }

        var kind: Kind
        var number: Int32
        /// The restored record's tag number (``CompactFold/none`` when untagged), or unused.
        var tag: Int32 = CompactFold.none
        /// The restored record's comment, or a tag's former name: an index into ``strings``.
        var comment: Int32 = CompactFold.none
        var start: Int64 = 0
        var end: Int64 = CompactFold.noEnd
        /// The members a restored `record.edited` sets (``RecordFields/rawValue``).
        var fields: UInt8 = RecordFields.all.rawValue

        init(_ kind: Kind, _ number: Int32, comment: Int32 = CompactFold.none) {
            self.kind = kind
            self.number = number
            self.comment = comment
        }

        static let nothing = Inverse(.nothing, CompactFold.none)
    }

    /// An entry of the undo or redo stack: its batch and its inverses, `inverses[begin..<end]` from last to
    /// first.
    struct StackEntry: Sendable {
        var batchStart: Int64
        var begin: Int
        var end: Int
    }

    /// The inverse that gives live record `number` its current values back (for `record.edited`, setting
    /// `fields`).
    func values(of number: Int32, as kind: Inverse.Kind, fields: RecordFields = .all) -> Inverse {
        var inverse = Inverse(kind, number, comment: comments[Int(number)])
        inverse.fields = fields.rawValue
        inverse.tag = tagNumbers[Int(number)]
        inverse.start = starts[Int(number)]
        inverse.end = ends[Int(number)]
        return inverse
    }

    /// The reference's `importInverse(of:removing:)`, kept whole (imports are rare and carry strings).
    mutating func importInverse(of number: Int32, removing: Bool, into first: inout Inverse, then: inout Inverse) {
        let record = record(number)
        let provenance = provenance[number]!
        first = rare(
            removing
                ? .recordImported(provenance.values, source: provenance.source)
                : .recordReimported(provenance.values, source: provenance.source))
        if record != provenance.values {
            then = rare(.recordEdited(record, fields: RecordFields(changedFrom: provenance.values, to: record)))
        }
    }

    private mutating func rare(_ event: DomainEvent) -> Inverse {
        rareInverses.append(event)
        return Inverse(.rare, Int32(rareInverses.count - 1))
    }

    /// Starts a batch: moves the stacks as the batch's first event says (the reference's `openBatch`).
    mutating func openBatch(
        _ first: DomainEvent, target: LogState.OpenBatch.Target, seq: Int64, at: Instant, grouped: Bool
    ) {
        switch first {
        case .commandUndone:
            drop(undo.removeLast())
            push(seq, on: .redo)
        case .commandRedone:
            drop(redo.removeLast())
            push(seq, on: .undo)
        case .deviceJoined, .deviceForked, .syncIngested, .logRepaired:
            break
        default:
            for entry in redo { drop(entry) }
            redo.removeAll(keepingCapacity: true)
            push(seq, on: .undo)
        }
        batch = LogState.OpenBatch(start: seq, at: at, target: target, grouped: grouped)
        if inverses.count > 4096 && inverses.count > 4 * usedInverses { compactInverses() }
    }

    private mutating func push(_ seq: Int64, on stack: LogState.OpenBatch.Target) {
        let entry = StackEntry(batchStart: seq, begin: inverses.count, end: inverses.count)
        if stack == .undo {
            undo.append(entry)
            if undo.count > LogState.undoLimit { drop(undo.removeFirst()) }
        } else {
            redo.append(entry)
            if redo.count > LogState.undoLimit { drop(redo.removeFirst()) }
        }
    }

    private mutating func drop(_ entry: StackEntry) {
        usedInverses -= entry.end - entry.begin
    }

    /// Keeps only the inverses the stacks use (and the rare events they name), in stack order.
    private mutating func compactInverses() {
        var kept: [Inverse] = []
        kept.reserveCapacity(max(usedInverses * 2, 1024))
        var keptRare: [DomainEvent] = []
        func move(_ stack: inout [StackEntry]) {
            for index in stack.indices {
                let begin = kept.count
                for var inverse in inverses[stack[index].begin..<stack[index].end] {
                    if inverse.kind == .rare {
                        keptRare.append(rareInverses[Int(inverse.number)])
                        inverse.number = Int32(keptRare.count - 1)
                    }
                    kept.append(inverse)
                }
                stack[index].begin = begin
                stack[index].end = kept.count
            }
        }
        move(&undo)
        move(&redo)
        inverses = kept
        rareInverses = keptRare
    }

    /// The stack entries with their inverses as events.
    func entries(_ stack: [StackEntry]) -> [UndoEntry] {
        stack.map { entry in
            UndoEntry(batchStart: entry.batchStart, inverses: inverses[entry.begin..<entry.end].reversed().map(event))
        }
    }

    /// The compensating event `inverse` stands for.
    func event(_ inverse: Inverse) -> DomainEvent {
        let number = inverse.number
        switch inverse.kind {
        case .nothing: fatalError("an empty inverse is never stored")
        case .rare: return rareInverses[Int(number)]
        case .tagDeleted: return .tagDeleted(tagId: tags[Int(number)].id)
        case .tagRenamed: return .tagRenamed(tagId: tags[Int(number)].id, name: strings[Int(inverse.comment)])
        case .tagArchived: return .tagArchived(tagId: tags[Int(number)].id)
        case .tagUnarchived: return .tagUnarchived(tagId: tags[Int(number)].id)
        case .tagRestored: return .tagRestored(tagId: tags[Int(number)].id)
        case .recordDeleted: return .recordDeleted(recordId: ids[Int(number)])
        case .recordUnimported: return .recordUnimported(recordId: ids[Int(number)])
        case .recordEdited, .recordRestored:
            let values = Record(
                id: ids[Int(number)], start: Instant(milliseconds: inverse.start),
                end: inverse.end == Self.noEnd ? nil : Instant(milliseconds: inverse.end),
                tagId: inverse.tag < 0 ? nil : tags[Int(inverse.tag)].id,
                comment: inverse.comment < 0 ? nil : strings[Int(inverse.comment)])
            return inverse.kind == .recordEdited
                ? .recordEdited(values, fields: RecordFields(rawValue: inverse.fields)) : .recordRestored(values)
        }
    }
}
