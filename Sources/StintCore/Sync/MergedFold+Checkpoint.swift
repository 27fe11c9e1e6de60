/// A compact binary form of the merged fold, for a replica's checkpoints (docs/log-format.md §7): a command
/// on a replica starts from the newest one that still holds instead of folding every device's events again.
///
/// Layout: `STMF`, u32 ``checkpointVersion``, the state as ``LogState/compactCheckpoint`` (length-prefixed),
/// then what only the merged fold keeps: the tags' name order, the devices, the position and the event being
/// folded, the open batch, what each device had ingested, each record's stamps (by id), the deletions, the
/// tags' creators, namers and colourers (by id), each device's undo and redo stacks, and the conflicts. It
/// is a cache: a checkpoint of another version is ignored and rebuilt, never migrated. The same fold always
/// gives the same bytes.
extension MergedFold {
    /// The version of this layout and of the merged fold's rules; bump it when either changes.
    public static let checkpointVersion = 1

    static let checkpointMagic: [UInt8] = Array("STMF".utf8)

    /// The fold in the checkpoint form: ``checkpointHead(stateSize:)``, the state's compact checkpoint
    /// (``stateCheckpoint(order:)``), then ``checkpointTail(order:)``, in one buffer. A replica's store
    /// streams the same bytes to its file a chunk at a time instead
    /// (``writeCheckpoint(order:size:chunk:into:)``).
    public var checkpoint: [UInt8] {
        let order = checkpointOrder
        let state = stateCheckpoint(order: order)
        return Self.checkpointHead(stateSize: state.count) + state + checkpointTail(order: order)
    }

    /// The order the state's part and the tail write the records in (by id), sorted once for both.
    public struct CheckpointOrder: Sendable {
        /// The record numbers in id order; nil for the numbers' own order, which gives the same size
        /// (``checkpointSize``) reading the table front to back.
        fileprivate let numbers: [Int32]?
    }

    /// The record numbers in id order, for ``stateCheckpoint(order:)`` and ``checkpointTail(order:)``.
    public var checkpointOrder: CheckpointOrder { CheckpointOrder(numbers: records.numbersInIdOrder()) }

    /// The sizes of ``checkpoint`` and of its state's part, counted without keeping either.
    public struct CheckpointSize: Equatable, Sendable {
        public var state: Int
        public var total: Int
    }

    /// The sizes of ``checkpoint`` and its state's part, for a store that must name them before the bytes (the
    /// checkpoint's header, the state's length prefix). Writes both parts into a small buffer that is thrown
    /// away as it fills, with the records in the table's order: their bytes are the same, only their order
    /// differs, and the table is read front to back instead of at random.
    public var checkpointSize: CheckpointSize {
        let order = CheckpointOrder(numbers: nil)
        var out = CompactCheckpointWriter(chunk: 1 << 16, consume: { _ in })
        writeState(order: order, to: &out)
        let state = out.count
        writeTail(order: order, to: &out)
        return CheckpointSize(state: state, total: Self.checkpointHead(stateSize: state).count + out.count)
    }

    /// Writes ``checkpoint``'s bytes to `consume` in chunks of about `chunk` bytes (more when one record
    /// is larger), given its ``checkpointSize``: a checkpoint of a million events (about 54 MB) is never
    /// held whole.
    public func writeCheckpoint(
        order: CheckpointOrder, size: CheckpointSize, chunk: Int, into consume: (UnsafeRawBufferPointer) -> Void
    ) {
        withoutActuallyEscaping(consume) { consume in
            var out = CompactCheckpointWriter(chunk: chunk, consume: consume)
            out.header(magic: Self.checkpointMagic, version: Self.checkpointVersion)
            out.u32(size.state)
            writeState(order: order, to: &out)
            writeTail(order: order, to: &out)
            out.finish()
        }
    }

    /// The compact checkpoint of ``state`` (the same bytes as ``LogState/compactCheckpoint``), written from the
    /// record table without building the state's records.
    func stateCheckpoint(order: CheckpointOrder) -> [UInt8] {
        var out = CompactCheckpointWriter(capacity: 64 + records.count * 48)
        writeState(order: order, to: &out)
        return out.bytes
    }

    /// Calls `body` with each record number in `order`.
    @inline(__always)
    private func forEach(in order: CheckpointOrder, _ body: (Int) -> Void) {
        if let numbers = order.numbers {
            for number in numbers { body(Int(number)) }
        } else {
            for number in 0..<records.count { body(number) }
        }
    }

