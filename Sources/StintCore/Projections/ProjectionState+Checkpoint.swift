/// Saving a ``ProjectionState`` as a checkpoint (a cache, like ``LogState``'s; docs/log-format.md §7).
extension ProjectionState {
    /// The version of the layout below and of the fold that produced it; a checkpoint of another version
    /// is ignored and rebuilt.
    public static let checkpointVersion = 2

    /// Canonical JSON: settings, tags and records sorted by id, recent tags, horizon, position and the `seq` of a
    /// repair's gap (when there is one).
    public var checkpointJSON: JSON {
        var root = JSONObjectBuilder()
        root.add("version", .int(Int64(ProjectionState.checkpointVersion)))
        root.add("settings", DomainEvent.logCreated(settings).data)
        root.add("tags", .array(tags.keys.sorted().map { LogState.json(tags[$0]!) }))
        root.add("records", .array(records.keys.sorted().map { LogState.json(records[$0]!) }))
        root.add("recentTags", .array(recentTagIds.map { .string($0.uuidString) }))
        root.add("horizon", .string(horizon.iso8601))
        root.add("lastSeq", .int(lastSeq))
        root.add("lastAt", .string(lastAt.iso8601))
        if let resumedAfterRepair { root.add("resumedAfterRepair", .int(resumedAfterRepair)) }
        return root.json
    }

    /// Restores a state from ``checkpointJSON``.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when the JSON is not a checkpoint of this version.
    public init(checkpoint json: JSON) throws(DomainError) {
        let reader = CheckpointReader(json: json)
        guard try reader.int("version", in: json) == Int64(ProjectionState.checkpointVersion) else {
            throw DomainError(.invalidCheckpoint, "the checkpoint was written by a different version of Stint")
        }
        guard
            case .logCreated(let settings) = try DomainEvent(
                type: EventType.logCreated.rawValue, version: 1, data: try reader.member("settings", in: json))
        else { throw DomainError(.invalidCheckpoint, "the checkpoint's settings are not readable") }
        var tags: [EntityID: Tag] = [:]
        for item in try reader.array("tags", in: json) {
            let tag = try reader.tag(item)
            tags[tag.id] = tag
        }
        var records: [EntityID: Record] = [:]
        for item in try reader.array("records", in: json) {
            let record = try reader.record(item)
            records[record.id] = record
        }
        self.init(
            settings: settings, tags: tags, records: records,
            recentTagIds: try reader.array("recentTags", in: json).map { (item) throws(DomainError) in
                try reader.id(item)
            },
            horizon: try reader.instant(try reader.member("horizon", in: json)),
            lastSeq: try reader.int("lastSeq", in: json),
            lastAt: try reader.instant(try reader.member("lastAt", in: json)),
            resumedAfterRepair: json["resumedAfterRepair"] == nil ? nil : try reader.int("resumedAfterRepair", in: json)
        )
    }
}
