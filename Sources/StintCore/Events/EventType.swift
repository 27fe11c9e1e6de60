/// The persisted name of every domain event type, and its declaration: the schema version this build
/// writes and the payload's members (``EventDeclaration``).
///
/// The raw values are what the log stores in an event's `type`; they are spelled out here so that
/// renaming a Swift case can never change a persisted name. Events/README.md describes each one.
public enum EventType: String, CaseIterable, Hashable, Sendable {
    case logCreated = "log.created"
    case tagCreated = "tag.created"
    case tagRenamed = "tag.renamed"
    case tagArchived = "tag.archived"
    case tagUnarchived = "tag.unarchived"
    case tagDeleted = "tag.deleted"
    case tagRestored = "tag.restored"
    case timerStarted = "timer.started"
    case timerStopped = "timer.stopped"
    case timerCanceled = "timer.canceled"
    case recordTracked = "record.tracked"
    case recordEdited = "record.edited"
    case recordDeleted = "record.deleted"
    case recordRestored = "record.restored"
    case recordImported = "record.imported"
    case recordReimported = "record.reimported"
    case recordUnimported = "record.unimported"
    case commandUndone = "command.undone"
    case commandRedone = "command.redone"
    case deviceJoined = "device.joined"
    case deviceForked = "device.forked"
    case syncIngested = "sync.ingested"
    case logRepaired = "log.repaired"

    /// The schema version of this type's payload that this build writes and decodes natively.
    ///
    /// Older versions are upgraded on read through ``EventUpgrades``; a newer version is refused.
    public var currentVersion: Int { declaration.version }

    /// The declaration of this type's payload: its version, its members and how they make a ``DomainEvent``.
    public var declaration: EventDeclaration {
        switch self {
        case .logCreated: return .logCreated
        case .tagCreated: return .tagCreated
        case .tagRenamed: return .tagRenamed
        case .tagArchived: return .tagArchived
        case .tagUnarchived: return .tagUnarchived
        case .tagDeleted: return .tagDeleted
        case .tagRestored: return .tagRestored
        case .timerStarted: return .timerStarted
        case .timerStopped: return .timerStopped
        case .timerCanceled: return .timerCanceled
        case .recordTracked: return .recordTracked
        case .recordEdited: return .recordEdited
        case .recordDeleted: return .recordDeleted
        case .recordRestored: return .recordRestored
        case .recordImported: return .recordImported
        case .recordReimported: return .recordReimported
        case .recordUnimported: return .recordUnimported
        case .commandUndone: return .commandUndone
        case .commandRedone: return .commandRedone
        case .deviceJoined: return .deviceJoined
        case .deviceForked: return .deviceForked
        case .syncIngested: return .syncIngested
        case .logRepaired: return .logRepaired
        }
    }
}

// The declarations, one per type, members in the order of Events/README.md (which is the canonical order).
// Each builds its event from the values of `fields` by position and takes them out of it again.
extension EventDeclaration {
    static let logCreated = EventDeclaration(
        .logCreated, version: 1,
        fields: [.id("logId"), .string("timeZone"), .integer("firstWeekday"), .integer("format")],
        build: { (v: inout PayloadValues) throws(FieldRefusal) in
            let zone = v.text(1)
            let firstWeekday = v.integer(2)
            let format = v.integer(3)
            guard (1...7).contains(firstWeekday) else {
                throw FieldRefusal(member: "firstWeekday", problem: "must be 1 (Sunday) … 7")
            }
            guard let calendar = LogCalendar(timeZone: zone, firstWeekday: Int(firstWeekday)) else {
                throw FieldRefusal(member: "timeZone", problem: "names no time zone this system knows (\(zone))")
            }
            guard format == Int64(LogSettings.currentFormat) else {
                throw FieldRefusal(
                    member: "format", problem: "is \(format); this Stint reads log format \(LogSettings.currentFormat)")
            }
            return .logCreated(LogSettings(logId: v.id(0), calendar: calendar, format: Int(format)))
        },
        take: {
            guard case .logCreated(let settings) = $0 else { return nil }
            return PayloadValues(
                .id(settings.logId), .text(settings.calendar.timeZoneIdentifier),
                .integer(Int64(settings.calendar.firstWeekday)), .integer(Int64(settings.format)))
        })

    static let tagCreated = EventDeclaration(
        .tagCreated, version: 1, fields: [.id("tagId"), .text("name"), .color("color")],
        build: { .tagCreated(tagId: $0.id(0), name: $0.text(1), color: $0.text(2)) },
        take: {
            guard case .tagCreated(let tagId, let name, let color) = $0 else { return nil }
            return PayloadValues(.id(tagId), .text(name), .text(color))
        })

