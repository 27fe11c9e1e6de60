extension ImportChanges {
    /// The changes as canonical JSON, for `--json` output: counts first, then the lists.
    ///
    /// Records are `{"id","start","end"?,"tagId"?,"comment"?}`; positions are those of
    /// ``ImportReport/json``; fields are `start`, `end`, `tag`, `comment`.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("system", .string(system.rawValue))
        object.add("added", .int(Int64(added.count)))
        object.add("updated", .int(Int64(updated.count)))
        object.add("unchanged", .int(Int64(unchanged)))
        object.add("kept", .int(Int64(kept.count)))
        object.add("leftDeleted", .int(Int64(leftDeleted.count)))
        object.add("vanished", .int(Int64(vanished.count)))
        object.add("createdTags", .array(createdTags.map(LogState.json)))
        object.add(
            "addedRecords",
            .array(
                added.map { entry in
                    .object([
                        JSONField("record", LogState.json(entry.record)),
                        JSONField("identity", .string(entry.source.identity)),
                        JSONField("position", ImportReport.json(entry.position)),
                    ])
                }))
        object.add(
            "updatedRecords",
            .array(
                updated.map { entry in
                    var update = JSONObjectBuilder()
                    update.add("before", LogState.json(entry.before))
                    update.add("after", LogState.json(entry.after))
                    update.add("identity", .string(entry.source.identity))
                    update.add("changed", ImportChanges.json(entry.changed))
                    update.add("overwritten", ImportChanges.json(entry.overwritten))
                    update.add("kept", ImportChanges.json(entry.kept))
                    update.add("completed", .bool(entry.completed))
                    update.add("position", ImportReport.json(entry.position))
                    return update.json
                }))
        object.add(
            "keptRecords",
            .array(
                kept.map { entry in
                    .object([
                        JSONField("record", LogState.json(entry.record)),
                        JSONField("identity", .string(entry.source.identity)),
                        JSONField("fields", ImportChanges.json(entry.fields)),
                        JSONField("position", ImportReport.json(entry.position)),
                    ])
                }))
        object.add(
            "deletedRecords",
            .array(
                leftDeleted.map { entry in
                    .object([
                        JSONField("recordId", .string(entry.recordId.uuidString)),
                        JSONField("identity", .string(entry.source.identity)),
                        JSONField("position", ImportReport.json(entry.position)),
                    ])
                }))
        object.add(
            "vanishedRecords",
            .array(
                vanished.map { entry in
                    .object([
                        JSONField("record", LogState.json(entry.record)),
                        JSONField("identity", .string(entry.source.identity)),
                    ])
                }))
        return object.json
    }

    static func json(_ fields: [Field]) -> JSON {
        .array(fields.map { .string($0.rawValue) })
    }
}
