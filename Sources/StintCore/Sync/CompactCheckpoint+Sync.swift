/// The fields of a merged checkpoint (``MergedFold/checkpoint``): devices, event references, stamps and
/// conflicts.
extension CompactCheckpointWriter {
    /// A device or the implicit one: a presence byte, then the id's two halves.
    mutating func device(_ device: DeviceID?) {
        u8(device == nil ? 0 : 1)
        if let device { id(EntityID(high: device.high, low: device.low)) }
    }

    mutating func ref(_ ref: EventRef) {
        device(ref.device)
        i64(ref.seq)
        i64(ref.position)
    }

    mutating func ref(_ ref: EventRef?) {
        u8(ref == nil ? 0 : 1)
        if let ref { self.ref(ref) }
    }

    mutating func stamp(_ stamp: MergedFold.Stamp) {
        i64(stamp.position)
        i64(Int64(bitPattern: stamp.packed))
    }

    /// A conflict: its rule, whether it is minor, its subject, then its detail's case and values.
    mutating func conflict(_ conflict: Conflict) {
        u32(conflict.rule)
        u8(conflict.isMinor ? 1 : 0)
        switch conflict.subject {
        case .record(let id):
            u8(0)
            self.id(id)
        case .tag(let id):
            u8(1)
            self.id(id)
        case .name(let name):
            u8(2)
            string(name)
        }
        switch conflict.detail {
        case .stoppedTwice(let endedBy, let end, let ignored, let ignoredEnd):
            u8(0)
            ref(endedBy)
            optionalString(end)
            ref(ignored)
            string(ignoredEnd)
        case .canceledNotRunning(let ignored):
            u8(1)
            ref(ignored)
        case .keptRunning(let switchedBy, let startedBy):
            u8(2)
            ref(switchedBy)
            ref(startedBy)
        case .fieldLost(let field, let lost, let lostBy, let won, let wonBy):
            u8(3)
            string(field)
            string(lost)
            ref(lostBy)
            string(won)
            ref(wonBy)
        case .spanClamped(let by):
            u8(4)
            ref(by)
        case .bothApplied(let field, let by, let otherField, let otherBy):
            u8(5)
            string(field)
            ref(by)
            string(otherField)
            ref(otherBy)
        case .ignoredOnDeleted(let what, let ignored, let deletedBy):
            u8(6)
            string(what)
            ref(ignored)
            ref(deletedBy)
        case .createdTwice(let name, let first, let second, let color, let colorBy):
            u8(7)
            string(name)
            ref(first)
            ref(second)
            string(color)
            ref(colorBy)
        case .importedTwice(let first, let second):
            u8(8)
            ref(first)
            ref(second)
        case .renameLost(let lost, let lostBy, let won, let wonBy):
            u8(9)
            string(lost)
            ref(lostBy)
            string(won)
            ref(wonBy)
        case .nameShared(let name, let holder, let since, let other, let otherBy, let shownAs):
            u8(10)
            string(name)
            id(holder)
            ref(since)
            id(other)
            ref(otherBy)
            string(shownAs)
        case .undoKept(let undo, let field, let value, let keptBy):
            u8(11)
            ref(undo)
            string(field)
            string(value)
            ref(keptBy)
        case .idReused(let ignored):
            u8(12)
            ref(ignored)
        }
    }

    mutating func optionalString(_ value: String?) {
        u8(value == nil ? 0 : 1)
        if let value { string(value) }
    }
}

extension CompactCheckpointReader {
    /// A device as ``CompactCheckpointWriter/device(_:)`` wrote it: `.some(nil)` for the implicit device,
    /// nil when unreadable.
    mutating func device() -> DeviceID?? {
        switch u8() {
        case 0: return .some(nil)
        case 1: return id().map { DeviceID(high: $0.high, low: $0.low) }
        default: return nil
        }
    }

