/// Reads the members of one event payload strictly, naming the member in every error.
///
/// Every member must be read exactly once; ``finish()`` refuses members nobody asked for, so a payload
/// with an extra member is an error rather than silently dropped data. Optional members must be absent
/// rather than `null`, as the canonical encoding writes them. As a ``PayloadSource`` it reads the members an
/// ``EventDeclaration`` lists, in their order, each with the check of its ``FieldKind``.
struct EventPayloadReader: PayloadSource {
    let type: EventType
    let version: Int
    private var fields: [String: JSON] = [:]

    init(type: EventType, version: Int, data: JSON) throws(DomainError) {
        self.type = type
        self.version = version
        guard let members = data.objectFields else {
            throw DomainError(.invalidEventData, "\(type.rawValue) v\(version): the payload must be a JSON object")
        }
        for field in members {
            guard fields.updateValue(field.value, forKey: field.key) == nil else {
                throw fail(field.key, "appears twice")
            }
        }
    }

    func fail(_ member: String, _ problem: String) -> DomainError {
        DomainError(
            .invalidEventData,
            "\(type.rawValue) v\(version): member \"\(member)\" \(problem); the log was not written by a correct "
                + "Stint writer (`stint verify` locates the damage)",
            member: member)
    }

    private mutating func take(_ member: String) throws(DomainError) -> JSON? {
        guard let value = fields.removeValue(forKey: member) else { return nil }
        if value == .null { throw fail(member, "is null; an absent value is written by leaving the member out") }
        return value
    }

    private mutating func require(_ member: String) throws(DomainError) -> JSON {
        guard let value = try take(member) else { throw fail(member, "is missing") }
        return value
    }

    mutating func string(_ member: String) throws(DomainError) -> String {
        guard let text = try require(member).stringValue else { throw fail(member, "must be a string") }
        return text
    }

    mutating func nonEmptyString(_ member: String) throws(DomainError) -> String {
        let text = try string(member)
        guard !text.isEmpty else { throw fail(member, "must not be empty") }
        return text
    }

    mutating func optionalNonEmptyString(_ member: String) throws(DomainError) -> String? {
        guard let value = try take(member) else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw fail(member, "must be a non-empty string") }
        return text
    }

    /// A member whose value must be a JSON object (read it with another reader to check its members).
    mutating func object(_ member: String) throws(DomainError) -> JSON {
        let value = try require(member)
        guard case .object = value else { throw fail(member, "must be an object") }
        return value
    }

    mutating func integer(_ member: String) throws(DomainError) -> Int64 {
        guard case .int(let value) = try require(member) else { throw fail(member, "must be an integer") }
        return value
    }

    mutating func id(_ member: String) throws(DomainError) -> EntityID {
        try parseID(member, try require(member))
    }

    mutating func optionalID(_ member: String) throws(DomainError) -> EntityID? {
        guard let value = try take(member) else { return nil }
        return try parseID(member, value)
    }

    private func parseID(_ member: String, _ value: JSON) throws(DomainError) -> EntityID {
        guard let text = value.stringValue, let id = EntityID(text), id.uuidString == text else {
            throw fail(member, "must be a lowercase UUID such as 3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f")
        }
        return id
    }

    mutating func instant(_ member: String) throws(DomainError) -> Instant {
        try parseInstant(member, try require(member))
    }

    mutating func optionalInstant(_ member: String) throws(DomainError) -> Instant? {
        guard let value = try take(member) else { return nil }
        return try parseInstant(member, value)
    }

    private func parseInstant(_ member: String, _ value: JSON) throws(DomainError) -> Instant {
        guard let text = value.stringValue, let instant = Instant(canonical: text) else {
            throw fail(member, "must be a UTC instant with milliseconds such as 2026-11-29T13:07:09.123Z")
        }
        return instant
    }

    mutating func color(_ member: String) throws(DomainError) -> String {
        let text = try string(member)
        guard InputLimits.isCanonicalColor(text) else { throw fail(member, "must be a color #RRGGBB in uppercase") }
        return text
    }

    /// Refuses any member that was not read.
    func finish() throws(DomainError) {
        if let extra = fields.keys.sorted().first { throw fail(extra, "is not part of this event type") }
    }

    /// Reads the member `field` declares, with the check of its kind.
    mutating func value(of field: EventField) throws(DomainError) -> FieldValue {
        let member = field.name
        switch field.kind {
        case .id: return .id(try id(member))
        case .optionalID: return .optionalID(try optionalID(member))
        case .instant: return .instant(try instant(member))
        case .optionalInstant: return .optionalInstant(try optionalInstant(member))
        case .text: return .text(try nonEmptyString(member))
        case .optionalText: return .optionalText(try optionalNonEmptyString(member))
        case .color: return .text(try color(member))
        case .seq:
            let value = try integer(member)
            guard value >= 1 else { throw fail(member, "must be a seq (an integer ≥ 1)") }
            return .integer(value)
        case .optionalSeq:
            guard let value = try take(member) else { return .absent }
            guard case .int(let seq) = value, seq >= 1 else { throw fail(member, "must be a seq (an integer ≥ 1)") }
            return .integer(seq)
        case .string: return .text(try string(member))
        case .integer: return .integer(try integer(member))
        case .importSource: return .source(try importSource(member))
        case .device:
            guard let device = DeviceID(try string(member)) else {
                throw fail(member, "must be a device id: 32 lowercase hex digits")
            }
            return .device(device)
        case .hash:
            let text = try string(member)
            guard HashText.isSHA256(text) else { throw fail(member, "must be a SHA-256: 64 lowercase hex digits") }
            return .text(text)
        case .optionalLink:
            guard let value = try take(member) else { return .absent }
            guard let text = value.stringValue, HashText.isLink(text) else {
                throw fail(member, "must be a hash-chain link as prev holds it: 32 lowercase hex digits")
            }
            return .text(text)
        case .recordFields:
            guard case .array(let items) = try require(member) else { throw fail(member, "must be an array") }
            let names = items.compactMap(\.stringValue)
            guard names.count == items.count, let fields = RecordFields(names: names) else {
                throw fail(
                    member, "must name start, end, tagId or comment, at least one, each once, in that order")
            }
            return .fields(fields)
        }
    }

    func refusal(_ refusal: FieldRefusal) -> DomainError { fail(refusal.member, refusal.problem) }

    /// Reads an import's source, `{"system","identity"}`; every problem inside it names the member itself.
    private mutating func importSource(_ member: String) throws(DomainError) -> ImportSource {
        let object = try object(member)
        let system: String
        let identity: String
        do {
            var reader = try EventPayloadReader(type: type, version: version, data: object)
            system = try reader.string("system")
            identity = try reader.nonEmptyString("identity")
            try reader.finish()
        } catch {
            throw fail(member, "is not {\"system\",\"identity\"}: its member \"\(error.member ?? "?")\" is wrong")
        }
        guard let known = ImportSystem(rawValue: system) else {
            throw fail(
                member, "names the system \"\(system)\", which this Stint does not import from (a newer Stint?)")
        }
        return ImportSource(system: known, identity: identity)
    }
}
