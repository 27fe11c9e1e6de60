/// The merged fold's records and their ``MergedFold/RecordStamps``, by a dense number per record id
/// (``RecordNumbers``): the values in columns, the stamps in an array, as ``CompactFold`` keeps a single log's.
///
/// It replaces two dictionaries by id, the state's records and the stamps, whose inserts and lookups were
/// the largest part of a cold merged read (every event hashed its record's id into both, and each new record
/// grew two tables of hundred-byte entries). Here an event finds its record's number once, a new record
/// appends to a few arrays and takes one 4-byte slot, and the values of half a million records take 21 MiB
/// instead of about 60, their stamps 20 MiB instead of 53 (``StampColumns``). A number is never removed: a
/// deleted record keeps its stamps and its last values (which no one reads), an unimported one its stamps.
extension MergedFold {
    struct RecordTable: Sendable {
        typealias Status = MergedFold.RecordStatus

        private var numbers = RecordNumbers(capacity: 0)
        /// The id of each number.
        private(set) var ids: [EntityID] = []
        private(set) var statuses: [Status] = []
        private var stampValues = StampColumns()
        private var starts: [Int64] = []
        /// ``noEnd`` while running.
        private var ends: [Int64] = []
        /// Indices into ``tagIDs``, or -1 when untagged.
        private var tags: [Int32] = []
        private var comments: [String?] = []
        /// The tags records name, by number (a handful: each record keeps 4 bytes instead of 17).
        private var tagIDs: [EntityID] = []
        private var tagNumbers: [EntityID: Int32] = [:]
        /// How many records are live.
        private(set) var liveCount = 0
        /// The numbers changed since ``tracksChanges()`` or the last ``takeChanged()``; nil while the table
        /// does not track them.
        private var changed: Set<Int>?

        private static let noEnd = Int64.min

        var count: Int { ids.count }

        /// Sizes an empty table for `capacity` records.
        mutating func reserveCapacity(_ capacity: Int) {
            guard ids.isEmpty else { return }
            let capacity = min(max(0, capacity), RecordNumbers.largestReservation)
            numbers = RecordNumbers(capacity: capacity)
            ids.reserveCapacity(capacity)
            statuses.reserveCapacity(capacity)
            stampValues.reserveCapacity(capacity)
            starts.reserveCapacity(capacity)
            ends.reserveCapacity(capacity)
            tags.reserveCapacity(capacity)
            comments.reserveCapacity(capacity)
        }

        /// The number of `id`; nil when the table has never held it.
        @inline(__always) func number(of id: EntityID) -> Int? {
            numbers.find(id, in: ids).map { Int($0) }
        }

        /// Adds `id`, which the table does not hold, with no record (``Status/absent``); its number.
        mutating func add(_ id: EntityID, stamps: RecordStamps) -> Int {
            let number = ids.count
            ids.append(id)
            statuses.append(.absent)
            stampValues.append(stamps)
            starts.append(0)
            ends.append(Self.noEnd)
            tags.append(-1)
            comments.append(nil)
            numbers.insert(id, number: Int32(truncatingIfNeeded: number), in: ids)
            changed?.insert(number)
            return number
        }

        /// Records from now on which numbers an ``add(_:stamps:)``, ``set(_:_:)``, ``setStatus(_:_:)`` or a new
        /// stamp changes, for a fold in parts to write back (``MergedFold/takeChangedRows()``).
        mutating func tracksChanges() {
            changed = []
        }

        /// Takes `number` out of the changes recorded (a row added as it was stored).
        mutating func forgetChange(of number: Int) {
            changed?.remove(number)
        }

        /// The numbers changed since tracking began or since the last call, in order.
        mutating func takeChanged() -> [Int] {
            guard let taken = changed else { return [] }
            changed = []
            return taken.sorted()
        }

        /// The stamps of number `number`.
        subscript(stamps number: Int) -> RecordStamps {
            get { stampValues[number] }
            set {
                stampValues[number] = newValue
                changed?.insert(number)
            }
        }

        /// The stamps of `id`, when the table holds it.
        subscript(stampsOf id: EntityID) -> RecordStamps? {
            number(of: id).map { stampValues[$0] }
        }

        /// The live record `number`, or nil when it is deleted or absent.
        func live(_ number: Int) -> Record? {
            statuses[number] == .live ? record(number) : nil
        }

        /// Whether the last values of `number` have no end.
        func isRunning(_ number: Int) -> Bool { ends[number] == Self.noEnd }

        /// The last values of `number` as a record (meaningful for a live one).
        func record(_ number: Int) -> Record {
            let end = ends[number]
            let tag = tags[number]
            return Record(
                id: ids[number], start: Instant(milliseconds: starts[number]),
                end: end == Self.noEnd ? nil : Instant(milliseconds: end), tagId: tag < 0 ? nil : tagIDs[Int(tag)],
                comment: comments[number])
        }

        /// What a checkpoint writes of a record (``CompactCheckpointWriter/record(id:start:end:tagId:comment:)``)
        /// and whether it is live, read in one go.
        struct CheckpointValues {
            var id: EntityID
            var start: Int64
            var end: Int64?
            var tagId: EntityID?
            var comment: String?
            var isLive: Bool
        }

