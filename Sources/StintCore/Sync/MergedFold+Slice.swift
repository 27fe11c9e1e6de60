/// The state a command on a replica decides on, as a slice of the merged fold (see `LogState+Slice`).
///
/// A command reads few records: those it names, the running ones, the one that ended last. The whole state
/// is a dictionary of every record (about 70 MB at half a million records, beside the fold's table of 52),
/// which a command on a replica built and kept up only to read those. A slice takes them from the table.
extension MergedFold {
    /// ``state(for:)`` holding only some records, as a read model's slice does: the running records, the
    /// record that ended last, every record (live or deleted) whose id starts with one of `references`, and
    /// the records `ids` name; every tag, the recent tags, the device's stacks, the import provenance and the
    /// position whole. Deciding a command and applying its events on it gives what the whole state gives,
    /// as long as the command's references and its events' records were included.
    public func slice(
        for device: DeviceID?, matching references: [RecordRef] = [], including ids: [EntityID] = []
    ) -> LogState {
        guard !keepsRecordsByID else { return state(for: device) }
        var slice = base
        for number in records.numbersOfSlice(matching: references, including: ids) {
            switch records.statuses[number] {
            case .live:
                let record = records.record(number)
                slice.records[record.id] = record
            case .deleted:
                slice.deletedRecordIds.insert(records.ids[number])
            case .absent:
                break
            }
        }
        return withStacks(of: device, slice)
    }
}
