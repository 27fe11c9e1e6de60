extension ImportReport {
    /// The report as canonical JSON, for `--json` output: counts first, then the lists.
    ///
    /// Positions are `{"document","offset","line","column","index"?}`; times are canonical instants.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("read", .int(Int64(read)))
        object.add("mapped", .int(Int64(mapped)))
        object.add("running", .int(Int64(running)))
        object.add("skipped", .int(Int64(skipped.count)))
        object.add("commentsWithExtraTags", .int(Int64(commentsWithExtraTags)))
        object.add("truncated", .int(Int64(truncated.count)))
        object.add(
            "skips",
            .array(
                skipped.map { skip in
                    var entry = JSONObjectBuilder()
                    entry.add("reason", .string(skip.reason.rawValue))
                    entry.add("system", .string(skip.source.system.rawValue))
                    entry.add("identity", .string(skip.source.identity))
                    entry.add("start", .string(skip.start.iso8601))
                    entry.add("end", skip.end?.iso8601)
                    entry.add("position", ImportReport.json(skip.position))
                    return entry.json
                }))
        object.add(
            "truncations",
            .array(
                truncated.map { truncation in
                    .object([
                        "recordId": .string(truncation.recordId.uuidString),
                        "length": .int(Int64(truncation.length)),
                        "fullComment": .string(truncation.fullComment),
                        "position": ImportReport.json(truncation.position),
                    ])
                }))
        object.add(
            "namesInComments",
            .array(
                namesInComments.map { entry in
                    .object([
                        "recordId": .string(entry.recordId.uuidString), "name": .string(entry.name),
                        "position": ImportReport.json(entry.position),
                    ])
                }))
        object.add("controlCharactersReplaced", .array(controlCharactersReplaced.map(ImportReport.json)))
        object.add("roundedToMillisecond", .array(roundedToMillisecond.map(ImportReport.json)))
        object.add("longerThanMaximum", .array(longerThanMaximum.map(ImportReport.json)))
        object.add(
            "unknownMembers",
            .array(
                unknownMembers.map { member in
                    .object([
                        "name": .string(member.name), "count": .int(Int64(member.count)),
                        "first": ImportReport.json(member.first),
                    ])
                }))
        object.add("mergedTagSpellings", .array(mergedTagSpellings.map { .array($0.map(JSON.string)) }))
        object.add("tagNames", .array(tagNames.map(JSON.string)))
        return object.json
    }

    static func json(_ position: ImportPosition) -> JSON {
        var object = JSONObjectBuilder()
        object.add("document", .string(position.document.rawValue))
        object.add("offset", .int(Int64(position.offset)))
        object.add("line", .int(Int64(position.line)))
        object.add("column", .int(Int64(position.column)))
        object.add("index", position.index.map { .int(Int64($0)) })
        return object.json
    }

    static func json(_ adjustment: Adjustment) -> JSON {
        .object(["recordId": .string(adjustment.recordId.uuidString), "position": json(adjustment.position)])
    }
}