        func checkpointValues(_ number: Int) -> CheckpointValues {
            let end = ends[number]
            let tag = tags[number]
            return CheckpointValues(
                id: ids[number], start: starts[number], end: end == Self.noEnd ? nil : end,
                tagId: tag < 0 ? nil : tagIDs[Int(tag)], comment: comments[number], isLive: statuses[number] == .live)
        }

        /// Makes `number` a live record with `record`'s values (its id must be the number's).
        mutating func set(_ number: Int, _ record: Record) {
            setStatus(number, .live)
            changed?.insert(number)
            starts[number] = record.start.milliseconds
            ends[number] = record.end?.milliseconds ?? Self.noEnd
            comments[number] = record.comment
            guard let tagId = record.tagId else {
                tags[number] = -1
                return
            }
            if let tag = tagNumbers[tagId] {
                tags[number] = tag
            } else {
                let tag = Int32(truncatingIfNeeded: tagIDs.count)
                tagIDs.append(tagId)
                tagNumbers[tagId] = tag
                tags[number] = tag
            }
        }

        /// Sets the status of `number` (its values stay).
        mutating func setStatus(_ number: Int, _ status: Status) {
            if statuses[number] == .live { liveCount -= 1 }
            if status == .live { liveCount += 1 }
            statuses[number] = status
            changed?.insert(number)
        }

        /// Every number, in the order of the ids (as checkpoints write them).
        ///
        /// Sorted as ``LogState/sortByID(_:)`` sorts, in runs by the ids' first 16 bits, but with 8 bytes per
        /// record instead of 24: the next 32 bits of the id above the number, sorted as plain integers, and
        /// the whole ids looked up only where those 32 bits are equal. A checkpoint of a million records sorts
        /// them in 12 MB beside the table instead of 50.
        func numbersInIdOrder() -> [Int32] {
            let ids = ids
            guard ids.count > 4096 else {
                return ids.indices.sorted { ids[$0] < ids[$1] }.map { Int32(truncatingIfNeeded: $0) }
            }
            func run(_ id: EntityID) -> Int { Int(truncatingIfNeeded: id.high >> 48) }
            // starts[r] is where run r begins in the result, starts[r + 1] where it ends.
            var starts = [Int](repeating: 0, count: 1 << 16 + 1)
            for id in ids { starts[run(id) + 1] += 1 }
            for index in 1..<starts.count { starts[index] += starts[index - 1] }
            var next = starts
            var keyed = [UInt64](repeating: 0, count: ids.count)
            for (number, id) in ids.enumerated() {
                let index = run(id)
                keyed[next[index]] = (id.high >> 16) << 32 | UInt64(number)
                next[index] += 1
            }
            next = []
            keyed.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<(1 << 16) where starts[index + 1] - starts[index] > 1 {
                    let range = starts[index]..<starts[index + 1]
                    buffer[range].sort()
                    // Entries whose 48 bits are equal, by their whole ids.
                    var first = range.lowerBound
                    while first < range.upperBound {
                        var end = first + 1
                        while end < range.upperBound, buffer[end] >> 32 == buffer[first] >> 32 { end += 1 }
                        if end - first > 1 {
                            buffer[first..<end].sort { ids[Int($0 & 0xFFFF_FFFF)] < ids[Int($1 & 0xFFFF_FFFF)] }
                        }
                        first = end
                    }
                }
            }
            return keyed.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        }

        /// The numbers of the records a slice holds (``MergedFold/slice(for:matching:including:)``), in
        /// order: the running records, the live record that ended last (the latest end, then the largest id),
        /// the records whose ids start with one of `references`, and those of `named`.
        func numbersOfSlice(matching references: [RecordRef], including named: [EntityID]) -> [Int] {
            var chosen: Set<Int> = []
            var lastEnded: Int?
            for number in statuses.indices where statuses[number] == .live {
                let end = ends[number]
                if end == Self.noEnd {
                    chosen.insert(number)
                } else if let last = lastEnded, (end, ids[number]) <= (ends[last], ids[last]) {
                    continue
                } else {
                    lastEnded = number
                }
            }
            if let lastEnded { chosen.insert(lastEnded) }
            for reference in references {
                for number in ids.indices where reference.matches(ids[number]) { chosen.insert(number) }
            }
            for id in named {
                if let number = number(of: id) { chosen.insert(number) }
            }
            return chosen.sorted()
        }

        /// The live records by id (``LogState/records``).
        var recordsByID: [EntityID: Record] {
            var records: [EntityID: Record] = [:]
            records.reserveCapacity(liveCount)
            for number in statuses.indices where statuses[number] == .live { records[ids[number]] = record(number) }
            return records
        }

        /// The ids of the deleted records (``LogState/deletedRecordIds``).
        var deletedIDs: Set<EntityID> {
            var deleted: Set<EntityID> = []
            for number in statuses.indices where statuses[number] == .deleted { deleted.insert(ids[number]) }
            return deleted
        }

        /// The live records that are running or started at or after `horizon`, by start then id (what
        /// ``LogState/projectionSource(from:)`` reads), without building the others.
        func records(runningOrFrom horizon: Instant) -> [Record] {
            let cut = horizon.milliseconds
            var result: [Record] = []
            for number in statuses.indices where statuses[number] == .live {
                guard ends[number] == Self.noEnd || starts[number] >= cut else { continue }
                result.append(record(number))
            }
            result.sort { ($0.start, $0.id) < ($1.start, $1.id) }
            return result
        }
    }
}
