/// Decodes the payload of a known event type straight from the bytes of a canonical line into its
/// ``DomainEvent``, without a JSON value in between.
///
/// Only the catalog's canonical form is accepted: members in the catalog's order, optional members absent
/// rather than null, ids as lowercase canonical UUIDs, instants in the canonical form, strings with only
/// the canonical escapes, and nothing after the last member. For such a payload the event's ``DomainEvent/data``
/// is exactly the JSON the line holds, so the event can stand for it. Anything else returns nil and is left
/// to the general path. `log.created` (it needs a time zone lookup) and the import events (rare, and with a
/// nested source) always go the general way.
extension ByteCursor {
    mutating func domainEvent(_ type: EventType) -> DomainEvent? {
        guard take(0x7B) else { return nil }
        var members = PayloadMembers()
        let event: DomainEvent
        switch type {
        case .logCreated, .recordImported, .recordReimported, .recordUnimported:
            return nil
        case .tagCreated:
            guard let id = members.id(&self, Key.tagId), let name = members.nonEmptyString(&self, Key.name),
                let color = members.nonEmptyString(&self, Key.color), InputLimits.isCanonicalColor(color)
            else { return nil }
            event = .tagCreated(tagId: id, name: name, color: color)
        case .tagRenamed:
            guard let id = members.id(&self, Key.tagId), let name = members.nonEmptyString(&self, Key.name) else {
                return nil
            }
            event = .tagRenamed(tagId: id, name: name)
        case .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored:
            guard let id = members.id(&self, Key.tagId) else { return nil }
            switch type {
            case .tagArchived: event = .tagArchived(tagId: id)
            case .tagUnarchived: event = .tagUnarchived(tagId: id)
            case .tagDeleted: event = .tagDeleted(tagId: id)
            default: event = .tagRestored(tagId: id)
            }
        case .timerStarted:
            guard let id = members.id(&self, Key.recordId), let start = members.instant(&self, Key.start),
                let tagId = members.optionalID(&self, Key.tagId),
                let comment = members.optionalNonEmptyString(&self, Key.comment)
            else { return nil }
            event = .timerStarted(recordId: id, start: start, tagId: tagId, comment: comment)
        case .timerStopped:
            guard let id = members.id(&self, Key.recordId), let end = members.instant(&self, Key.end) else {
                return nil
            }
            event = .timerStopped(recordId: id, end: end)
        case .timerCanceled, .recordDeleted:
            guard let id = members.id(&self, Key.recordId) else { return nil }
            event = type == .timerCanceled ? .timerCanceled(recordId: id) : .recordDeleted(recordId: id)
        case .recordTracked:
            guard let id = members.id(&self, Key.recordId), let start = members.instant(&self, Key.start),
                let end = members.instant(&self, Key.end), let tagId = members.optionalID(&self, Key.tagId),
                let comment = members.optionalNonEmptyString(&self, Key.comment)
            else { return nil }
            event = .recordTracked(recordId: id, start: start, end: end, tagId: tagId, comment: comment)
        case .recordEdited, .recordRestored:
            guard let id = members.id(&self, Key.recordId), let start = members.instant(&self, Key.start),
                let end = members.optionalInstant(&self, Key.end), let tagId = members.optionalID(&self, Key.tagId),
                let comment = members.optionalNonEmptyString(&self, Key.comment)
            else { return nil }
            let record = Record(id: id, start: start, end: end, tagId: tagId, comment: comment)
            event = type == .recordEdited ? .recordEdited(record) : .recordRestored(record)
        case .commandUndone, .commandRedone:
            guard members.key(&self, Key.tx), let tx = integer(), tx >= 1 else { return nil }
            event = type == .commandUndone ? .commandUndone(tx: tx) : .commandRedone(tx: tx)
        }
        guard take(0x7D) else { return nil }
        return event
    }

