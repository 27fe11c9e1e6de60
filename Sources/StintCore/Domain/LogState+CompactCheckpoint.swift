/// The folded state's checkpoint: a compact binary form that loads in a fraction of a JSON form's time and
/// memory (a JSON tree costs hundreds of bytes per record; at a million events, hundreds of megabytes and
/// most of a second). It writes the fields as fixed-size little-endian integers, 16-byte ids and
/// length-prefixed UTF-8, straight into one buffer, and reads them back with no intermediate value. The undo and redo
/// stacks (at most ``undoLimit`` entries each) keep the canonical JSON of their events.
///
/// Layout: `STCK`, u32 layout version, then the settings, tags, records (by id), deleted ids (sorted),
/// running ids, recent tag ids, the provenance of imported records (by id), undo and redo stacks,
/// `lastSeq`, `lastAt`, the open batch and the `seq` of a repair's gap (0 for none). It is a cache:
/// a checkpoint of another ``compactCheckpointVersion`` is ignored and rebuilt, never migrated.
extension LogState {
    /// The version of the compact layout and of the fold that produced it: 100 + n, distinct from the JSON
    /// form's versions 1 to 3 of earlier builds (no longer written or read), so that the two can never be
    /// mistaken for each other. Bump it when the fold's rules or ``LogState``'s fields change.
    public static let compactCheckpointVersion = 103

    static let compactMagic: [UInt8] = Array("STCK".utf8)

    /// The state in the compact checkpoint form; the same state always gives the same bytes.
    public var compactCheckpoint: [UInt8] {
        LogState.compactCheckpoint(
            of: self, recordCount: records.count,
            writingRecords: { out in for record in LogState.inIdOrder(records) { out.record(record) } },
            deletedRecordIds: deletedRecordIds.sorted(), provenanceCount: importProvenance.count,
            provenance: LogState.inIdOrder(importProvenance))
    }

    /// The compact checkpoint of a state given in parts: the records (`recordCount` of them, which
    /// `writingRecords` writes in id order), the deleted ids and the import provenance (in id order) apart,
    /// and everything else from `state` (whose own records are not read). A ``CompactFold`` writes the
    /// checkpoint its ``CompactFold/logState`` would, without building it.
    static func compactCheckpoint(
        of state: LogState, recordCount: Int, writingRecords: (inout CompactCheckpointWriter) -> Void,
        deletedRecordIds: [EntityID],
        provenanceCount: Int, provenance: some Sequence<ImportProvenance>
    ) -> [UInt8] {
        var out = CompactCheckpointWriter(capacity: 64 + recordCount * 48 + state.tags.count * 48)
        writeCompactCheckpoint(
            of: state, recordCount: recordCount, writingRecords: writingRecords, deletedRecordIds: deletedRecordIds,
            provenanceCount: provenanceCount, provenance: provenance, to: &out)
        return out.bytes
    }

    /// Writes what ``compactCheckpoint(of:recordCount:writingRecords:deletedRecordIds:provenanceCount:provenance:)``
    /// returns to `out`.
    static func writeCompactCheckpoint(
        of state: LogState, recordCount: Int, writingRecords: (inout CompactCheckpointWriter) -> Void,
        deletedRecordIds: [EntityID], provenanceCount: Int, provenance: some Sequence<ImportProvenance>,
        to out: inout CompactCheckpointWriter
    ) {
        out.header(magic: LogState.compactMagic, version: LogState.compactCheckpointVersion)
        out.id(state.settings.logId)
        out.string(state.settings.calendar.timeZoneIdentifier)
        out.u8(UInt8(truncatingIfNeeded: state.settings.calendar.firstWeekday))
        out.u32(state.settings.format)
        out.u32(state.tags.count)
        for id in state.tags.keys.sorted() {
            let tag = state.tags[id]!
            out.id(tag.id)
            out.string(tag.name)
            out.string(tag.color)
            out.u8((tag.isArchived ? 1 : 0) | (tag.isDeleted ? 2 : 0))
        }
        out.u32(recordCount)
        writingRecords(&out)
        out.u32(deletedRecordIds.count)
        for id in deletedRecordIds {
            out.id(id)
            out.endOfItem()
        }
        for list in [state.runningRecordIds, state.recentTagIds] {
            out.u32(list.count)
            for id in list { out.id(id) }
        }
        out.u32(provenanceCount)
        for provenance in provenance {
            out.record(provenance.values)
            out.string(provenance.source.system.rawValue)
            out.string(provenance.source.identity)
            out.u8(provenance.tagName != nil ? 1 : 0)
            if let name = provenance.tagName { out.string(name) }
            out.endOfItem()
        }
        for stack in [state.undoStack, state.redoStack] {
            out.u32(stack.count)
            for entry in stack { out.undoEntry(entry) }
        }
        out.i64(state.lastSeq)
        out.i64(state.lastAt.milliseconds)
        out.i64(state.batch.start)
        out.i64(state.batch.at.milliseconds)
        out.u8(state.batch.target.code)
        out.u8(state.batch.grouped ? 1 : 0)
        out.i64(state.resumedAfterRepair ?? 0)
    }

