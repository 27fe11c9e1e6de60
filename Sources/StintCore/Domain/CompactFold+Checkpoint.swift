extension CompactFold {
    /// The record numbers in id order, kept from one checkpoint of a fold to the next: the records created
    /// since are sorted alone and merged in, instead of sorting every record again at every checkpoint.
    public struct RecordOrder: Sendable {
        /// Every number below ``covered`` (live, deleted or absent), in id order.
        fileprivate var numbers: [Int32] = []
        fileprivate var covered = 0

        public init() {}
    }

    /// The compact checkpoint of ``logState`` (the same bytes), written from the columns without building
    /// the whole state: a cold read leaves the checkpoints a ``LogState`` fold would. `order` carries the
    /// id order of the records from the fold's previous checkpoint to this one.
    public func compactCheckpoint(order: inout RecordOrder) -> [UInt8] {
        extend(&order)
        var imported: [(id: EntityID, provenance: ImportProvenance)] = []
        imported.reserveCapacity(provenance.count)
        for (number, value) in provenance { imported.append((ids[Int(number)], value)) }
        imported.sort { $0.id < $1.id }
        return LogState.compactCheckpoint(
            of: stateWithoutRecords, recordCount: liveCount,
            writingRecords: { out in
                for number in order.numbers where statuses[Int(number)] == .live {
                    let index = Int(number)
                    let end = ends[index]
                    let tag = tagNumbers[index]
                    let comment = comments[index]
                    out.record(
                        id: ids[index], start: starts[index], end: end == Self.noEnd ? nil : end,
                        tagId: tag < 0 ? nil : tags[Int(tag)].id, comment: comment < 0 ? nil : strings[Int(comment)])
                }
            },
            deletedRecordIds: deletedRecordIdsInOrder, provenanceCount: imported.count,
            provenance: imported.lazy.map(\.provenance))
    }

    /// ``compactCheckpoint(order:)`` for a single checkpoint.
    public var compactCheckpoint: [UInt8] {
        var order = RecordOrder()
        return compactCheckpoint(order: &order)
    }

    /// Adds the numbers created since `order` was last extended, sorted by id and merged in.
    private func extend(_ order: inout RecordOrder) {
        guard order.covered < ids.count else { return }
        ids.withUnsafeBufferPointer { ids in
            var added = (order.covered..<ids.count).map { Int32($0) }
            added.sort { ids[Int($0)] < ids[Int($1)] }
            var merged: [Int32] = []
            merged.reserveCapacity(order.numbers.count + added.count)
            var old = 0
            var new = 0
            while old < order.numbers.count && new < added.count {
                if ids[Int(added[new])] < ids[Int(order.numbers[old])] {
                    merged.append(added[new])
                    new += 1
                } else {
                    merged.append(order.numbers[old])
                    old += 1
                }
            }
            merged += order.numbers[old...]
            merged += added[new...]
            order.numbers = merged
            order.covered = ids.count
        }
    }
}
