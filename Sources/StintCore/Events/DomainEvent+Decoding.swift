extension DomainEvent {
    /// Decodes the payload of a recorded event, upgrading an old schema version first.
    ///
    /// Strict: an unknown type, an unknown version, and a missing, extra or ill-typed member are errors
    /// (category ``DomainError/Category/damaged``) carrying the event's `seq`; nothing is skipped.
    public init(_ recorded: RecordedEvent, upgrades: EventUpgrades = .current) throws(DomainError) {
        if let event = recorded.decodedEvent {
            self = event
            return
        }
        if let type = EventType(rawValue: recorded.type), recorded.version == type.currentVersion,
            let event = DomainEvent.decodeCanonical(type, data: recorded.data)
        {
            self = event
            return
        }
        do {
            try self.init(type: recorded.type, version: recorded.version, data: recorded.data, upgrades: upgrades)
        } catch {
            var error = error
            error.seq = recorded.seq
            throw error
        }
    }

    /// Decodes a payload given its persisted type and schema version.
    public init(
        type name: String, version: Int, data: JSON, upgrades: EventUpgrades = .current
    ) throws(DomainError) {
        guard let type = EventType(rawValue: name) else {
            throw DomainError(
                .unknownEventType,
                "unknown event type \(name) (written by a newer Stint?); upgrade Stint to read this log")
        }
        let current = try upgrades.upgrade(type, version: version, data: data)
        var reader = try EventPayloadReader(type: type, version: type.currentVersion, data: current)
        self = try DomainEvent.read(type, &reader)
        try reader.finish()
    }

    private static func read(_ type: EventType, _ r: inout EventPayloadReader) throws(DomainError) -> DomainEvent {
        switch type {
        case .logCreated:
            let logId = try r.id("logId")
            let zone = try r.string("timeZone")
            let firstWeekday = try r.integer("firstWeekday")
            let format = try r.integer("format")
            guard (1...7).contains(firstWeekday) else { throw r.fail("firstWeekday", "must be 1 (Sunday) … 7") }
            guard let calendar = LogCalendar(timeZone: zone, firstWeekday: Int(firstWeekday)) else {
                throw r.fail("timeZone", "names no time zone this system knows (\(zone))")
            }
            guard format == Int64(LogSettings.currentFormat) else {
                throw r.fail("format", "is \(format); this Stint reads log format \(LogSettings.currentFormat)")
            }
            return .logCreated(LogSettings(logId: logId, calendar: calendar, format: Int(format)))
        case .tagCreated:
            return .tagCreated(
                tagId: try r.id("tagId"), name: try r.nonEmptyString("name"), color: try r.color("color"))
        case .tagRenamed:
            return .tagRenamed(tagId: try r.id("tagId"), name: try r.nonEmptyString("name"))
        case .tagArchived: return .tagArchived(tagId: try r.id("tagId"))
        case .tagUnarchived: return .tagUnarchived(tagId: try r.id("tagId"))
        case .tagDeleted: return .tagDeleted(tagId: try r.id("tagId"))
        case .tagRestored: return .tagRestored(tagId: try r.id("tagId"))
        case .timerStarted:
            return .timerStarted(
                recordId: try r.id("recordId"), start: try r.instant("start"), tagId: try r.optionalID("tagId"),
                comment: try r.optionalNonEmptyString("comment"))
        case .timerStopped:
            return .timerStopped(recordId: try r.id("recordId"), end: try r.instant("end"))
        case .timerCanceled: return .timerCanceled(recordId: try r.id("recordId"))
        case .recordTracked:
            return .recordTracked(
                recordId: try r.id("recordId"), start: try r.instant("start"), end: try r.instant("end"),
                tagId: try r.optionalID("tagId"), comment: try r.optionalNonEmptyString("comment"))
        case .recordEdited: return .recordEdited(try readRecord(&r))
        case .recordDeleted: return .recordDeleted(recordId: try r.id("recordId"))
        case .recordRestored: return .recordRestored(try readRecord(&r))
        case .recordImported, .recordReimported, .recordUnimported: return try readImport(type, &r)
        case .commandUndone, .commandRedone:
            let tx = try r.integer("tx")
            guard tx >= 1 else { throw r.fail("tx", "must be a seq (an integer ≥ 1)") }
            return type == .commandUndone ? .commandUndone(tx: tx) : .commandRedone(tx: tx)
        }
    }

    static func readRecord(_ r: inout EventPayloadReader) throws(DomainError) -> Record {
        Record(
            id: try r.id("recordId"), start: try r.instant("start"), end: try r.optionalInstant("end"),
            tagId: try r.optionalID("tagId"), comment: try r.optionalNonEmptyString("comment"))
    }
}
