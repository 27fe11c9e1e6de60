/// The one declaration of an event type's payload: its persisted name, its current schema version, its
/// members in the catalog's order with their kinds, and how a ``DomainEvent`` is built from their values and
/// taken apart into them.
///
/// Everything that reads or writes payloads is driven by these declarations (``EventType/declaration``):
/// the canonical encoder (``DomainEvent/data``, and `DomainEvent.appendData(to:)` for the bytes of a line
/// read from a log), the strict general decoder (``EventPayloadReader``), the positional decoder over a
/// parsed object (``DomainEvent/decodeCanonical(_:data:)``) and the decoder straight from a line's bytes
/// (`ByteCursor.domainEvent(_:)`). `EventDeclarationTests` checks every declaration against its JSON Schema
/// in `Events/schema/` and round-trips random events through the encoder and each decoder.
///
/// A class, so that the decoders use a declaration in place rather than copying its members per event.
public final class EventDeclaration: Sendable {
    /// The persisted type, whose raw value is the name the log stores.
    public let type: EventType
    /// The schema version this build writes and decodes natively.
    public let version: Int
    /// The payload's members in the catalog's (and the canonical encoding's) order.
    public let fields: [EventField]
    /// Whether the fast decoders can read every member (no member of a general-only kind).
    let decodesFast: Bool
    /// The event from the members' values, or the member that makes the payload invalid and why.
    let build: @Sendable (inout PayloadValues) throws(FieldRefusal) -> DomainEvent
    /// The members' values of an event of this type; nil for an event of another type.
    let take: @Sendable (DomainEvent) -> PayloadValues?

    init(
        _ type: EventType, version: Int, fields: [EventField],
        build: @escaping @Sendable (inout PayloadValues) throws(FieldRefusal) -> DomainEvent,
        take: @escaping @Sendable (DomainEvent) -> PayloadValues?
    ) {
        precondition(fields.count <= PayloadValues.capacity, "\(type.rawValue) has more members than PayloadValues")
        self.type = type
        self.version = version
        self.fields = fields
        self.decodesFast = fields.allSatisfy { $0.kind.decodesFast }
        self.build = build
        self.take = take
    }

    /// The values of `event`'s members, in the order of ``fields``.
    func values(of event: DomainEvent) -> PayloadValues {
        guard let values = take(event) else { preconditionFailure("\(event) is not a \(type.rawValue) event") }
        return values
    }

    /// Reads the members in order from `source`, builds the event, then lets the source refuse what is left.
    func decode<Source: PayloadSource>(from source: inout Source) throws(Source.Refusal) -> DomainEvent {
        var values = PayloadValues()
        try fields.withUnsafeBufferPointer { (fields) throws(Source.Refusal) in
            for index in 0..<fields.count {
                values[index] = try source.value(of: fields[index])
            }
        }
        let event: DomainEvent
        do {
            event = try build(&values)
        } catch {
            throw source.refusal(error)
        }
        try source.finish()
        return event
    }
}

/// One member of a payload: its key and what its value holds.
///
/// Every part of it is trivially copied (the key is a `StaticString`, its quoted form a buffer allocated once
/// for the life of the process, since declarations are static), so that reading a field per member costs
/// no reference counting; nothing in it is ever written, hence `@unchecked Sendable`.
public struct EventField: @unchecked Sendable {
    /// The member's key as declared.
    private let key: StaticString
    /// What the value holds, which fixes how it is written, read and described by the JSON Schema.
    public let kind: FieldKind
    /// The key in quotes with its colon, `"recordId":`, as a canonical payload has it.
    let quotedKey: UnsafeBufferPointer<UInt8>

    /// The member's key, such as `recordId`.
    public var name: String { key.description }

    init(_ key: StaticString, _ kind: FieldKind) {
        self.key = key
        self.kind = kind
        self.quotedKey = EventField.immortal(Array("\"\(key)\":".utf8))
    }

    /// `bytes` in storage that lives as long as the process, for the tables the decoders read per event.
    static func immortal(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        return UnsafeBufferPointer(storage)
    }

    static func id(_ key: StaticString) -> EventField { EventField(key, .id) }
    static func optionalID(_ key: StaticString) -> EventField { EventField(key, .optionalID) }
    static func instant(_ key: StaticString) -> EventField { EventField(key, .instant) }
    static func optionalInstant(_ key: StaticString) -> EventField { EventField(key, .optionalInstant) }
    static func text(_ key: StaticString) -> EventField { EventField(key, .text) }
    static func optionalText(_ key: StaticString) -> EventField { EventField(key, .optionalText) }
    static func color(_ key: StaticString) -> EventField { EventField(key, .color) }
    static func seq(_ key: StaticString) -> EventField { EventField(key, .seq) }
    static func string(_ key: StaticString) -> EventField { EventField(key, .string) }
    static func integer(_ key: StaticString) -> EventField { EventField(key, .integer) }
    static func importSource(_ key: StaticString) -> EventField { EventField(key, .importSource) }
    static func device(_ key: StaticString) -> EventField { EventField(key, .device) }
    static func hash(_ key: StaticString) -> EventField { EventField(key, .hash) }
    static func optionalSeq(_ key: StaticString) -> EventField { EventField(key, .optionalSeq) }
    static func optionalLink(_ key: StaticString) -> EventField { EventField(key, .optionalLink) }
    static func recordFields(_ key: StaticString) -> EventField { EventField(key, .recordFields) }

