extension RecordExport {
    /// The export format's name and version, the first members of ``json``.
    public static let jsonFormat = "stint-export"
    public static let jsonVersion = 1

    /// The rows as one canonical JSON object:
    /// `{"format":"stint-export","version":1,"timeZone":…,"firstWeekday":…,"now":…,"since"?,"until"?,"records":[…],"tags":[…]}`.
    ///
    /// A record is `{"id","start","end"?,"startUtc","endUtc"?,"durationSeconds","tagId"?,"tag"?,"comment"?,"running"}`
    /// with the CSV's values (`tag` only for a tag that is not deleted; `tagId` always when the record has
    /// one); a tag is `{"id","name","color","archived"?,"deleted"?}`, every tag of the log.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("format", .string(RecordExport.jsonFormat))
        object.add("version", .int(Int64(RecordExport.jsonVersion)))
        object.add("timeZone", .string(calendar.timeZoneIdentifier))
        object.add("firstWeekday", .int(Int64(calendar.firstWeekday)))
        object.add("now", .string(now.iso8601))
        object.add("since", since?.iso8601)
        object.add("until", until?.iso8601)
        object.add(
            "records",
            .array(
                rows.map(jsonRecord)))
        object.add(
            "tags",
            .array(
                tags.map { tag in
                    var entry = JSONObjectBuilder()
                    entry.add("id", .string(tag.id.uuidString))
                    entry.add("name", .string(tag.name))
                    entry.add("color", .string(tag.color))
                    if tag.isArchived { entry.add("archived", .bool(true)) }
                    if tag.isDeleted { entry.add("deleted", .bool(true)) }
                    return entry.json
                }))
        return object.json
    }

    /// One record of ``json``'s `records` array.
    func jsonRecord(_ row: Row) -> JSON {
        let record = row.record
        var entry = JSONObjectBuilder()
        entry.add("id", .string(record.id.uuidString))
        entry.add("start", .string(local(record.start)))
        entry.add("end", record.end.map(local))
        entry.add("startUtc", .string(record.start.iso8601))
        entry.add("endUtc", record.end?.iso8601)
        entry.add("durationSeconds", .double(Double(row.milliseconds) / 1000))
        entry.add("tagId", record.tagId?.uuidString)
        entry.add("tag", row.tag?.name)
        entry.add("comment", record.comment)
        entry.add("running", .bool(record.isRunning))
        return entry.json
    }
}