    /// Calls `write` with what `read` reads of each record number in `order`, reading ``readAhead`` records
    /// before writing any: in id order the reads fall at random in the table, and reads made together overlap
    /// instead of waiting for each in turn (the encoding took a third less time).
    @inline(__always)
    private func forEach<Values>(
        in order: CheckpointOrder, reading read: (Int) -> Values, _ write: (Values) -> Void
    ) {
        var block: [Values] = []
        block.reserveCapacity(Self.readAhead)
        forEach(in: order) { number in
            block.append(read(number))
            guard block.count == Self.readAhead else { return }
            for values in block { write(values) }
            block.removeAll(keepingCapacity: true)
        }
        for values in block { write(values) }
    }

    private func writeState(order: CheckpointOrder, to out: inout CompactCheckpointWriter) {
        var deleted: [EntityID] = []
        forEach(in: order) { number in
            if records.statuses[number] == .deleted { deleted.append(records.ids[number]) }
        }
        let provenance: any Sequence<ImportProvenance> =
            order.numbers == nil ? base.importProvenance.values : LogState.inIdOrder(base.importProvenance)
        LogState.writeCompactCheckpoint(
            of: base, recordCount: records.liveCount,
            writingRecords: { out in
                forEach(in: order, reading: records.checkpointValues) { values in
                    guard values.isLive else { return }
                    out.record(
                        id: values.id, start: values.start, end: values.end, tagId: values.tagId,
                        comment: values.comment)
                    out.endOfItem()
                }
            },
            deletedRecordIds: deleted, provenanceCount: base.importProvenance.count, provenance: provenance,
            to: &out)
    }

    /// What ``checkpoint`` holds before the state's compact checkpoint of `stateSize` bytes.
    static func checkpointHead(stateSize: Int) -> [UInt8] {
        var out = CompactCheckpointWriter(capacity: 12)
        out.header(magic: checkpointMagic, version: checkpointVersion)
        out.u32(stateSize)
        return out.bytes
    }

    /// What ``checkpoint`` holds after the state's compact checkpoint.
    func checkpointTail(order: CheckpointOrder) -> [UInt8] {
        var out = CompactCheckpointWriter(capacity: 1024 + records.count * 40)
        writeTail(order: order, to: &out)
        return out.bytes
    }

    private func writeTail(order: CheckpointOrder, to out: inout CompactCheckpointWriter) {
        out.u32(base.tagNameOrder.count)
        for id in base.tagNameOrder.keys.sorted() {
            out.id(id)
            out.i64(base.tagNameOrder[id]!)
        }
        out.u32(devices.count)
        for device in devices { out.device(device) }
        out.i64(position)
        out.stamp(current)
        out.device(batch.device)
        out.ref(batch.start)
        out.u8(batch.target.code)
        out.u8(batch.undone == nil ? 0 : 1)
        out.i64(batch.undone ?? 0)
        out.u8(batch.stopped ? 1 : 0)
        out.u32(knowledge.count)
        for device in knowledge.keys.sorted(by: Self.deviceOrder) {
            let seen = knowledge[device]!
            out.device(device)
            out.u32(seen.count)
            for other in seen.keys.sorted() {
                out.device(other)
                out.i64(seen[other]!)
            }
        }
        out.u32(records.count)
        forEach(in: order, reading: { (records.ids[$0], records[stamps: $0]) }) { (id, stamps) in
            writeStamps(id: id, stamps, to: &out)
        }
        for table in [deletedBy, tagCreatedBy, tagColoredBy] {
            out.u32(table.count)
            for id in table.keys.sorted() {
                out.id(id)
                out.ref(table[id]!)
                out.endOfItem()
            }
        }
        out.u32(tagNamedBy.count)
        for id in tagNamedBy.keys.sorted() {
            out.id(id)
            out.ref(tagNamedBy[id]!.ref)
            out.u8(tagNamedBy[id]!.renamed ? 1 : 0)
        }
        assert(stacksNotAtHand.isEmpty, "a checkpoint of a fold without every device's stacks")
        let stacked = devices.indices.filter { $0 < stacks.count && stacks[$0] != nil }
        out.u32(stacked.count)
        for index in stacked.sorted(by: { Self.deviceOrder(devices[$0], devices[$1]) }) {
            out.device(devices[index])
            Self.write(stacks[index]!, to: &out)
        }
        out.u32(conflicts.count)
        for conflict in conflicts {
            out.conflict(conflict)
            out.endOfItem()
        }
    }

