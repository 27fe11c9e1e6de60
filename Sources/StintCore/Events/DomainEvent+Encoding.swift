extension DomainEvent {
    /// The payload object, members in the catalog's order, optional members left out when absent.
    public var data: JSON {
        var object = JSONObjectBuilder()
        switch self {
        case .logCreated(let settings):
            object.add("logId", .string(settings.logId.uuidString))
            object.add("timeZone", .string(settings.calendar.timeZoneIdentifier))
            object.add("firstWeekday", .int(Int64(settings.calendar.firstWeekday)))
            object.add("format", .int(Int64(settings.format)))
        case .tagCreated(let tagId, let name, let color):
            object.add("tagId", .string(tagId.uuidString))
            object.add("name", .string(name))
            object.add("color", .string(color))
        case .tagRenamed(let tagId, let name):
            object.add("tagId", .string(tagId.uuidString))
            object.add("name", .string(name))
        case .tagArchived(let tagId), .tagUnarchived(let tagId), .tagDeleted(let tagId), .tagRestored(let tagId):
            object.add("tagId", .string(tagId.uuidString))
        case .timerStarted(let recordId, let start, let tagId, let comment):
            object.add("recordId", .string(recordId.uuidString))
            object.add("start", .string(start.iso8601))
            object.add("tagId", tagId?.uuidString)
            object.add("comment", comment)
        case .timerStopped(let recordId, let end):
            object.add("recordId", .string(recordId.uuidString))
            object.add("end", .string(end.iso8601))
        case .timerCanceled(let recordId), .recordDeleted(let recordId):
            object.add("recordId", .string(recordId.uuidString))
        case .recordTracked(let recordId, let start, let end, let tagId, let comment):
            object.add("recordId", .string(recordId.uuidString))
            object.add("start", .string(start.iso8601))
            object.add("end", .string(end.iso8601))
            object.add("tagId", tagId?.uuidString)
            object.add("comment", comment)
        case .recordEdited(let record), .recordRestored(let record):
            object.add("recordId", .string(record.id.uuidString))
            object.add("start", .string(record.start.iso8601))
            object.add("end", record.end?.iso8601)
            object.add("tagId", record.tagId?.uuidString)
            object.add("comment", record.comment)
        case .recordImported, .recordReimported, .recordUnimported:
            addImportMembers(to: &object)
        case .commandUndone(let tx), .commandRedone(let tx):
            object.add("tx", .int(tx))
        }
        return object.json
    }
}
