extension DomainEvent {
    /// Decodes the payload of a current-version event whose members are in the catalog's order, reading the
    /// fields by position instead of through a dictionary; nil defers to the general, strict path.
    ///
    /// Accepts only what ``init(type:version:data:upgrades:)`` accepts for the same payload, and gives the
    /// same event: ids must be lowercase canonical UUIDs, instants canonical, names and comments non-empty,
    /// colors `#RRGGBB`, and no member may be missing, extra, null or out of order (any of which defers).
    /// `log.created` (a time zone lookup, once per log) and the import events (rare) always defer.
    static func decodeCanonical(_ type: EventType, data: JSON) -> DomainEvent? {
        guard case .object(let fields) = data else { return nil }
        var r = PositionalPayload(fields: fields)
        let event: DomainEvent
        switch type {
        case .logCreated, .recordImported, .recordReimported, .recordUnimported:
            return nil
        case .tagCreated:
            guard let id = r.id("tagId"), let name = r.nonEmptyString("name"), let color = r.color("color") else {
                return nil
            }
            event = .tagCreated(tagId: id, name: name, color: color)
        case .tagRenamed:
            guard let id = r.id("tagId"), let name = r.nonEmptyString("name") else { return nil }
            event = .tagRenamed(tagId: id, name: name)
        case .tagArchived, .tagUnarchived, .tagDeleted, .tagRestored:
            guard let id = r.id("tagId") else { return nil }
            switch type {
            case .tagArchived: event = .tagArchived(tagId: id)
            case .tagUnarchived: event = .tagUnarchived(tagId: id)
            case .tagDeleted: event = .tagDeleted(tagId: id)
            default: event = .tagRestored(tagId: id)
            }
        case .timerStarted:
            guard let id = r.id("recordId"), let start = r.instant("start"), let tagId = r.optionalID("tagId"),
                let comment = r.optionalNonEmptyString("comment")
            else { return nil }
            event = .timerStarted(recordId: id, start: start, tagId: tagId, comment: comment)
        case .timerStopped:
            guard let id = r.id("recordId"), let end = r.instant("end") else { return nil }
            event = .timerStopped(recordId: id, end: end)
        case .timerCanceled, .recordDeleted:
            guard let id = r.id("recordId") else { return nil }
            event = type == .timerCanceled ? .timerCanceled(recordId: id) : .recordDeleted(recordId: id)
        case .recordTracked:
            guard let id = r.id("recordId"), let start = r.instant("start"), let end = r.instant("end"),
                let tagId = r.optionalID("tagId"), let comment = r.optionalNonEmptyString("comment")
            else { return nil }
            event = .recordTracked(recordId: id, start: start, end: end, tagId: tagId, comment: comment)
        case .recordEdited, .recordRestored:
            guard let id = r.id("recordId"), let start = r.instant("start"), let end = r.optionalInstant("end"),
                let tagId = r.optionalID("tagId"), let comment = r.optionalNonEmptyString("comment")
            else { return nil }
            let record = Record(id: id, start: start, end: end, tagId: tagId, comment: comment)
            event = type == .recordEdited ? .recordEdited(record) : .recordRestored(record)
        case .commandUndone, .commandRedone:
            guard let tx = r.integer("tx"), tx >= 1 else { return nil }
            event = type == .commandUndone ? .commandUndone(tx: tx) : .commandRedone(tx: tx)
        }
        return r.isFinished ? event : nil
    }
}

/// Reads a payload's members in order. Every accessor returns nil when the member is missing or not
/// acceptable; the optional ones return `.some(nil)` when the member is absent, so `nil` always means
/// "defer to the general decoder".
private struct PositionalPayload {
    let fields: [JSONField]
    var index = 0

    var isFinished: Bool { index == fields.count }

    private mutating func next(_ key: String) -> JSON? {
        guard index < fields.count, fields[index].key == key else { return nil }
        index += 1
        return fields[index - 1].value
    }

    private func isNext(_ key: String) -> Bool {
        index < fields.count && fields[index].key == key
    }

    mutating func id(_ key: String) -> EntityID? {
        guard case .string(let text) = next(key) else { return nil }
        return EntityID(canonicalText: text)
    }

    mutating func optionalID(_ key: String) -> EntityID?? {
        guard isNext(key) else { return .some(nil) }
        guard let id = id(key) else { return nil }
        return .some(id)
    }

    mutating func instant(_ key: String) -> Instant? {
        guard case .string(var text) = next(key) else { return nil }
        return text.withUTF8 { Instant(canonicalBytes: $0) }
    }

    mutating func optionalInstant(_ key: String) -> Instant?? {
        guard isNext(key) else { return .some(nil) }
        guard let instant = instant(key) else { return nil }
        return .some(instant)
    }

    mutating func nonEmptyString(_ key: String) -> String? {
        guard case .string(let text) = next(key), !text.isEmpty else { return nil }
        return text
    }

    mutating func optionalNonEmptyString(_ key: String) -> String?? {
        guard isNext(key) else { return .some(nil) }
        guard let text = nonEmptyString(key) else { return nil }
        return .some(text)
    }

    mutating func color(_ key: String) -> String? {
        guard case .string(let text) = next(key), InputLimits.isCanonicalColor(text) else { return nil }
        return text
    }

    mutating func integer(_ key: String) -> Int64? {
        guard case .int(let value) = next(key) else { return nil }
        return value
    }
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
