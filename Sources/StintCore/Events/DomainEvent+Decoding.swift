extension DomainEvent {
    /// Decodes the payload of a recorded event, upgrading an old schema version first.
    ///
    /// Strict: an unknown type, an unknown version, and a missing, extra or ill-typed member are errors
    /// (category ``DomainError/Category/damaged``) carrying the event's `seq`; nothing is skipped.
    ///
    /// `recorded` is borrowed: an initializer otherwise takes its argument owned, and the merged fold, which
    /// decodes every event it is lent, copied each one (a dozen reference counts) to pass it here.
    public init(_ recorded: borrowing RecordedEvent, upgrades: EventUpgrades = .current) throws(DomainError) {
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
        self = try type.declaration.decode(from: &reader)
    }
}
