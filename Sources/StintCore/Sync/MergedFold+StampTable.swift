/// The merged fold's table of ``MergedFold/RecordStamps``, by record id: a dense number per record
/// (``RecordNumbers``) and the stamps in an array by number.
///
/// It replaces a dictionary whose entries were mostly values of a hundred bytes spread at random over a
/// table a third empty: at a million events, 117 MiB and the slowest part of the fold (each new record hashed
/// its id twice into it). Here a new record appends to two arrays and takes one 4-byte slot, and a lookup is
/// one cheap hash and a comparison. Records are never removed (a deleted record keeps the stamp of its
/// creation).
extension MergedFold {
    struct StampTable: Sendable {
        private var numbers = RecordNumbers(capacity: 0)
        /// The id of each number.
        private var ids: [EntityID] = []
        private var values: [RecordStamps] = []

        var count: Int { ids.count }

        /// Sizes an empty table for `capacity` records.
        mutating func reserveCapacity(_ capacity: Int) {
            guard ids.isEmpty else { return }
            numbers = RecordNumbers(capacity: capacity)
            ids.reserveCapacity(capacity)
            values.reserveCapacity(capacity)
        }

        /// The number of `id`'s stamps; nil when it has none.
        func number(of id: EntityID) -> Int? {
            numbers.find(id, in: ids).map { Int($0) }
        }

        /// The stamps of `id`; setting them adds the record when it has none yet (nil is ignored: records
        /// are never removed).
        subscript(id: EntityID) -> RecordStamps? {
            get { number(of: id).map { values[$0] } }
            set {
                guard let newValue else { return }
                if let number = number(of: id) {
                    values[number] = newValue
                } else {
                    add(newValue, for: id)
                }
            }
        }

        /// The stamps with number `number` (from ``number(of:)``).
        subscript(number number: Int) -> RecordStamps {
            get { values[number] }
            set { values[number] = newValue }
        }

        /// Adds the stamps of `id`, which has none.
        mutating func add(_ stamps: RecordStamps, for id: EntityID) {
            let number = Int32(truncatingIfNeeded: ids.count)
            ids.append(id)
            values.append(stamps)
            numbers.insert(id, number: number, in: ids)
        }

        /// Every record's id and stamps, in the order of the ids (as checkpoints write them).
        func inIdOrder() -> some Sequence<(id: EntityID, stamps: RecordStamps)> {
            var order = ids.indices.map { (id: ids[$0], position: $0) }
            LogState.sortByID(&order)
            return order.lazy.map { (id: $0.id, stamps: values[$0.position]) }
        }
    }
}