    static let tagRenamed = EventDeclaration(
        .tagRenamed, version: 1, fields: [.id("tagId"), .text("name")],
        build: { .tagRenamed(tagId: $0.id(0), name: $0.text(1)) },
        take: {
            guard case .tagRenamed(let tagId, let name) = $0 else { return nil }
            return PayloadValues(.id(tagId), .text(name))
        })

    static let tagArchived = EventDeclaration(
        .tagArchived, version: 1, fields: [.id("tagId")],
        build: { .tagArchived(tagId: $0.id(0)) },
        take: {
            guard case .tagArchived(let tagId) = $0 else { return nil }
            return PayloadValues(.id(tagId))
        })

    static let tagUnarchived = EventDeclaration(
        .tagUnarchived, version: 1, fields: [.id("tagId")],
        build: { .tagUnarchived(tagId: $0.id(0)) },
        take: {
            guard case .tagUnarchived(let tagId) = $0 else { return nil }
            return PayloadValues(.id(tagId))
        })

    static let tagDeleted = EventDeclaration(
        .tagDeleted, version: 1, fields: [.id("tagId")],
        build: { .tagDeleted(tagId: $0.id(0)) },
        take: {
            guard case .tagDeleted(let tagId) = $0 else { return nil }
            return PayloadValues(.id(tagId))
        })

    static let tagRestored = EventDeclaration(
        .tagRestored, version: 1, fields: [.id("tagId")],
        build: { .tagRestored(tagId: $0.id(0)) },
        take: {
            guard case .tagRestored(let tagId) = $0 else { return nil }
            return PayloadValues(.id(tagId))
        })

    static let timerStarted = EventDeclaration(
        .timerStarted, version: 1,
        fields: [.id("recordId"), .instant("start"), .optionalID("tagId"), .optionalText("comment")],
        build: {
            .timerStarted(
                recordId: $0.id(0), start: $0.instant(1), tagId: $0.optionalID(2), comment: $0.optionalText(3))
        },
        take: {
            guard case .timerStarted(let recordId, let start, let tagId, let comment) = $0 else { return nil }
            return PayloadValues(.id(recordId), .instant(start), .optionalID(tagId), .optionalText(comment))
        })

    static let timerStopped = EventDeclaration(
        .timerStopped, version: 1, fields: [.id("recordId"), .instant("end")],
        build: { .timerStopped(recordId: $0.id(0), end: $0.instant(1)) },
        take: {
            guard case .timerStopped(let recordId, let end) = $0 else { return nil }
            return PayloadValues(.id(recordId), .instant(end))
        })

    static let timerCanceled = EventDeclaration(
        .timerCanceled, version: 1, fields: [.id("recordId")],
        build: { .timerCanceled(recordId: $0.id(0)) },
        take: {
            guard case .timerCanceled(let recordId) = $0 else { return nil }
            return PayloadValues(.id(recordId))
        })

    static let recordTracked = EventDeclaration(
        .recordTracked, version: 1,
        fields: [.id("recordId"), .instant("start"), .instant("end"), .optionalID("tagId"), .optionalText("comment")],
        build: {
            .recordTracked(
                recordId: $0.id(0), start: $0.instant(1), end: $0.instant(2), tagId: $0.optionalID(3),
                comment: $0.optionalText(4))
        },
        take: {
            guard case .recordTracked(let recordId, let start, let end, let tagId, let comment) = $0 else { return nil }
            return PayloadValues(
                .id(recordId), .instant(start), .instant(end), .optionalID(tagId), .optionalText(comment))
        })

    /// Version 2: the complete values and `fields`, the members the command set (version 1 is read as all four,
    /// ``EventUpgrades/current``).
    static let recordEdited = EventDeclaration(
        .recordEdited, version: 2, fields: EventField.recordMembers + [.recordFields("fields")],
        build: { (v: inout PayloadValues) throws(FieldRefusal) in
            .recordEdited(v.record(), fields: v.recordFields(5))
        },
        take: {
            guard case .recordEdited(let record, let fields) = $0 else { return nil }
            return PayloadValues(record: record, .fields(fields))
        })

    static let recordDeleted = EventDeclaration(
        .recordDeleted, version: 1, fields: [.id("recordId")],
        build: { .recordDeleted(recordId: $0.id(0)) },
        take: {
            guard case .recordDeleted(let recordId) = $0 else { return nil }
            return PayloadValues(.id(recordId))
        })

    static let recordRestored = EventDeclaration(
        .recordRestored, version: 1, fields: EventField.recordMembers,
        build: { .recordRestored($0.record()) },
        take: {
            guard case .recordRestored(let record) = $0 else { return nil }
            return PayloadValues(record: record)
        })