    /// A lowercase canonical UUID in quotes.
    mutating func quotedID() -> EntityID? {
        guard bytes.count - index >= 38, bytes[index] == 0x22, bytes[index + 37] == 0x22,
            let base = bytes.baseAddress
        else { return nil }
        let text = base + index + 1
        guard text[8] == 0x2D, text[13] == 0x2D, text[18] == 0x2D, text[23] == 0x2D else { return nil }
        // Each group's digits, as (offset, count): 8-4-4 in the high half, 4-12 in the low half.
        var invalid: UInt8 = 0
        func digits(_ start: Int, _ count: Int, into value: inout UInt64) {
            for offset in start..<(start + count) {
                let nibble = ByteCursor.hexValues[Int(text[offset])]
                invalid |= nibble
                value = value << 4 | UInt64(nibble & 0x0F)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        digits(0, 8, into: &high)
        digits(9, 4, into: &high)
        digits(14, 4, into: &high)
        digits(19, 4, into: &low)
        digits(24, 12, into: &low)
        guard invalid & 0xF0 == 0 else { return nil }
        index += 38
        return EntityID(high: high, low: low)
    }

    /// The value of each lowercase hex digit; 0xFF for every other byte.
    static let hexValues: [UInt8] = (0..<256).map { byte in
        ByteCursor.lowercaseHex(UInt8(byte)) ?? 0xFF
    }

    /// The member keys of the payloads, each with its quotes and colon.
    enum Key {
        static let tagId = Array(#""tagId":"#.utf8)
        static let name = Array(#""name":"#.utf8)
        static let color = Array(#""color":"#.utf8)
        static let recordId = Array(#""recordId":"#.utf8)
        static let start = Array(#""start":"#.utf8)
        static let end = Array(#""end":"#.utf8)
        static let comment = Array(#""comment":"#.utf8)
        static let tx = Array(#""tx":"#.utf8)
    }
}

/// Reads the members of one payload in order, placing the commas between them.
private struct PayloadMembers {
    private var count = 0

    /// Consumes `key` (and the comma before it unless it is the first member) when it comes next.
    mutating func key(_ cursor: inout ByteCursor, _ key: [UInt8]) -> Bool {
        let start = cursor.index
        if count > 0 && !cursor.take(0x2C) { return false }
        guard cursor.expect(key) else {
            cursor.index = start
            return false
        }
        count += 1
        return true
    }

    mutating func id(_ cursor: inout ByteCursor, _ name: [UInt8]) -> EntityID? {
        guard key(&cursor, name) else { return nil }
        return cursor.quotedID()
    }

    mutating func optionalID(_ cursor: inout ByteCursor, _ name: [UInt8]) -> EntityID?? {
        guard key(&cursor, name) else { return .some(nil) }
        guard let id = cursor.quotedID() else { return nil }
        return .some(id)
    }

    mutating func instant(_ cursor: inout ByteCursor, _ name: [UInt8]) -> Instant? {
        guard key(&cursor, name), cursor.take(0x22) else { return nil }
        return cursor.instant()
    }

    mutating func optionalInstant(_ cursor: inout ByteCursor, _ name: [UInt8]) -> Instant?? {
        guard key(&cursor, name) else { return .some(nil) }
        guard cursor.take(0x22), let instant = cursor.instant() else { return nil }
        return .some(instant)
    }

    mutating func nonEmptyString(_ cursor: inout ByteCursor, _ name: [UInt8]) -> String? {
        guard key(&cursor, name), cursor.take(0x22), let text = cursor.plainString(), !text.isEmpty else {
            return nil
        }
        return text
    }

    mutating func optionalNonEmptyString(_ cursor: inout ByteCursor, _ name: [UInt8]) -> String?? {
        guard key(&cursor, name) else { return .some(nil) }
        guard cursor.take(0x22), let text = cursor.plainString(), !text.isEmpty else { return nil }
        return .some(text)
    }
}