    /// The values of `dictionary` in the order of their ids.
    static func inIdOrder<Value>(_ dictionary: [EntityID: Value]) -> some Sequence<Value> {
        indicesInIdOrder(dictionary).lazy.map { dictionary.values[$0.position] }
    }

    /// Where each entry of `dictionary` is, in the order of the entries' ids.
    ///
    /// Sorts (id, index) pairs, then reads the entries through the indices: sorting the keys and looking
    /// each value up again hashed every id a second time, sorting the entries themselves moves whole
    /// records, and copying the values out first touches as much memory again. A checkpoint of a long log
    /// sorts hundreds of thousands of records.
    static func indicesInIdOrder<Value>(_ dictionary: [EntityID: Value])
        -> [(id: EntityID, position: Dictionary<EntityID, Value>.Index)]
    {
        var order: [(id: EntityID, position: Dictionary<EntityID, Value>.Index)] = []
        order.reserveCapacity(dictionary.count)
        var index = dictionary.startIndex
        while index != dictionary.endIndex {
            order.append((dictionary.keys[index], index))
            dictionary.formIndex(after: &index)
        }
        sortByID(&order)
        return order
    }

    /// Sorts `entries` by id, as `sort { $0.id < $1.id }` does, in about linear time for random ids: a
    /// counting pass spreads them into runs by the first 16 bits of the id, and each run is sorted on its own
    /// (a few entries each; ids that share their first bits, such as counters, fall into one run, sorted as
    /// a whole).
    static func sortByID<Place>(_ entries: inout [(id: EntityID, position: Place)]) {
        guard entries.count > 4096 else {
            entries.sort { $0.id < $1.id }
            return
        }
        func run(_ id: EntityID) -> Int { Int(truncatingIfNeeded: id.high >> 48) }
        // starts[r] is where run r begins in the result, starts[r + 1] where it ends.
        var starts = [Int](repeating: 0, count: 1 << 16 + 1)
        for entry in entries { starts[run(entry.id) + 1] += 1 }
        for index in 1..<starts.count { starts[index] += starts[index - 1] }
        var next = starts
        var sorted = entries
        for entry in entries {
            let index = run(entry.id)
            sorted[next[index]] = entry
            next[index] += 1
        }
        sorted.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<(1 << 16) where starts[index + 1] - starts[index] > 1 {
                buffer[starts[index]..<starts[index + 1]].sort { $0.id < $1.id }
            }
        }
        entries = sorted
    }

    /// Restores a state from ``compactCheckpoint`` bytes.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when the bytes are not a compact checkpoint of this
    ///   version, are cut short, or hold a value the fold could not have produced.
    public init(compactCheckpoint bytes: UnsafeRawBufferPointer) throws(DomainError) {
        var records: [EntityID: Record] = [:]
        try self.init(
            compactCheckpoint: bytes, recordCount: { records.reserveCapacity($0) },
            record: { records.updateValue($0, forKey: $0.id) == nil })
        self.records = records
    }

    /// Restores a state from ``compactCheckpoint`` bytes but for its records, which go to `record` one at a
    /// time in id order (after `recordCount` is told how many there are); `record` returns false to refuse one.
    /// The merged fold keeps its records in a table of its own.
    init(
        compactCheckpoint bytes: UnsafeRawBufferPointer, recordCount: (Int) -> Void, record: (Record) -> Bool
    ) throws(DomainError) {
        var input = CompactCheckpointReader(bytes)
        try self.init(reading: &input, recordCount: recordCount, record: record)
        guard input.isAtEnd else {
            throw DomainError(.invalidCheckpoint, "the checkpoint's end is not readable; it will be rebuilt")
        }
    }

    /// Reads a state as ``init(compactCheckpoint:recordCount:record:)`` does, from `input`, which may go on
    /// after it (a merged checkpoint holds the state's part and then its own).
    init(
        reading input: inout CompactCheckpointReader, recordCount: (Int) -> Void, record: (Record) -> Bool
    ) throws(DomainError) {
        func fail(_ what: String) -> DomainError {
            DomainError(.invalidCheckpoint, "the checkpoint's \(what) is not readable; it will be rebuilt")
        }
        try input.header(
            magic: LogState.compactMagic, version: LogState.compactCheckpointVersion, what: "the checkpoint")
        guard let logId = input.id(), let zone = input.string(), let weekday = input.u8(),
            let format = input.u32(), let calendar = LogCalendar(timeZone: zone, firstWeekday: Int(weekday))
        else { throw fail("settings") }
        settings = LogSettings(logId: logId, calendar: calendar, format: format)

        guard let tagCount = input.count(minimumSize: 25) else { throw fail("tags") }
        var tags: [EntityID: Tag] = [:]
        tags.reserveCapacity(tagCount)
        for _ in 0..<tagCount {
            guard let id = input.id(), let name = input.string(), let color = input.string(), let flags = input.u8(),
                flags < 4
            else { throw fail("tags") }
            tags[id] = Tag(id: id, name: name, color: color, isArchived: flags & 1 != 0, isDeleted: flags & 2 != 0)
        }
        self.tags = tags

        guard let count = input.count(minimumSize: 25) else { throw fail("records") }
        recordCount(count)
        for _ in 0..<count {
            guard let value = input.record(), record(value) else { throw fail("records") }
        }
        records = [:]

        func ids(_ what: String) throws(DomainError) -> [EntityID] {
            guard let count = input.count(minimumSize: 16) else { throw fail(what) }
            var list: [EntityID] = []
            list.reserveCapacity(count)
            for _ in 0..<count {
                guard let id = input.id() else { throw fail(what) }
                list.append(id)
            }
            return list
        }
        deletedRecordIds = Set(try ids("deleted ids"))
        runningRecordIds = try ids("running ids")
        recentTagIds = try ids("recent tags")

        guard let importCount = input.count(minimumSize: 34) else { throw fail("imports") }
        var provenance: [EntityID: ImportProvenance] = [:]
        provenance.reserveCapacity(importCount)
        for _ in 0..<importCount {
            guard let values = input.record(), let systemName = input.string(),
                let system = ImportSystem(rawValue: systemName), let identity = input.string(),
                let hasName = input.u8(), hasName < 2
            else { throw fail("imports") }
            var tagName: String?
            if hasName == 1 {
                guard let name = input.string() else { throw fail("imports") }
                tagName = name
            }
            let entry = ImportProvenance(
                source: ImportSource(system: system, identity: identity), values: values, tagName: tagName)
            guard provenance.updateValue(entry, forKey: values.id) == nil else { throw fail("imports") }
        }
        importProvenance = provenance

        func stack(_ what: String) throws(DomainError) -> [UndoEntry] {
            guard let count = input.count(minimumSize: 12) else { throw fail(what) }
            var entries: [UndoEntry] = []
            for _ in 0..<count {
                guard let entry = input.undoEntry() else { throw fail(what) }
                entries.append(entry)
            }
            return entries
        }
        undoStack = try stack("undo stack")
        redoStack = try stack("redo stack")

        guard let lastSeq = input.i64(), let lastAt = input.i64(), let start = input.i64(), let at = input.i64(),
            let code = input.u8(), let target = OpenBatch.Target(code: code), let grouped = input.u8(), grouped < 2,
            let gap = input.i64(), gap >= 0, gap <= lastSeq
        else { throw fail("position") }
        resumedAfterRepair = gap == 0 ? nil : gap
        self.lastSeq = lastSeq
        self.lastAt = Instant(milliseconds: lastAt)
        batch = OpenBatch(start: start, at: Instant(milliseconds: at), target: target, grouped: grouped == 1)
    }
}

extension LogState.OpenBatch.Target {
    var code: UInt8 {
        switch self {
        case .none: return 0
        case .undo: return 1
        case .redo: return 2
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .none
        case 1: self = .undo
        case 2: self = .redo
        default: return nil
        }
    }
}
