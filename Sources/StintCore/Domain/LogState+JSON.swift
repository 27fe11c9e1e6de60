/// The JSON forms of the state's parts, shared by the compact checkpoint's undo entries, the read models and
/// the projection checkpoints, and their reader (``CheckpointReader``). The whole state's own checkpoint is the
/// compact binary form (``LogState/compactCheckpoint``).
extension LogState {
    package static func json(_ tag: Tag) -> JSON {
        var object = JSONObjectBuilder()
        object.add("id", .string(tag.id.uuidString))
        object.add("name", .string(tag.name))
        object.add("color", .string(tag.color))
        if tag.isArchived { object.add("archived", .bool(true)) }
        if tag.isDeleted { object.add("deleted", .bool(true)) }
        return object.json
    }

    package static func json(_ record: Record) -> JSON {
        var object = JSONObjectBuilder()
        object.add("id", .string(record.id.uuidString))
        object.add("start", .string(record.start.iso8601))
        object.add("end", record.end?.iso8601)
        object.add("tagId", record.tagId?.uuidString)
        object.add("comment", record.comment)
        return object.json
    }

    package static func json(_ provenance: ImportProvenance) -> JSON {
        guard case .object(var fields) = json(provenance.values) else { return .null }
        fields.append(JSONField("system", .string(provenance.source.system.rawValue)))
        fields.append(JSONField("identity", .string(provenance.source.identity)))
        if let name = provenance.tagName { fields.append(JSONField("tagName", .string(name))) }
        return .object(fields)
    }

    package static func json(_ entry: UndoEntry) -> JSON {
        .object([
            JSONField("batchStart", .int(entry.batchStart)),
            JSONField(
                "inverses",
                .array(
                    entry.inverses.map { event in
                        let draft = event.draft
                        return .object([
                            JSONField("type", .string(draft.type)), JSONField("v", .int(Int64(draft.version))),
                            JSONField("data", draft.data),
                        ])
                    })),
        ])
    }
}

extension LogState.OpenBatch.Target {
    var name: String {
        switch self {
        case .none: return "none"
        case .undo: return "undo"
        case .redo: return "redo"
        }
    }

    init?(name: String) {
        switch name {
        case "none": self = .none
        case "undo": self = .undo
        case "redo": self = .redo
        default: return nil
        }
    }
}

/// Reads the members of a checkpoint, turning every shape error into `invalidCheckpoint`.
package struct CheckpointReader {
    package let json: JSON

    package init(json: JSON) {
        self.json = json
    }

    func fail(_ what: String) -> DomainError {
        DomainError(.invalidCheckpoint, "the checkpoint's \(what) is not readable; it will be rebuilt")
    }

    func member(_ key: String, in object: JSON) throws(DomainError) -> JSON {
        guard let value = object[key] else { throw fail(key) }
        return value
    }

    func int(_ key: String, in object: JSON) throws(DomainError) -> Int64 {
        guard let value = try member(key, in: object).intValue else { throw fail(key) }
        return value
    }

    func string(_ key: String, in object: JSON) throws(DomainError) -> String {
        guard let value = try member(key, in: object).stringValue else { throw fail(key) }
        return value
    }

    func array(_ key: String, in object: JSON) throws(DomainError) -> [JSON] {
        guard let value = try member(key, in: object).arrayValue else { throw fail(key) }
        return value
    }

    func id(_ value: JSON) throws(DomainError) -> EntityID {
        guard let text = value.stringValue, let id = EntityID(text) else { throw fail("id") }
        return id
    }

    func instant(_ value: JSON) throws(DomainError) -> Instant {
        guard let text = value.stringValue, let instant = Instant(canonical: text) else { throw fail("instant") }
        return instant
    }

    func optionalID(_ key: String, in object: JSON) throws(DomainError) -> EntityID? {
        guard let value = object[key] else { return nil }
        return try id(value)
    }

    func tag(_ value: JSON) throws(DomainError) -> Tag {
        Tag(
            id: try id(try member("id", in: value)), name: try string("name", in: value),
            color: try string("color", in: value), isArchived: value["archived"]?.boolValue ?? false,
            isDeleted: value["deleted"]?.boolValue ?? false)
    }

    func record(_ value: JSON) throws(DomainError) -> Record {
        Record(
            id: try id(try member("id", in: value)), start: try instant(try member("start", in: value)),
            end: try value["end"].map { (end) throws(DomainError) in try instant(end) },
            tagId: try optionalID("tagId", in: value), comment: value["comment"]?.stringValue)
    }

    package func provenance(_ value: JSON) throws(DomainError) -> ImportProvenance {
        guard let system = ImportSystem(rawValue: try string("system", in: value)) else { throw fail("imports") }
        return ImportProvenance(
            source: ImportSource(system: system, identity: try string("identity", in: value)),
            values: try record(value), tagName: value["tagName"]?.stringValue)
    }

    package func undoEntry(_ value: JSON) throws(DomainError) -> UndoEntry {
        let inverses = try array("inverses", in: value).map { (item) throws(DomainError) -> DomainEvent in
            guard let type = item["type"]?.stringValue, let version = item["v"]?.intValue, let data = item["data"]
            else { throw fail("undo stack") }
            return try DomainEvent(type: type, version: Int(version), data: data)
        }
        return UndoEntry(batchStart: try int("batchStart", in: value), inverses: inverses)
    }
}