    /// A record's complete values, as `record.edited`, `record.restored` and the import events carry them:
    /// `recordId`, `start`, `end` (absent while it runs), `tagId` (absent when untagged), `comment`.
    static let recordMembers: [EventField] = [
        .id("recordId"), .instant("start"), .optionalInstant("end"), .optionalID("tagId"), .optionalText("comment"),
    ]
}

/// What a payload member's value holds.
public enum FieldKind: Hashable, Sendable, CaseIterable {
    /// A lowercase canonical UUID (an ``EntityID``).
    case id
    /// An ``EntityID``, or the member is absent.
    case optionalID
    /// A canonical UTC instant with milliseconds.
    case instant
    /// An instant, or the member is absent.
    case optionalInstant
    /// A non-empty string (a tag name).
    case text
    /// A non-empty string, or the member is absent (a comment).
    case optionalText
    /// A color `#RRGGBB` in uppercase.
    case color
    /// An integer ≥ 1 that names a `seq`.
    case seq
    /// A `seq`, or the member is absent.
    case optionalSeq
    /// Any string; checked by the declaration's `build` (a time zone). Decoded by the general path only.
    case string
    /// Any integer; checked by the declaration's `build`. Decoded by the general path only.
    case integer
    /// An import's source, `{"system","identity"}` (``ImportSource``). Decoded by the general path only.
    case importSource
    /// A device id, 32 lowercase hex digits (``DeviceID``).
    case device
    /// The SHA-256 of a line, 64 lowercase hex digits (a device's head).
    case hash
    /// A hash-chain link as an event's `prev` holds it, 32 lowercase hex digits, or the member is absent.
    case optionalLink
    /// The members an edit set (``RecordFields``): a non-empty array of `"start"`, `"end"`, `"tagId"`,
    /// `"comment"`, in that order, without repeats.
    case recordFields

    /// Whether the member may be absent (it is then left out, never `null`).
    public var isOptional: Bool {
        switch self {
        case .optionalID, .optionalInstant, .optionalText, .optionalSeq, .optionalLink: return true
        default: return false
        }
    }

    /// Whether the fast decoders read it; a payload with another kind always takes the general path.
    var decodesFast: Bool { self != .string && self != .integer && self != .importSource }
}

/// The value of one payload member; ``absent`` for an optional member that is left out.
enum FieldValue: Hashable, Sendable {
    case absent
    case id(EntityID)
    case instant(Instant)
    case text(String)
    case integer(Int64)
    case source(ImportSource)
    case device(DeviceID)
    case fields(RecordFields)

    static func optionalID(_ id: EntityID?) -> FieldValue { id.map { .id($0) } ?? .absent }
    static func optionalInstant(_ instant: Instant?) -> FieldValue { instant.map { .instant($0) } ?? .absent }
    static func optionalText(_ text: String?) -> FieldValue { text.map { .text($0) } ?? .absent }
    static func optionalInteger(_ value: Int64?) -> FieldValue { value.map { .integer($0) } ?? .absent }

    /// Adds the member to a payload object in its canonical form; nothing when absent.
    func add(to object: inout JSONObjectBuilder, as name: String) {
        switch self {
        case .absent: break
        case .id(let id): object.add(name, .string(id.uuidString))
        case .instant(let instant): object.add(name, .string(instant.iso8601))
        case .text(let text): object.add(name, .string(text))
        case .integer(let value): object.add(name, .int(value))
        case .source(let source):
            object.add(
                name,
                .object([
                    JSONField("system", .string(source.system.rawValue)),
                    JSONField("identity", .string(source.identity)),
                ]))
        case .device(let device): object.add(name, device.json)
        case .fields(let fields): object.add(name, .array(fields.names.map { .string($0) }))
        }
    }
}

/// The values of one payload's members, by the position of their field in the declaration; stored inline
/// (no allocation per event).
struct PayloadValues: Equatable, Sendable {
    /// The most members a payload may have.
    static let capacity = 6

    private var slots: (FieldValue, FieldValue, FieldValue, FieldValue, FieldValue, FieldValue) =
        (.absent, .absent, .absent, .absent, .absent, .absent)

    init() {}

    init(
        _ first: FieldValue, _ second: FieldValue = .absent, _ third: FieldValue = .absent,
        _ fourth: FieldValue = .absent, _ fifth: FieldValue = .absent, _ sixth: FieldValue = .absent
    ) {
        slots = (first, second, third, fourth, fifth, sixth)
    }

