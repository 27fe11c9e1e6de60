/// A record row's bookkeeping as bytes, as a replica's read models keep it beside the row's values
/// (docs/read-models.md, `records.stamps` and `record_stamps.stamps`): a flags byte (1 created, 2 setters,
/// 4 deleted), then the creator's stamp, the last setters of start, end, tag and comment, and the event that
/// deleted the record, each as merged checkpoints write them (a stamp in 16 bytes: its position, then its
/// device's index and `seq` packed).
extension MergedFold.RecordRow {
    package var bookkeeping: [UInt8] {
        var out = CompactCheckpointWriter(capacity: 128)
        let flags: UInt8 =
            (stamps.created != nil ? 1 : 0) | (stamps.setters != nil ? 2 : 0) | (deletedBy != nil ? 4 : 0)
        out.u8(flags)
        if let created = stamps.created { out.stamp(created) }
        if let setters = stamps.setters {
            for field in MergedFold.setterOrder { out.stamp(setters[field]) }
        }
        if let deletedBy { out.ref(deletedBy) }
        return out.bytes
    }

    /// The stamps and the deletion that ``bookkeeping`` bytes hold; nil when the bytes are not such.
    package static func bookkeeping(from bytes: [UInt8]) -> (
        stamps: MergedFold.RecordStamps, deletedBy: EventRef?
    )? {
        bytes.withUnsafeBytes { buffer -> (stamps: MergedFold.RecordStamps, deletedBy: EventRef?)? in
            var input = CompactCheckpointReader(buffer)
            guard let flags = input.u8(), flags < 8 else { return nil }
            var stamps = MergedFold.RecordStamps()
            if flags & 1 != 0 {
                guard let created = input.stamp() else { return nil }
                stamps.created = created
            }
            if flags & 2 != 0 {
                var setters = MergedFold.FieldSetters(all: MergedFold.Stamp(position: 0, packed: 0))
                for field in MergedFold.setterOrder {
                    guard let stamp = input.stamp() else { return nil }
                    setters[field] = stamp
                }
                stamps.setters = setters
            }
            var deletedBy: EventRef?
            if flags & 4 != 0 {
                guard let ref = input.ref() else { return nil }
                deletedBy = ref
            }
            guard input.isAtEnd else { return nil }
            return (stamps, deletedBy)
        }
    }
}
