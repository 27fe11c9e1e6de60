/// What the merged fold remembers of each record's events, small: a record holds five of them, and a
/// history of a million events holds half a million records.
extension MergedFold {
    /// An event the fold remembers, in 16 bytes: its position in the merged order, and its device (an index
    /// into ``MergedFold/devices``) and `seq` packed into one word. ``MergedFold/eventRef(_:)`` gives the
    /// ``EventRef`` conflicts name.
    struct Stamp: Hashable, Sendable {
        /// How many bits of ``packed`` hold the `seq` (a log of 17 trillion events; the rest name the device).
        static let seqBits: UInt64 = 44
        var position: Int64
        /// The device's index and the `seq`, as checkpoints keep them.
        private(set) var packed: UInt64

        init(device: Int, seq: Int64, position: Int64) {
            self.position = position
            packed = UInt64(device) << Self.seqBits | UInt64(seq)
        }

        init(position: Int64, packed: UInt64) {
            self.position = position
            self.packed = packed
        }

        var device: Int { Int(packed >> Self.seqBits) }
        var seq: Int64 { Int64(packed & (1 << Self.seqBits - 1)) }
    }

    /// Per record, the event that created it and, while it is live, the events that last set each field.
    struct RecordStamps: Sendable {
        var created: Stamp?
        var setters: FieldSetters?
    }

    /// The events that last set each member of a record.
    struct FieldSetters: Sendable {
        var start: Stamp
        var end: Stamp
        var tagId: Stamp
        var comment: Stamp

        init(all stamp: Stamp) {
            start = stamp
            end = stamp
            tagId = stamp
            comment = stamp
        }

        subscript(field: RecordFields) -> Stamp {
            get {
                switch field {
                case .start: return start
                case .end: return end
                case .tagId: return tagId
                default: return comment
                }
            }
            set {
                switch field {
                case .start: start = newValue
                case .end: end = newValue
                case .tagId: tagId = newValue
                default: comment = newValue
                }
            }
        }
    }

    /// The ``EventRef`` of `stamp`.
    func eventRef(_ stamp: Stamp) -> EventRef {
        EventRef(device: devices[stamp.device], seq: stamp.seq, position: stamp.position)
    }

    /// The stamp of `ref`, an event folded already or being folded, adding its device to ``devices`` when it
    /// is the first of that device.
    mutating func stamp(_ ref: EventRef) throws(DomainError) -> Stamp {
        let index: Int
        if let known = deviceIndex[ref.device] {
            index = known
        } else {
            guard devices.count < 1 << (64 - Stamp.seqBits), ref.seq < 1 << Stamp.seqBits else {
                throw DomainError(.inconsistentEvent, "a space holds at most a million devices", seq: ref.seq)
            }
            index = devices.count
            devices.append(ref.device)
            deviceIndex[ref.device] = index
        }
        return Stamp(device: index, seq: ref.seq, position: ref.position)
    }
}
