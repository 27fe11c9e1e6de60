extension DomainEvent {
    /// Decodes the payload of a current-version event whose members are in the catalog's order, reading the
    /// fields by position instead of through a dictionary; nil defers to the general, strict path.
    ///
    /// Accepts only what ``init(type:version:data:upgrades:)`` accepts for the same payload, and gives the
    /// same event: ids must be lowercase canonical UUIDs, instants canonical, names and comments non-empty,
    /// colors `#RRGGBB`, and no member may be missing, extra, null or out of order (any of which defers).
    /// The members are those of the type's ``EventDeclaration``; `log.created` (a time zone lookup, once per
    /// log) and the import events (rare) have members of kinds only the general path reads, and always defer.
    static func decodeCanonical(_ type: EventType, data: JSON) -> DomainEvent? {
        let declaration = type.declaration
        guard declaration.decodesFast, case .object(let fields) = data else { return nil }
        var source = PositionalPayload(fields: fields)
        return try? declaration.decode(from: &source)
    }
}

/// Reads a payload's members in order, each only in its canonical form; anything else (a member missing,
/// extra, null, out of order or not canonical) throws ``Deferred``: the general decoder decides.
private struct PositionalPayload: PayloadSource {
    let fields: [JSONField]
    var index = 0

    private mutating func next(_ key: String) -> JSON? {
        guard index < fields.count, fields[index].key == key else { return nil }
        index += 1
        return fields[index - 1].value
    }

    private func isNext(_ key: String) -> Bool {
        index < fields.count && fields[index].key == key
    }

    mutating func value(of field: EventField) throws(Deferred) -> FieldValue {
        let key = field.name
        if field.kind.isOptional && !isNext(key) { return .absent }
        switch field.kind {
        case .id, .optionalID:
            guard case .string(let text) = next(key), let id = EntityID(canonicalText: text) else { throw Deferred() }
            return .id(id)
        case .instant, .optionalInstant:
            guard case .string(var text) = next(key), let instant = text.withUTF8({ Instant(canonicalBytes: $0) })
            else { throw Deferred() }
            return .instant(instant)
        case .text, .optionalText:
            guard case .string(let text) = next(key), !text.isEmpty else { throw Deferred() }
            return .text(text)
        case .color:
            guard case .string(let text) = next(key), InputLimits.isCanonicalColor(text) else { throw Deferred() }
            return .text(text)
        case .seq, .optionalSeq:
            guard case .int(let value) = next(key), value >= 1 else { throw Deferred() }
            return .integer(value)
        case .device:
            guard case .string(let text) = next(key), let device = DeviceID(text) else { throw Deferred() }
            return .device(device)
        case .hash:
            guard case .string(let text) = next(key), HashText.isSHA256(text) else { throw Deferred() }
            return .text(text)
        case .optionalLink:
            guard case .string(let text) = next(key), HashText.isLink(text) else { throw Deferred() }
            return .text(text)
        case .recordFields:
            guard case .array(let items) = next(key) else { throw Deferred() }
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else { throw Deferred() }
                names.append(name)
            }
            guard let fields = RecordFields(names: names) else { throw Deferred() }
            return .fields(fields)
        case .string, .integer, .importSource:
            throw Deferred()
        }
    }

    func finish() throws(Deferred) {
        guard index == fields.count else { throw Deferred() }
    }

    func refusal(_ refusal: FieldRefusal) -> Deferred { Deferred() }
}

extension EntityID {
    /// Parses the lowercase canonical text `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` only (the form the log
    /// stores); nil for anything else, including uppercase digits.
    init?(canonicalText text: String) {
        var text = text
        guard
            let id = text.withUTF8({ (bytes) -> EntityID? in
                guard bytes.count == 36 else { return nil }
                var high: UInt64 = 0
                var low: UInt64 = 0
                var nibbles = 0
                for index in 0..<36 {
                    let byte = bytes[index]
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard byte == 0x2D else { return nil }
                        continue
                    }
                    let nibble: UInt8
                    if byte &- 0x30 < 10 {
                        nibble = byte &- 0x30
                    } else if byte &- 0x61 < 6 {
                        nibble = byte &- 0x61 &+ 10
                    } else {
                        return nil
                    }
                    if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
                    nibbles += 1
                }
                return EntityID(high: high, low: low)
            })
        else { return nil }
        self = id
    }
}