    /// A record's id and stamps in the tail.
    private func writeStamps(id: EntityID, _ stamps: RecordStamps, to out: inout CompactCheckpointWriter) {
        // Flags: 1 created, 2 setters, then per setter (start, end, tag, comment) a bit when it is the
        // creator and is not written again (most records were created and stopped, nothing else).
        var flags: UInt8 = (stamps.created != nil ? 1 : 0) | (stamps.setters != nil ? 2 : 0)
        if let setters = stamps.setters {
            for (index, field) in Self.setterOrder.enumerated() where setters[field] == stamps.created {
                flags |= 4 << index
            }
        }
        out.id(id)
        out.u8(flags)
        if let created = stamps.created { out.stamp(created) }
        if let setters = stamps.setters {
            for (index, field) in Self.setterOrder.enumerated() where flags & (4 << index) == 0 {
                out.stamp(setters[field])
            }
        }
        out.endOfItem()
    }

    /// How many records a checkpoint reads before it writes them (``forEach(in:reading:_:)``).
    static let readAhead = 64

    /// The order a record's setters are written in.
    static let setterOrder: [RecordFields] = [.start, .end, .tagId, .comment]

    /// The implicit device (`nil`) first, then by id.
    static func deviceOrder(_ a: DeviceID?, _ b: DeviceID?) -> Bool {
        guard let b else { return false }
        guard let a else { return true }
        return a < b
    }

    /// Restores a fold from ``checkpoint`` bytes.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when the bytes are not a merged checkpoint of this
    ///   version, are cut short, or hold a value the fold could not have produced.
    public init(checkpoint bytes: UnsafeRawBufferPointer) throws(DomainError) {
        var input = CompactCheckpointReader(bytes)
        try self.init(reading: &input)
    }

    /// Restores a fold from the ``checkpoint`` bytes `source` gives, `size` of them, a piece at a time: the
    /// bytes are never held whole (54 MB at a million events). The caller checks that the source ended well
    /// (a checkpoint file's checksum) before it uses the fold.
    ///
    /// - Throws: as ``init(checkpoint:)``.
    public init(checkpointFrom source: any CheckpointByteSource, size: Int) throws(DomainError) {
        try self.init(checkpointFrom: source, size: size, window: CheckpointWindow.capacity)
    }

    /// ``init(checkpointFrom:size:)`` through a window of `window` bytes.
    init(checkpointFrom source: any CheckpointByteSource, size: Int, window: Int) throws(DomainError) {
        var input = CompactCheckpointReader(source: source, size: size, window: window)
        try self.init(reading: &input)
    }

