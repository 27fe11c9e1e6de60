import Foundation
import Testing

@testable import StintCore

/// The event declarations (`EventType.declaration`) against what is derived from them or written beside
/// them: the JSON Schemas in Events/schema, the encoder and every decoder.
@Suite struct EventDeclarationTests {
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["STINT_TEST_SEED"], let seed = UInt64(text) { return [seed] }
        return [0xDEC1_A4ED, UInt64.random(in: 0...UInt64.max)]
    }

    static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Events/schema")

    static func schema(_ name: String) throws -> JSON {
        try JSON.parse(Array(Data(contentsOf: schemas.appendingPathComponent("\(name).schema.json"))))
    }

    // MARK: The schemas

    /// The schema of a type's current version: `<type>.schema.json` for version 1, `<type>.v<N>.schema.json`
    /// after (Events/schema/README.md).
    static func schemaName(_ declaration: EventDeclaration) -> String {
        declaration.version == 1 ? declaration.type.rawValue : "\(declaration.type.rawValue).v\(declaration.version)"
    }

    @Test func everyTypeHasASchemaAndEverySchemaAType() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemas.path)
            .filter { $0.hasSuffix(".schema.json") }.map { String($0.dropLast(".schema.json".count)) }
        for type in EventType.allCases {
            #expect(type.declaration.type == type)
            #expect(files.contains(Self.schemaName(type.declaration)), "\(type.rawValue) has no schema")
        }
        let known = Set(EventType.allCases.map(\.rawValue))
        for file in files where file != "envelope" {
            let type = file.split(separator: ".v").first.map(String.init) ?? file
            #expect(known.contains(type), "\(file).schema.json names no declared type")
        }
    }

    /// Each schema's payload: the declared members in order, the non-optional ones required, nothing else
    /// allowed, and each member's value described as its kind accepts it.
    @Test(arguments: EventType.allCases)
    func theSchemaOfEachTypeIsItsDeclaration(type: EventType) throws {
        let declaration = type.declaration
        let schema = try Self.schema(Self.schemaName(declaration))
        let definitions = try #require(try Self.schema("envelope")["$defs"])
        let name = type.rawValue
        #expect(schema["$id"] == .string("\(Self.schemaName(declaration)).schema.json"))
        #expect(schema["title"] == .string("\(name) v\(declaration.version)"))
        #expect(schema["$ref"] == .string("envelope.schema.json"))
        let properties = try #require(schema["properties"])
        #expect(properties["type"] == .object([JSONField("const", .string(name))]))
        #expect(properties["v"] == .object([JSONField("const", .int(Int64(declaration.version)))]))
        let data = try #require(properties["data"])
        #expect(data["type"] == .string("object"))
        #expect(data["additionalProperties"] == .bool(false), "\(name)")
        let members = try #require(data["properties"]?.objectFields)
        #expect(members.map(\.key) == declaration.fields.map(\.name), "\(name): members or their order")
        let required = declaration.fields.filter { !$0.kind.isOptional }.map { JSON.string($0.name) }
        #expect(data["required"] == .array(required), "\(name): required members")
        for (member, field) in zip(members, declaration.fields) {
            let resolved = try Self.resolve(member.value, definitions)
            #expect(
                Self.describes(resolved, field.kind),
                "\(name): member \(field.name) is not a \(field.kind): \(resolved)")
        }
    }

    /// The shapes of the envelope's definitions that each kind of member accepts.
    static let uuidPattern = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    static let instantPattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#
    static let colorPattern = "^#[0-9A-F]{6}$"

    /// Whether a member's schema (its `$ref` resolved, `description` dropped) says what `kind` accepts.
    static func describes(_ schema: [String: JSON], _ kind: FieldKind) -> Bool {
        func string(pattern: String) -> Bool {
            schema == ["type": .string("string"), "pattern": .string(pattern)]
        }
        switch kind {
        case .id, .optionalID: return string(pattern: uuidPattern)
        case .instant, .optionalInstant: return string(pattern: instantPattern)
        case .color: return string(pattern: colorPattern)
        case .text, .optionalText: return schema == ["type": .string("string"), "minLength": .int(1)]
        case .seq, .optionalSeq: return schema == ["type": .string("integer"), "minimum": .int(1)]
        case .string: return schema["type"] == .string("string")
        case .integer:
            if case .int = schema["const"] { return schema.count == 1 }
            return schema["type"] == .string("integer")
        case .device: return string(pattern: "^[0-9a-f]{32}$")
        case .hash: return string(pattern: "^[0-9a-f]{64}$")
        case .optionalLink: return string(pattern: "^[0-9a-f]{32}$")
        case .recordFields:
            let names = JSON.array(RecordFields.named.map { .string($0.name) })
            return schema["type"] == .string("array") && schema["minItems"] == .int(1)
                && schema["uniqueItems"] == .bool(true)
                && schema["items"] == .object([JSONField("enum", names)])
        case .importSource:
            let systems = JSON.array(ImportSystem.allCases.map { .string($0.rawValue) })
            let identity: JSON = .object([
                JSONField("type", .string("string")), JSONField("minLength", .int(1)),
            ])
            guard schema["type"] == .string("object"), schema["additionalProperties"] == .bool(false),
                schema["required"] == .array([.string("system"), .string("identity")]),
                let members = schema["properties"]?.objectFields, members.map(\.key) == ["system", "identity"]
            else { return false }
            return withoutDescription(members[0].value) == .object([JSONField("enum", systems)])
                && withoutDescription(members[1].value) == identity
        }
    }

    static func withoutDescription(_ schema: JSON) -> JSON {
        .object((schema.objectFields ?? []).filter { $0.key != "description" })
    }

    /// A member's schema as a dictionary, its `$ref` to the envelope's definitions replaced by what it names.
    static func resolve(_ schema: JSON, _ definitions: JSON) throws -> [String: JSON] {
        var result: [String: JSON] = [:]
        for field in schema.objectFields ?? [] where field.key != "description" {
            if field.key == "$ref", let reference = field.value.stringValue {
                let prefix = "envelope.schema.json#/$defs/"
                #expect(reference.hasPrefix(prefix), "\(reference)")
                let definition = try #require(definitions[String(reference.dropFirst(prefix.count))])
                for inner in definition.objectFields ?? [] where inner.key != "description" {
                    result[inner.key] = inner.value
                }
            } else {
                result[field.key] = field.value
            }
        }
        return result
    }

    /// The envelope schema lists the members of `EnvelopeKey`, in its order, and requires all but the
    /// optional ones.
    @Test func theEnvelopeSchemaIsEnvelopeKey() throws {
        let schema = try Self.schema("envelope")
        #expect(schema["properties"]?.objectFields?.map(\.key) == EnvelopeKey.allCases.map(\.rawValue))
        let required = EnvelopeKey.allCases.filter { !$0.isOptional }.map { JSON.string($0.rawValue) }
        #expect(schema["required"] == .array(required))
        #expect(schema["additionalProperties"] == .bool(false))
        // Log format 2's pair: both or neither, each as strict as its parser (`DeviceID`, `HLC`).
        #expect(
            schema["dependentRequired"]
                == .object([
                    JSONField("device", .array([.string("hlc")])), JSONField("hlc", .array([.string("device")])),
                ]))
        let properties = try #require(schema["properties"])
        #expect(
            Self.withoutDescription(try #require(properties["device"]))
                == .object([
                    JSONField("type", .string("string")), JSONField("pattern", .string("^[0-9a-f]{32}$")),
                ]))
        func bounded(_ maximum: Int64) -> JSON {
            .object([
                JSONField("type", .string("integer")), JSONField("minimum", .int(0)),
                JSONField("maximum", .int(maximum)),
            ])
        }
        #expect(
            Self.withoutDescription(try #require(properties["hlc"]))
                == .object([
                    JSONField("type", .string("array")),
                    JSONField("prefixItems", .array([bounded(HLC.maximumMilliseconds), bounded(Int64(UInt32.max))])),
                    JSONField("items", .bool(false)), JSONField("minItems", .int(2)),
                ]))
    }

    /// The line encoder writes every member of `EnvelopeKey` in its order, and the canonical decoder reads
    /// them all: a member added to `EnvelopeKey` and not to both fails here.
    @Test func theEncoderAndTheCanonicalDecoderFollowEnvelopeKey() throws {
        // Every optional member present.
        let event = RecordedEvent(
            seq: 9, at: Instant(milliseconds: 1_800_000_000_000), type: EventType.commandUndone.rawValue, version: 1,
            tx: 8, clock: Instant(milliseconds: 1_799_999_999_000), device: DeviceID(high: 0x0123, low: .max),
            hlc: HLC(milliseconds: 1_800_000_000_001, counter: 4), prev: String(repeating: "ab", count: 16),
            data: DomainEvent.commandUndone(tx: 3).data)
        let line = event.encodedLine()
        #expect(try JSON.parse(line).objectFields?.map(\.key) == EnvelopeKey.allCases.map(\.rawValue))
        let fast = line.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0) }
        #expect(fast == event)
        #expect(try RecordedEvent(json: JSON.parse(line)) == event)
    }

    // MARK: The encoder and the decoders

    /// For every declared type, random events (optional members present or absent, strings with every
    /// kind of character) give the same event back through every decoder: the strict general one, the
    /// positional one over the parsed payload, the one straight from the line's bytes, and the public path
    /// from a line. The fast decoders decode every type whose members they all read, and defer on the others.
    @Test(arguments: seeds)
    func randomEventsOfEveryTypeSurviveTheEncoderAndEachDecoder(seed: UInt64) throws {
        print("EventDeclarationTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var random = SplitMix64(seed: seed)
        for type in EventType.allCases {
            let declaration = type.declaration
            for round in 0..<60 {
                let event = Self.randomEvent(declaration, using: &random)
                let note = "seed \(seed), \(type.rawValue) #\(round): \(event)"
                #expect(event.type == type, "\(note)")
                let data = event.data
                #expect(declaration.values(of: event) == Self.values(of: data, declaration), "\(note)")
                var values = declaration.values(of: event)
                #expect(try declaration.build(&values) == event, "\(note)")
                // The bytes written straight from the declaration are those of the payload's JSON.
                var direct: [UInt8] = []
                event.appendData(to: &direct)
                var viaJSON: [UInt8] = []
                data.append(to: &viaJSON)
                #expect(direct == viaJSON, "\(note)")

                #expect(
                    try DomainEvent(type: type.rawValue, version: declaration.version, data: data) == event, "\(note)")
                let positional = DomainEvent.decodeCanonical(type, data: data)
                #expect(positional == (declaration.decodesFast ? event : nil), "\(note)")

                let recorded = RecordedEvent(
                    seq: 7, at: Instant(milliseconds: 1_800_000_000_000), type: type.rawValue,
                    version: declaration.version, prev: RecordedEvent.genesisPrev, data: data)
                let line = recorded.encodedLine()
                let fast = line.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0) }
                if declaration.decodesFast {
                    #expect(fast?.decodedEvent == event, "\(note)")
                } else {
                    #expect(fast?.decodedEvent == nil, "\(note)")
                }
                let read = try RecordedEvent(line: line)
                #expect(read == recorded, "\(note)")
                #expect(try DomainEvent(read) == event, "\(note)")
                #expect(read.encodedLine() == line, "\(note)")
                #expect(try JSON.parse(line)["data"] == data, "\(note)")
            }
        }
    }

    /// The members of an encoded payload, as the declaration's values.
    static func values(of data: JSON, _ declaration: EventDeclaration) -> PayloadValues {
        var values = PayloadValues()
        let members = data.objectFields ?? []
        var next = 0
        for (index, field) in declaration.fields.enumerated() {
            guard next < members.count, members[next].key == field.name else {
                #expect(field.kind.isOptional, "\(declaration.type.rawValue): \(field.name) is missing from \(data)")
                continue
            }
            let value = members[next].value
            next += 1
            switch field.kind {
            case .id, .optionalID: values[index] = .id(EntityID(value.stringValue ?? "")!)
            case .instant, .optionalInstant: values[index] = .instant(Instant(canonical: value.stringValue ?? "")!)
            case .text, .optionalText, .color, .string: values[index] = .text(value.stringValue!)
            case .seq, .optionalSeq, .integer: values[index] = .integer(value.intValue!)
            case .hash, .optionalLink: values[index] = .text(value.stringValue!)
            case .device: values[index] = .device(DeviceID(value.stringValue!)!)
            case .recordFields:
                values[index] = .fields(RecordFields(names: value.arrayValue!.map { $0.stringValue! })!)
            case .importSource:
                values[index] = .source(
                    ImportSource(
                        system: ImportSystem(rawValue: value["system"]!.stringValue!)!,
                        identity: value["identity"]!.stringValue!))
            }
        }
        #expect(next == members.count, "\(declaration.type.rawValue): members not declared in \(data)")
        return values
    }

    /// An event of the declared type from random values of its members' kinds (drawn again when the
    /// declaration refuses them, as `log.created` refuses a format other than 1).
    static func randomEvent(_ declaration: EventDeclaration, using random: inout SplitMix64) -> DomainEvent {
        for _ in 0..<10_000 {
            var values = PayloadValues()
            for (index, field) in declaration.fields.enumerated() {
                values[index] = randomValue(field.kind, using: &random)
            }
            if let event = try? declaration.build(&values) { return event }
        }
        preconditionFailure("\(declaration.type.rawValue): no random values were accepted")
    }

    static func randomValue(_ kind: FieldKind, using random: inout SplitMix64) -> FieldValue {
        if kind.isOptional && Bool.random(using: &random) { return .absent }
        switch kind {
        case .id, .optionalID: return .id(EntityID(high: random.next(), low: random.next()))
        case .instant, .optionalInstant:
            return .instant(Instant(milliseconds: Int64.random(in: 0...4_102_444_800_000, using: &random)))
        case .text, .optionalText: return .text(randomText(using: &random))
        case .color:
            let digits = Array("0123456789ABCDEF")
            return .text("#" + String((0..<6).map { _ in digits.randomElement(using: &random)! }))
        case .seq, .optionalSeq: return .integer(Int64.random(in: 1...999_999_999_999_999_999, using: &random))
        case .string:
            return .text(["Europe/Berlin", "UTC", "America/New_York", "Asia/Kolkata"].randomElement(using: &random)!)
        case .integer: return .integer(Int64.random(in: 1...7, using: &random))
        case .device: return .device(DeviceID(high: random.next(), low: random.next()))
        case .hash, .optionalLink:
            let digits = Array("0123456789abcdef")
            return .text(String((0..<(kind == .hash ? 64 : 32)).map { _ in digits.randomElement(using: &random)! }))
        case .recordFields:
            return .fields(RecordFields(rawValue: UInt8.random(in: 1...15, using: &random)))
        case .importSource:
            return .source(
                ImportSource(
                    system: ImportSystem.allCases.randomElement(using: &random)!,
                    identity: randomText(using: &random)))
        }
    }

    /// A non-empty string that needs every escape of the canonical encoding now and then.
    static func randomText(using random: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{01}", "\u{7F}", "é", "🎧", "{", ":"]
        let count = Int.random(in: 1...24, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
}
