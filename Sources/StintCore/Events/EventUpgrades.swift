/// The table that turns payloads of old schema versions into the current version when a log is read.
///
/// An event's bytes never change once written (the hash chain covers them), so when a payload's shape
/// changes, its type's ``EventType/currentVersion`` goes up and a step is added here that maps the
/// previous version's `data` to the next one. Reading applies the steps in order (v1 → v2 → v3 …) and then
/// decodes the current shape. A version with no path to the current one, or newer than the current one,
/// is an error (``DomainError/Code/unknownEventVersion``), never skipped.
///
/// ``current`` holds two steps: `record.edited` v1 (complete values) read as v2 with `fields` naming all four
/// members, which is what a v1 edit meant; and `log.repaired` v1 read as v2 without a resume point, its
/// payload unchanged.
public struct EventUpgrades: Sendable {
    /// One step: the payload of `type` at version `from`, rewritten as version `from + 1`.
    public struct Step: Sendable {
        public var type: EventType
        public var from: Int
        public var upgrade: @Sendable (JSON) throws(DomainError) -> JSON

        public init(type: EventType, from: Int, upgrade: @escaping @Sendable (JSON) throws(DomainError) -> JSON) {
            self.type = type
            self.from = from
            self.upgrade = upgrade
        }
    }

    struct Key: Hashable {
        var type: EventType
        var from: Int
    }

    private var steps: [Key: Step] = [:]

    /// A table of the given steps; a later step for the same type and version replaces an earlier one.
    public init(_ steps: [Step]) {
        for step in steps { self.steps[Key(type: step.type, from: step.from)] = step }
    }

    /// The upgrades this build knows: `record.edited` v1 → v2, `log.repaired` v1 → v2.
    public static let current = EventUpgrades([recordEditedFields, logRepairedWithoutResume])

    /// `record.edited` v1 → v2: the same members and `"fields":["start","end","tagId","comment"]` (a v1 edit
    /// set the complete values). A payload that is not an object is left for the decoder to refuse.
    static let recordEditedFields = Step(type: .recordEdited, from: 1) { (data) throws(DomainError) -> JSON in
        guard case .object(var members) = data else { return data }
        members.append(JSONField("fields", .array(RecordFields.all.names.map { .string($0) })))
        return .object(members)
    }

    /// `log.repaired` v1 → v2: the same members; a v1 repair kept nothing after its gap, so a v1 payload that
    /// names a resume point is refused (the members are version 2's).
    static let logRepairedWithoutResume = Step(type: .logRepaired, from: 1) { (data) throws(DomainError) -> JSON in
        if let member = data.objectFields?.first(where: { $0.key == "resumesAt" || $0.key == "resumeLink" })?.key {
            throw DomainError(
                .invalidEventData,
                "log.repaired v1: member \"\(member)\" is not part of this event type (it is version 2's); the log "
                    + "was not written by a correct Stint writer (`stint verify` locates the damage)",
                member: member)
        }
        return data
    }

    /// The payload of `type` at `version`, rewritten as the type's current version.
    ///
    /// - Throws: ``DomainError/Code/unknownEventVersion`` for a version newer than the current one or one
    ///   with no upgrade path; whatever a step throws for a payload it cannot upgrade.
    public func upgrade(_ type: EventType, version: Int, data: JSON) throws(DomainError) -> JSON {
        let current = type.currentVersion
        if version > current {
            throw DomainError(
                .unknownEventVersion,
                "\(type.rawValue) version \(version) is newer than this Stint reads (version \(current)); "
                    + "the log was written by a newer Stint: upgrade Stint to read it")
        }
        var data = data
        var version = version
        while version < current {
            guard let step = steps[Key(type: type, from: version)] else {
                throw DomainError(
                    .unknownEventVersion,
                    "\(type.rawValue) version \(version) is unknown to this Stint, which reads versions up to "
                        + "\(current) and has no upgrade from \(version); the log may be damaged")
            }
            data = try step.upgrade(data)
            version += 1
        }
        return data
    }
}