    /// A record's complete values (``EventField/recordMembers``), then `extra`.
    init(record: Record, _ extra: FieldValue = .absent) {
        self.init(
            .id(record.id), .instant(record.start), .optionalInstant(record.end), .optionalID(record.tagId),
            .optionalText(record.comment), extra)
    }

    subscript(index: Int) -> FieldValue {
        get {
            switch index {
            case 0: return slots.0
            case 1: return slots.1
            case 2: return slots.2
            case 3: return slots.3
            case 4: return slots.4
            default: return slots.5
            }
        }
        set {
            switch index {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            case 3: slots.3 = newValue
            case 4: slots.4 = newValue
            default: slots.5 = newValue
            }
        }
    }

    static func == (lhs: PayloadValues, rhs: PayloadValues) -> Bool {
        (0..<capacity).allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// Moves the value of member `index` out, leaving it absent (no copy of its string).
    private mutating func take(_ index: Int) -> FieldValue {
        var value = FieldValue.absent
        switch index {
        case 0: swap(&value, &slots.0)
        case 1: swap(&value, &slots.1)
        case 2: swap(&value, &slots.2)
        case 3: swap(&value, &slots.3)
        case 4: swap(&value, &slots.4)
        default: swap(&value, &slots.5)
        }
        return value
    }

    // Typed access for `build`, each moving the member's value out; a value of another kind is a declaration
    // whose `build` does not match its `fields`, a programming error that the round-trip tests catch.

    mutating func id(_ index: Int) -> EntityID {
        guard let id = optionalID(index) else { preconditionFailure("member \(index) is not an id") }
        return id
    }

    mutating func optionalID(_ index: Int) -> EntityID? {
        switch take(index) {
        case .absent: return nil
        case .id(let id): return id
        default: preconditionFailure("member \(index) is not an id")
        }
    }

    mutating func instant(_ index: Int) -> Instant {
        guard let instant = optionalInstant(index) else { preconditionFailure("member \(index) is not an instant") }
        return instant
    }

    mutating func optionalInstant(_ index: Int) -> Instant? {
        switch take(index) {
        case .absent: return nil
        case .instant(let instant): return instant
        default: preconditionFailure("member \(index) is not an instant")
        }
    }

    mutating func text(_ index: Int) -> String {
        guard let text = optionalText(index) else { preconditionFailure("member \(index) is not a string") }
        return text
    }

    mutating func optionalText(_ index: Int) -> String? {
        switch take(index) {
        case .absent: return nil
        case .text(let text): return text
        default: preconditionFailure("member \(index) is not a string")
        }
    }

    mutating func integer(_ index: Int) -> Int64 {
        guard let value = optionalInteger(index) else { preconditionFailure("member \(index) is not an integer") }
        return value
    }

    mutating func optionalInteger(_ index: Int) -> Int64? {
        switch take(index) {
        case .absent: return nil
        case .integer(let value): return value
        default: preconditionFailure("member \(index) is not an integer")
        }
    }

    mutating func source(_ index: Int) -> ImportSource {
        guard case .source(let source) = take(index) else { preconditionFailure("member \(index) is not a source") }
        return source
    }

    mutating func device(_ index: Int) -> DeviceID {
        guard case .device(let device) = take(index) else { preconditionFailure("member \(index) is not a device") }
        return device
    }

    mutating func recordFields(_ index: Int) -> RecordFields {
        guard case .fields(let fields) = take(index) else { preconditionFailure("member \(index) is not fields") }
        return fields
    }

    /// The record of a payload that starts with ``EventField/recordMembers``.
    mutating func record() -> Record {
        Record(id: id(0), start: instant(1), end: optionalInstant(2), tagId: optionalID(3), comment: optionalText(4))
    }
}

/// Why a declaration's `build` refuses the values it was given: the member and the problem, worded as the
/// strict decoder's messages are (``EventPayloadReader/fail(_:_:)``).
struct FieldRefusal: Error {
    var member: String
    var problem: String
}

/// Where a declaration's ``EventDeclaration/decode(from:)`` reads a payload's members from: the strict
/// reader (which throws ``DomainError``) or one of the fast decoders (which defer to it).
protocol PayloadSource {
    associatedtype Refusal: Error

    /// The value of the next member, which `field` declares; ``FieldValue/absent`` for an optional member
    /// that is not there.
    mutating func value(of field: EventField) throws(Refusal) -> FieldValue

    /// Refuses what is left after the last member (extra members, trailing bytes).
    mutating func finish() throws(Refusal)

    /// The error for a payload the declaration's `build` refuses.
    func refusal(_ refusal: FieldRefusal) -> Refusal
}

/// A fast decoder's answer to anything it does not accept: the general decoder decides instead.
struct Deferred: Error {}
