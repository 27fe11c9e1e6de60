/// The payloads of the import events: `record.imported`, `record.reimported` and `record.unimported`.
///
/// `record.imported` and `record.reimported` carry a record's complete values, as `record.edited` does,
/// followed by `source`: `{"system":"watson","identity":"89ce624f2bcb4ae29908d5cfeb96ceaa"}`, the interval
/// of the source system the record stands for (``ImportSource``). `record.unimported` carries the record id.
extension DomainEvent {
    /// Reads the payload of one of the three import event types.
    static func readImport(_ type: EventType, _ r: inout EventPayloadReader) throws(DomainError) -> DomainEvent {
        switch type {
        case .recordImported:
            return .recordImported(try readRecord(&r), source: try readSource(&r))
        case .recordReimported:
            return .recordReimported(try readRecord(&r), source: try readSource(&r))
        default:
            return .recordUnimported(recordId: try r.id("recordId"))
        }
    }

    /// Reads `source`, `{"system","identity"}`; every problem inside it names the member `source`.
    private static func readSource(_ r: inout EventPayloadReader) throws(DomainError) -> ImportSource {
        let object = try r.object("source")
        let system: String
        let identity: String
        do {
            var reader = try EventPayloadReader(type: r.type, version: r.version, data: object)
            system = try reader.string("system")
            identity = try reader.nonEmptyString("identity")
            try reader.finish()
        } catch {
            throw r.fail("source", "is not {\"system\",\"identity\"}: its member \"\(error.member ?? "?")\" is wrong")
        }
        guard let known = ImportSystem(rawValue: system) else {
            throw r.fail(
                "source", "names the system \"\(system)\", which this Stint does not import from (a newer Stint?)")
        }
        return ImportSource(system: known, identity: identity)
    }

    /// Adds the members of an import event, in the catalog's order.
    func addImportMembers(to object: inout JSONObjectBuilder) {
        switch self {
        case .recordImported(let record, let source), .recordReimported(let record, let source):
            object.add("recordId", .string(record.id.uuidString))
            object.add("start", .string(record.start.iso8601))
            object.add("end", record.end?.iso8601)
            object.add("tagId", record.tagId?.uuidString)
            object.add("comment", record.comment)
            object.add(
                "source",
                .object([
                    JSONField("system", .string(source.system.rawValue)),
                    JSONField("identity", .string(source.identity)),
                ]))
        case .recordUnimported(let recordId):
            object.add("recordId", .string(recordId.uuidString))
        default:
            break
        }
    }
}