    /// Restores a fold from `input`; with `stacksApart`, a frame written without its stacks
    /// (``checkpointWithoutStacks``), whose devices' stacks are then not at hand.
    init(reading input: inout CompactCheckpointReader, stacksApart: Bool = false) throws(DomainError) {
        let fail = Self.unreadablePart
        // The records straight into the table, in id order (as the state's part writes them).
        var table = RecordTable()
        var previous: EntityID?
        base = try Self.readStatePart(&input) { (input) throws(DomainError) in
            try LogState(
                reading: &input, recordCount: { table.reserveCapacity($0 + $0 / 4) },
                record: { record in
                    guard previous.map({ $0 < record.id }) ?? true else { return false }
                    previous = record.id
                    table.set(table.add(record.id, stamps: RecordStamps()), record)
                    return true
                })
        }
        for id in base.deletedRecordIds {
            guard table.number(of: id) == nil else { throw fail("deleted ids") }
            table.setStatus(table.add(id, stamps: RecordStamps()), .deleted)
        }
        base.deletedRecordIds = []
        for id in base.runningRecordIds {
            guard let number = table.number(of: id), table.statuses[number] == .live, table.isRunning(number) else {
                throw fail("running ids")
            }
        }
        try Self.readTagNameOrder(&input, into: &base)
        guard let deviceCount = input.count(minimumSize: 1) else { throw fail("devices") }
        for index in 0..<deviceCount {
            guard let device = input.device(), deviceIndex.updateValue(index, forKey: device) == nil else {
                throw fail("devices")
            }
            devices.append(device)
        }
        let known = devices.count
        func stamp() throws(DomainError) -> Stamp {
            guard let stamp = input.stamp(), stamp.device < known else { throw fail("stamps") }
            return stamp
        }
        guard let position = input.i64() else { throw fail("position") }
        self.position = position
        current = try stamp()
        guard let device = input.device(), let start = input.ref(), let code = input.u8(),
            let target = LogState.OpenBatch.Target(code: code), let hasUndone = input.u8(), hasUndone < 2,
            let undone = input.i64(), let stopped = input.u8(), stopped < 2, let index = deviceIndex[device]
        else { throw fail("batch") }
        batch = Batch(
            device: device, deviceIndex: index, start: start, target: target, undone: hasUndone == 1 ? undone : nil,
            stopped: stopped == 1)
        guard let knowledgeCount = input.count(minimumSize: 5) else { throw fail("knowledge") }
        for _ in 0..<knowledgeCount {
            guard let device = input.device(), let count = input.count(minimumSize: 25) else {
                throw fail("knowledge")
            }
            var seen: [DeviceID: Int64] = [:]
            for _ in 0..<count {
                guard let other = input.device(), let other, let seq = input.i64() else { throw fail("knowledge") }
                seen[other] = seq
            }
            knowledge[device] = seen
        }
        guard let stampCount = input.count(minimumSize: 17) else { throw fail("stamps") }
        previous = nil
        for _ in 0..<stampCount {
            // In id order, each id once (as ``checkpoint`` writes them).
            guard let id = input.id(), previous.map({ $0 < id }) ?? true, let flags = input.u8(), flags < 64,
                flags & 2 != 0 || flags < 4, flags & 1 != 0 || flags & 0b111100 == 0
            else { throw fail("stamps") }
            var entry = RecordStamps()
            if flags & 1 != 0 { entry.created = try stamp() }
            if flags & 2 != 0 {
                var fields = FieldSetters(all: Stamp(position: 0, packed: 0))
                for (index, field) in Self.setterOrder.enumerated() {
                    fields[field] = flags & (4 << index) != 0 ? entry.created! : try stamp()
                }
                entry.setters = fields
            }
            if let number = table.number(of: id) {
                table[stamps: number] = entry
            } else {
                _ = table.add(id, stamps: entry)
            }
            previous = id
        }
        func refs(_ what: String) throws(DomainError) -> [EntityID: EventRef] {
            guard let count = input.count(minimumSize: 33) else { throw fail(what) }
            var table: [EntityID: EventRef] = [:]
            for _ in 0..<count {
                guard let id = input.id(), let ref = input.ref() else { throw fail(what) }
                table[id] = ref
            }
            return table
        }
        deletedBy = try refs("deletions")
        tagCreatedBy = try refs("tag creators")
        tagColoredBy = try refs("tag colours")
        guard let namedCount = input.count(minimumSize: 34) else { throw fail("tag names") }
        for _ in 0..<namedCount {
            guard let id = input.id(), let ref = input.ref(), let renamed = input.u8(), renamed < 2 else {
                throw fail("tag names")
            }
            tagNamedBy[id] = (ref, renamed == 1)
        }
        guard let stackCount = input.count(minimumSize: 9), !stacksApart || stackCount == 0 else {
            throw fail("undo stacks")
        }
        for _ in 0..<stackCount {
            guard let device = input.device(), let index = deviceIndex[device],
                index >= stacks.count || stacks[index] == nil
            else { throw fail("undo stacks") }
            while stacks.count <= index { stacks.append(nil) }
            stacks[index] = try Self.readStacks(&input)
        }
        guard let conflictCount = input.count(minimumSize: 6) else { throw fail("conflicts") }
        conflicts.reserveCapacity(conflictCount)
        for _ in 0..<conflictCount {
            guard let conflict = input.conflict() else { throw fail("conflicts") }
            conflicts.append(conflict)
        }
        guard input.isAtEnd else { throw fail("end") }
        records = table
        if stacksApart {
            stacksNotAtHand = Set(devices.indices)
            return
        }
        // The open batch's inverses go to the top of its device's stack, which the fold had pushed.
        switch batch.target {
        case .none: break
        case .undo: guard stacks(of: batch.device)?.undo.isEmpty == false else { throw fail("batch") }
        case .redo: guard stacks(of: batch.device)?.redo.isEmpty == false else { throw fail("batch") }
        }
    }
}
