/// Saving the folded state so that a later read can start from it instead of from event 1.
///
/// The form is canonical JSON (see ``checkpointJSON``); its layout is versioned by
/// ``checkpointVersion``, and a checkpoint of another version is ignored and rebuilt, never migrated:
/// checkpoints are caches, the log is the truth.
extension LogState {
    /// The version of the checkpoint layout and of the fold that produced it. Bump it whenever the fold's
    /// rules or ``LogState``'s fields change, so that checkpoints written by older builds are rebuilt.
    public static let checkpointVersion = 3

    /// The state as a JSON object: settings, tags, records, deleted ids, running ids, recent tags, the
    /// provenance of imported records, the undo and redo stacks, and the position (`lastSeq`, `lastAt`, the open batch). Records and tags are
    /// sorted by id so that the same state always gives the same bytes.
    public var checkpointJSON: JSON {
        var root = JSONObjectBuilder()
        root.add("version", .int(Int64(LogState.checkpointVersion)))
        root.add("settings", DomainEvent.logCreated(settings).data)
        root.add("tags", .array(tags.keys.sorted().map { LogState.json(tags[$0]!) }))
        root.add("records", .array(records.keys.sorted().map { LogState.json(records[$0]!) }))
        root.add("deleted", .array(deletedRecordIds.sorted().map { .string($0.uuidString) }))
        root.add("running", .array(runningRecordIds.map { .string($0.uuidString) }))
        root.add("recentTags", .array(recentTagIds.map { .string($0.uuidString) }))
        root.add("imports", .array(importProvenance.keys.sorted().map { LogState.json(importProvenance[$0]!) }))
        root.add("undo", .array(undoStack.map(LogState.json)))
        root.add("redo", .array(redoStack.map(LogState.json)))
        root.add("lastSeq", .int(lastSeq))
        root.add("lastAt", .string(lastAt.iso8601))
        var open = JSONObjectBuilder()
        open.add("start", .int(batch.start))
        open.add("at", .string(batch.at.iso8601))
        open.add("target", .string(batch.target.name))
        open.add("grouped", .bool(batch.grouped))
        root.add("batch", open.json)
        return root.json
    }

    /// Restores a state from ``checkpointJSON``.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when the JSON is not a checkpoint of this version.
    public init(checkpoint json: JSON) throws(DomainError) {
        let reader = CheckpointReader(json: json)
        guard try reader.int("version", in: json) == Int64(LogState.checkpointVersion) else {
            throw DomainError(.invalidCheckpoint, "the checkpoint was written by a different version of Stint")
        }
        guard
            case .logCreated(let settings) = try DomainEvent(
                type: EventType.logCreated.rawValue, version: 1, data: try reader.member("settings", in: json))
        else { throw DomainError(.invalidCheckpoint, "the checkpoint's settings are not readable") }
        self.settings = settings
        var tags: [EntityID: Tag] = [:]
        for item in try reader.array("tags", in: json) {
            let tag = try reader.tag(item)
            tags[tag.id] = tag
        }
        self.tags = tags
        var records: [EntityID: Record] = [:]
        for item in try reader.array("records", in: json) {
            let record = try reader.record(item)
            records[record.id] = record
        }
        self.records = records
        deletedRecordIds = Set(
            try reader.array("deleted", in: json).map { (item) throws(DomainError) in try reader.id(item) })
        runningRecordIds = try reader.array("running", in: json).map { (item) throws(DomainError) in try reader.id(item)
        }
        recentTagIds = try reader.array("recentTags", in: json).map { (item) throws(DomainError) in try reader.id(item)
        }
        var provenance: [EntityID: ImportProvenance] = [:]
        for item in try reader.array("imports", in: json) {
            let entry = try reader.provenance(item)
            provenance[entry.values.id] = entry
        }
        importProvenance = provenance
        undoStack = try reader.array("undo", in: json).map { (item) throws(DomainError) in try reader.undoEntry(item) }
        redoStack = try reader.array("redo", in: json).map { (item) throws(DomainError) in try reader.undoEntry(item) }
        lastSeq = try reader.int("lastSeq", in: json)
        lastAt = try reader.instant(try reader.member("lastAt", in: json))
        let open = try reader.member("batch", in: json)
        guard let target = OpenBatch.Target(name: try reader.string("target", in: open)),
            case .bool(let grouped) = try reader.member("grouped", in: open)
        else { throw DomainError(.invalidCheckpoint, "the checkpoint's open batch is not readable") }
        batch = OpenBatch(
            start: try reader.int("start", in: open), at: try reader.instant(try reader.member("at", in: open)),
            target: target, grouped: grouped)
    }

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
