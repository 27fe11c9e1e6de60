/// Decodes the payload of a known event type straight from the bytes of a canonical line into its
/// ``DomainEvent``, without a JSON value in between.
///
/// Only the catalog's canonical form is accepted: members in the catalog's order, optional members absent
/// rather than null, ids as lowercase canonical UUIDs, instants in the canonical form, strings with only
/// the canonical escapes, and nothing after the last member. For such a payload the event's ``DomainEvent/data``
/// is exactly the JSON the line holds, so the event can stand for it. Anything else returns nil and is left
/// to the general path. The members are those of the type's ``EventDeclaration``; a type with a member the
/// fast decoders do not read (``FieldKind/decodesFast``: `log.created`, which needs a time zone lookup, and
/// the import events, rare and with a nested source) always goes the general way.
extension ByteCursor {
    mutating func domainEvent(_ declaration: EventDeclaration) -> DomainEvent? {
        guard declaration.decodesFast, take(0x7B) else { return nil }
        var source = PayloadMembers(cursor: self)
        guard let event = try? declaration.decode(from: &source) else { return nil }
        index = source.cursor.index
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
}

/// Reads the members of one payload from the line's bytes in order, placing the commas between them; only
/// the canonical form of each member is accepted, anything else throws ``Deferred``.
private struct PayloadMembers: PayloadSource {
    var cursor: ByteCursor
    private var count = 0

    init(cursor: ByteCursor) { self.cursor = cursor }

    /// Consumes `key` (and the comma before it unless it is the first member) when it comes next.
    @inline(__always)
    private mutating func key(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = cursor.index
        if count > 0 && !cursor.take(0x2C) { return false }
        guard cursor.expect(key) else {
            cursor.index = start
            return false
        }
        count += 1
        return true
    }

    @inline(__always)
    mutating func value(of field: EventField) throws(Deferred) -> FieldValue {
        guard key(field.quotedKey) else {
            if field.kind.isOptional { return .absent }
            throw Deferred()
        }
        switch field.kind {
        case .id, .optionalID:
            guard let id = cursor.quotedID() else { throw Deferred() }
            return .id(id)
        case .instant, .optionalInstant:
            guard cursor.take(0x22), let instant = cursor.instant() else { throw Deferred() }
            return .instant(instant)
        case .text, .optionalText:
            guard cursor.take(0x22), let text = cursor.plainString(), !text.isEmpty else { throw Deferred() }
            return .text(text)
        case .color:
            guard cursor.take(0x22), let text = cursor.plainString(), !text.isEmpty, InputLimits.isCanonicalColor(text)
            else { throw Deferred() }
            return .text(text)
        case .seq, .optionalSeq:
            guard let value = cursor.integer(), value >= 1 else { throw Deferred() }
            return .integer(value)
        case .device:
            guard cursor.take(0x22), let device = cursor.deviceID() else { throw Deferred() }
            return .device(device)
        case .hash:
            guard cursor.take(0x22), let text = cursor.plainString(), HashText.isSHA256(text) else { throw Deferred() }
            return .text(text)
        case .optionalLink:
            guard cursor.take(0x22), let text = cursor.plainString(), HashText.isLink(text) else { throw Deferred() }
            return .text(text)
        case .recordFields:
            guard cursor.take(0x5B) else { throw Deferred() }
            var names: [String] = []
            repeat {
                guard cursor.take(0x22), let name = cursor.plainString() else { throw Deferred() }
                names.append(name)
            } while cursor.take(0x2C)
            guard cursor.take(0x5D), let fields = RecordFields(names: names) else { throw Deferred() }
            return .fields(fields)
        case .string, .integer, .importSource:
            throw Deferred()
        }
    }

    mutating func finish() throws(Deferred) {
        guard cursor.take(0x7D) else { throw Deferred() }
    }

    func refusal(_ refusal: FieldRefusal) -> Deferred { Deferred() }
}