    mutating func ref() -> EventRef? {
        guard let device = device(), let seq = i64(), let position = i64() else { return nil }
        return EventRef(device: device, seq: seq, position: position)
    }

    /// An optional reference: `.some(nil)` when none was written, nil when unreadable.
    mutating func optionalRef() -> EventRef?? {
        switch u8() {
        case 0: return .some(nil)
        case 1: return ref().map { .some($0) }
        default: return nil
        }
    }

    mutating func stamp() -> MergedFold.Stamp? {
        guard let position = i64(), let packed = i64() else { return nil }
        return MergedFold.Stamp(position: position, packed: UInt64(bitPattern: packed))
    }

    mutating func optionalString() -> String?? {
        switch u8() {
        case 0: return .some(nil)
        case 1: return string().map { .some($0) }
        default: return nil
        }
    }

    mutating func conflict() -> Conflict? {
        guard let rule = u32(), let minor = u8(), minor < 2, let kind = u8() else { return nil }
        let subject: Conflict.Subject
        switch kind {
        case 0: guard let id = id() else { return nil }; subject = .record(id)
        case 1: guard let id = id() else { return nil }; subject = .tag(id)
        case 2: guard let name = string() else { return nil }; subject = .name(name)
        default: return nil
        }
        guard let detail = detail() else { return nil }
        return Conflict(rule: rule, subject: subject, detail: detail, isMinor: minor == 1)
    }

    private mutating func detail() -> Conflict.Detail? {
        switch u8() {
        case 0:
            guard let endedBy = optionalRef(), let end = optionalString(), let ignored = ref(),
                let ignoredEnd = string()
            else { return nil }
            return .stoppedTwice(endedBy: endedBy, end: end, ignored: ignored, ignoredEnd: ignoredEnd)
        case 1:
            return ref().map { .canceledNotRunning(ignored: $0) }
        case 2:
            guard let switchedBy = ref(), let startedBy = ref() else { return nil }
            return .keptRunning(switchedBy: switchedBy, startedBy: startedBy)
        case 3:
            guard let field = string(), let lost = string(), let lostBy = ref(), let won = string(),
                let wonBy = ref()
            else { return nil }
            return .fieldLost(field: field, lost: lost, lostBy: lostBy, won: won, wonBy: wonBy)
        case 4:
            return ref().map { .spanClamped(by: $0) }
        case 5:
            guard let field = string(), let by = ref(), let otherField = string(), let otherBy = ref() else {
                return nil
            }
            return .bothApplied(field: field, by: by, otherField: otherField, otherBy: otherBy)
        case 6:
            guard let what = string(), let ignored = ref(), let deletedBy = optionalRef() else { return nil }
            return .ignoredOnDeleted(what: what, ignored: ignored, deletedBy: deletedBy)
        case 7:
            guard let name = string(), let first = ref(), let second = ref(), let color = string(),
                let colorBy = ref()
            else { return nil }
            return .createdTwice(name: name, first: first, second: second, color: color, colorBy: colorBy)
        case 8:
            guard let first = optionalRef(), let second = ref() else { return nil }
            return .importedTwice(first: first, second: second)
        case 9:
            guard let lost = string(), let lostBy = ref(), let won = string(), let wonBy = ref() else { return nil }
            return .renameLost(lost: lost, lostBy: lostBy, won: won, wonBy: wonBy)
        case 10:
            guard let name = string(), let holder = id(), let since = optionalRef(), let other = id(),
                let otherBy = ref(), let shownAs = string()
            else { return nil }
            return .nameShared(
                name: name, holder: holder, since: since, other: other, otherBy: otherBy, shownAs: shownAs)
        case 11:
            guard let undo = ref(), let field = string(), let value = string(), let keptBy = ref() else {
                return nil
            }
            return .undoKept(undo: undo, field: field, value: value, keptBy: keptBy)
        case 12:
            return ref().map { .idReused(ignored: $0) }
        default:
            return nil
        }
    }
}
