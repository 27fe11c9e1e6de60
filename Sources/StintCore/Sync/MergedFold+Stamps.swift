/// What the merged fold remembers of each record's events, small: a record holds five of them, and a
/// history of a million events holds half a million records.
extension MergedFold {
    /// An event the fold remembers, in 16 bytes: its position in the merged order, and its device (an index
    /// into ``MergedFold/devices``) and `seq` packed into one word. ``MergedFold/eventRef(_:)`` gives the
    /// ``EventRef`` conflicts name.
    package struct Stamp: Hashable, Sendable {
        /// How many bits of ``packed`` hold the `seq` (a log of 17 trillion events; the rest name the device).
        static let seqBits: UInt64 = 44
        package var position: Int64
        /// The device's index and the `seq`, as checkpoints keep them.
        package private(set) var packed: UInt64

        package init(device: Int, seq: Int64, position: Int64) {
            self.position = position
            // Never traps: ``MergedFold/stamp(_:)`` refuses what does not fit.
            packed = UInt64(truncatingIfNeeded: device) << Self.seqBits | UInt64(truncatingIfNeeded: seq) & Self.seqMask
        }

        package init(position: Int64, packed: UInt64) {
            self.position = position
            self.packed = packed
        }

        package var device: Int { Int(packed >> Self.seqBits) }
        package var seq: Int64 { Int64(packed & Self.seqMask) }
        static let seqMask: UInt64 = 1 << seqBits - 1
    }

    /// Per record, the event that created it and, while it is live, the events that last set each field.
    package struct RecordStamps: Equatable, Sendable {
        package var created: Stamp?
        package var setters: FieldSetters?

        package init(created: Stamp? = nil, setters: FieldSetters? = nil) {
            self.created = created
            self.setters = setters
        }
    }

    /// The events that last set each member of a record.
    package struct FieldSetters: Equatable, Sendable {
        package var start: Stamp
        package var end: Stamp
        package var tagId: Stamp
        package var comment: Stamp

        package init(all stamp: Stamp) {
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

    /// The stamp of `ref`, an event folded already or being folded; a device not seen yet gets the next
    /// index, which ``register(_:)`` records once the event is applied.
    func stamp(_ ref: EventRef) throws(DomainError) -> Stamp {
        guard (0..<1 << Stamp.seqBits).contains(ref.seq) else {
            throw DomainError(.inconsistentEvent, "seq \(ref.seq) is outside 0…2^44", seq: ref.seq)
        }
        // Most events are of the device of the one before (a batch shares its device): no lookup.
        if devices[current.device] == ref.device {
            return Stamp(device: current.device, seq: ref.seq, position: ref.position)
        }
        if let known = deviceIndex[ref.device] { return Stamp(device: known, seq: ref.seq, position: ref.position) }
        guard devices.count < 1 << (64 - Stamp.seqBits) else {
            throw DomainError(.inconsistentEvent, "a space holds at most a million devices", seq: ref.seq)
        }
        return Stamp(device: devices.count, seq: ref.seq, position: ref.position)
    }

    /// Records the device of `ref` (stamped as `stamp`) when it is the first event of that device.
    mutating func register(_ device: DeviceID?, as stamp: Stamp) {
        guard stamp.device == devices.count else { return }
        devices.append(device)
        deviceIndex[device] = stamp.device
    }
}