    /// A record's complete values and `source`, `{"system":"watson","identity":"89ce624f…"}`: the interval
    /// of the other tracker the record stands for (``ImportSource``).
    static let recordImported = EventDeclaration(
        .recordImported, version: 1, fields: EventField.recordMembers + [.importSource("source")],
        build: { .recordImported($0.record(), source: $0.source(5)) },
        take: {
            guard case .recordImported(let record, let source) = $0 else { return nil }
            return PayloadValues(record: record, .source(source))
        })

    static let recordReimported = EventDeclaration(
        .recordReimported, version: 1, fields: EventField.recordMembers + [.importSource("source")],
        build: { .recordReimported($0.record(), source: $0.source(5)) },
        take: {
            guard case .recordReimported(let record, let source) = $0 else { return nil }
            return PayloadValues(record: record, .source(source))
        })

    static let recordUnimported = EventDeclaration(
        .recordUnimported, version: 1, fields: [.id("recordId")],
        build: { .recordUnimported(recordId: $0.id(0)) },
        take: {
            guard case .recordUnimported(let recordId) = $0 else { return nil }
            return PayloadValues(.id(recordId))
        })

    static let commandUndone = EventDeclaration(
        .commandUndone, version: 1, fields: [.seq("tx")],
        build: { .commandUndone(tx: $0.integer(0)) },
        take: {
            guard case .commandUndone(let tx) = $0 else { return nil }
            return PayloadValues(.integer(tx))
        })

    static let commandRedone = EventDeclaration(
        .commandRedone, version: 1, fields: [.seq("tx")],
        build: { .commandRedone(tx: $0.integer(0)) },
        take: {
            guard case .commandRedone(let tx) = $0 else { return nil }
            return PayloadValues(.integer(tx))
        })

    static let deviceJoined = EventDeclaration(
        .deviceJoined, version: 1, fields: [.id("spaceId"), .device("device"), .optionalText("name")],
        build: { .deviceJoined(spaceId: $0.id(0), device: $0.device(1), name: $0.optionalText(2)) },
        take: {
            guard case .deviceJoined(let spaceId, let device, let name) = $0 else { return nil }
            return PayloadValues(.id(spaceId), .device(device), .optionalText(name))
        })

    static let deviceForked = EventDeclaration(
        .deviceForked, version: 1, fields: [.device("from"), .seq("upTo"), .hash("head")],
        build: { .deviceForked(from: $0.device(0), upTo: $0.integer(1), head: $0.text(2)) },
        take: {
            guard case .deviceForked(let from, let upTo, let head) = $0 else { return nil }
            return PayloadValues(.device(from), .integer(upTo), .text(head))
        })

    static let syncIngested = EventDeclaration(
        .syncIngested, version: 1, fields: [.device("from"), .seq("upTo"), .hash("head")],
        build: { .syncIngested(from: $0.device(0), upTo: $0.integer(1), head: $0.text(2)) },
        take: {
            guard case .syncIngested(let from, let upTo, let head) = $0 else { return nil }
            return PayloadValues(.device(from), .integer(upTo), .text(head))
        })

    /// Version 2: `resumesAt` and `resumeLink`, both or neither, where the events kept after the gap resume
    /// (version 1, without them, is read as version 2 without them: ``EventUpgrades/current``).
    static let logRepaired = EventDeclaration(
        .logRepaired, version: 2,
        fields: [.seq("from"), .seq("to"), .text("reason"), .optionalSeq("resumesAt"), .optionalLink("resumeLink")],
        build: { (v: inout PayloadValues) throws(FieldRefusal) in
            let from = v.integer(0)
            let to = v.integer(1)
            let resume: ResumePoint?
            switch (v.optionalInteger(3), v.optionalText(4)) {
            case (nil, nil): resume = nil
            case (let seq?, let link?):
                guard seq > from else {
                    throw FieldRefusal(member: "resumesAt", problem: "must be greater than from (\(from))")
                }
                guard seq - 1 == to else {
                    throw FieldRefusal(
                        member: "resumesAt", problem: "must be to + 1: the log resumes right after the seqs it lost")
                }
                guard seq <= ResumePoint.largestSeq else {
                    throw FieldRefusal(member: "resumesAt", problem: "must be at most \(ResumePoint.largestSeq)")
                }
                resume = ResumePoint(seq: seq, link: link)
            case (nil, _?): throw FieldRefusal(member: "resumesAt", problem: "is missing: resumeLink needs it")
            case (_?, nil): throw FieldRefusal(member: "resumeLink", problem: "is missing: resumesAt needs it")
            }
            return .logRepaired(from: from, to: to, reason: v.text(2), resume: resume)
        },
        take: {
            guard case .logRepaired(let from, let to, let reason, let resume) = $0 else { return nil }
            return PayloadValues(
                .integer(from), .integer(to), .text(reason), .optionalInteger(resume?.seq), .optionalText(resume?.link))
        })
}
