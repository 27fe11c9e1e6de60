import Testing

@testable import StintCore

/// Sample payloads: every event type, with optional members present and absent.
enum EventSamples {
    static let recordId = EntityID("3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f")!
    static let tagId = EntityID("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d")!
    static let logId = EntityID("0d9f1e2c-3b4a-4c5d-8e6f-7a8b9c0d1e2f")!
    static let start = Instant(canonical: "2026-11-29T08:00:00.000Z")!
    static let end = Instant(canonical: "2026-11-29T09:30:15.250Z")!

    static let all: [DomainEvent] = [
        .logCreated(LogSettings(logId: logId, calendar: LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!)),
        .tagCreated(tagId: tagId, name: "Deep work 🎧", color: "#3A7BD5"),
        .tagRenamed(tagId: tagId, name: "Focus \"quoted\""),
        .tagArchived(tagId: tagId),
        .tagUnarchived(tagId: tagId),
        .tagDeleted(tagId: tagId),
        .tagRestored(tagId: tagId),
        .timerStarted(recordId: recordId, start: start, tagId: tagId, comment: "line one\nline\ttwo"),
        .timerStarted(recordId: recordId, start: start, tagId: nil, comment: nil),
        .timerStopped(recordId: recordId, end: end),
        .timerCanceled(recordId: recordId),
        .recordTracked(recordId: recordId, start: start, end: end, tagId: tagId, comment: "é"),
        .recordTracked(recordId: recordId, start: start, end: end, tagId: nil, comment: nil),
        .recordEdited(Record(id: recordId, start: start, end: end, tagId: tagId, comment: "c"), fields: .all),
        .recordEdited(Record(id: recordId, start: start), fields: [.end, .comment]),
        .recordDeleted(recordId: recordId),
        .recordRestored(Record(id: recordId, start: start, end: end, tagId: tagId, comment: "c")),
        .recordRestored(Record(id: recordId, start: start)),
        .recordImported(
            Record(id: recordId, start: start, end: end, tagId: tagId, comment: "Tags: dev"),
            source: ImportSource(system: .timewarrior, identity: "2026-11-29T08:00:00.000Z")),
        .recordImported(
            Record(id: recordId, start: start), source: ImportSource(system: .watson, identity: "running/x/y")),
        .recordReimported(
            Record(id: recordId, start: start, end: end),
            source: ImportSource(system: .watson, identity: "89ce624f2bcb4ae29908d5cfeb96ceaa")),
        .recordUnimported(recordId: recordId),
        .commandUndone(tx: 12),
        .commandRedone(tx: 15),
        .deviceJoined(spaceId: logId, device: device, name: "laptop"),
        .deviceJoined(spaceId: logId, device: device, name: nil),
        .deviceForked(from: device, upTo: 418, head: head),
        .syncIngested(from: device, upTo: 12, head: head),
        .logRepaired(
            from: 15, to: 122, reason: "00000000000000000012.jsonl.zst, offset 283, seq 15: bad checksum", resume: nil),
        .logRepaired(
            from: 15, to: 122, reason: "00000000000000000012.jsonl.zst, offset 283, seq 15: bad checksum",
            resume: ResumePoint(seq: 123, link: "0123456789abcdef0123456789abcdef")),
    ]

    static let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!
    static let head = "0123456789abcdef" + String(repeating: "f", count: 48)
}

@Suite struct EventsCodingTests {
    @Test func everyEventTypeHasASample() {
        #expect(Set(EventSamples.all.map(\.type)) == Set(EventType.allCases))
    }

    @Test func everyTypeIsAtVersionOneButRecordEditedAndLogRepairedAndNamedAsPersisted() {
        for type in EventType.allCases {
            #expect(type.currentVersion == (type == .recordEdited || type == .logRepaired ? 2 : 1))
            #expect(RecordedEvent.isValidTypeName(type.rawValue))
        }
        #expect(EventType.timerStarted.rawValue == "timer.started")
        #expect(EventType.commandUndone.rawValue == "command.undone")
    }

    @Test(arguments: EventSamples.all)
    func encodingThenDecodingGivesTheSameEvent(event: DomainEvent) throws {
        let draft = event.draft
        #expect(draft.type == event.type.rawValue)
        #expect(draft.version == event.type.currentVersion)
        let recorded = RecordedEvent(
            seq: 7, at: EventSamples.end, type: draft.type, version: draft.version, prev: RecordedEvent.genesisPrev,
            data: draft.data)
        let line = recorded.encodedLine()
        let parsed = try RecordedEvent(line: line)
        #expect(try DomainEvent(parsed) == event)
        #expect(parsed.encodedLine() == line)
    }

    @Test(arguments: [
        (
            DomainEvent.timerStarted(
                recordId: EventSamples.recordId, start: EventSamples.start, tagId: EventSamples.tagId,
                comment: "a \"b\"\n"),
            #"{"recordId":"3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f","start":"2026-11-29T08:00:00.000Z","tagId":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d","comment":"a \"b\"\n"}"#
        ),
        (
            DomainEvent.recordEdited(
                Record(id: EventSamples.recordId, start: EventSamples.start, comment: "x"), fields: .comment),
            #"{"recordId":"3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f","start":"2026-11-29T08:00:00.000Z","comment":"x","fields":["comment"]}"#
        ),
        (
            DomainEvent.logCreated(
                LogSettings(
                    logId: EventSamples.logId, calendar: LogCalendar(timeZone: "America/New_York", firstWeekday: 1)!)),
            #"{"logId":"0d9f1e2c-3b4a-4c5d-8e6f-7a8b9c0d1e2f","timeZone":"America/New_York","firstWeekday":1,"format":1}"#
        ),
        (
            DomainEvent.tagCreated(tagId: EventSamples.tagId, name: "Work", color: "#E4572E"),
            ##"{"tagId":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d","name":"Work","color":"#E4572E"}"##
        ),
        (DomainEvent.commandUndone(tx: 42), #"{"tx":42}"#),
    ])
    func canonicalPayloadBytesArePinned(event: DomainEvent, json: String) {
        #expect(event.draft.data.encodedString == json)
    }

    @Test func aWholeLineIsPinned() {
        let draft = DomainEvent.timerStopped(recordId: EventSamples.recordId, end: EventSamples.end).draft
        let event = RecordedEvent(
            seq: 5, at: EventSamples.end, type: draft.type, version: draft.version, tx: 4,
            prev: "0123456789abcdef0123456789abcdef", data: draft.data)
        #expect(
            String(decoding: event.encodedLine(), as: UTF8.self)
                == #"{"seq":5,"at":"2026-11-29T09:30:15.250Z","type":"timer.stopped","v":1,"tx":4,"#
                + #""prev":"0123456789abcdef0123456789abcdef","data":{"recordId":"3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f","#
                + #""end":"2026-11-29T09:30:15.250Z"}}"#)
    }

    /// The event-decoder fuzz target's crash (Events/invalid/fuzz/event-decoder/whole-number-as-exponent):
    /// an event whose data held `1E5` changed when it was encoded and decoded again.
    @Test func anEventSurvivesEncodingAndDecodingWhateverItsNumbersLookLike() throws {
        let line =
            #"{"seq":1,"at":"2026-11-29T09:00:00.000Z","type":"log.created","v":1,"prev":"#
            + #""00000000000000000000000000000000","data":{"time":1E5,"ratio":2.50,"zone":"Europe/Berlin"}}"#
        let event = try RecordedEvent(line: Array(line.utf8)[...])
        let encoded = event.encodedLine()
        let again = try RecordedEvent(line: encoded[...])
        #expect(again == event)
        #expect(again.encodedLine() == encoded)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""time":100000,"ratio":2.5,"#))
    }

    @Test func membersAreAcceptedInAnyOrder() throws {
        let data = try JSON.parse(
            #"{"end":"2026-11-29T09:30:15.250Z","recordId":"3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f"}"#)
        #expect(
            try DomainEvent(type: "timer.stopped", version: 1, data: data)
                == .timerStopped(recordId: EventSamples.recordId, end: EventSamples.end))
    }
}

@Suite struct EventsDecodingErrorTests {
    static let id = #""3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f""#
    static let at = #""2026-11-29T08:00:00.000Z""#

    @Test(arguments: [
        // Missing required members.
        ("timer.started", #"{"start":\#(at)}"#, "recordId"),
        ("timer.started", #"{"recordId":\#(id)}"#, "start"),
        ("timer.stopped", #"{"recordId":\#(id)}"#, "end"),
        ("record.tracked", #"{"recordId":\#(id),"start":\#(at)}"#, "end"),
        ("record.edited", #"{"recordId":\#(id)}"#, "start"),
        ("record.restored", #"{"start":\#(at)}"#, "recordId"),
        ("record.deleted", #"{}"#, "recordId"),
        ("timer.canceled", #"{}"#, "recordId"),
        ("tag.created", #"{"tagId":\#(id),"name":"W"}"#, "color"),
        ("tag.created", ##"{"tagId":\##(id),"color":"#FFFFFF"}"##, "name"),
        ("tag.renamed", #"{"tagId":\#(id)}"#, "name"),
        ("tag.archived", #"{}"#, "tagId"),
        ("tag.unarchived", #"{}"#, "tagId"),
        ("tag.deleted", #"{}"#, "tagId"),
        ("tag.restored", #"{}"#, "tagId"),
        ("command.undone", #"{}"#, "tx"),
        ("command.redone", #"{}"#, "tx"),
        ("log.created", #"{"logId":\#(id),"timeZone":"UTC","firstWeekday":2}"#, "format"),
        ("log.created", #"{"logId":\#(id),"firstWeekday":2,"format":1}"#, "timeZone"),
        // Ill-typed and ill-formed members.
        ("timer.started", #"{"recordId":"3F2A9C4E-0B1D-4C6E-9F00-5A7B8C9D0E1F","start":\#(at)}"#, "recordId"),
        ("timer.started", #"{"recordId":\#(id),"start":"2026-11-29T08:00:00Z"}"#, "start"),
        ("timer.started", #"{"recordId":\#(id),"start":1795939200000}"#, "start"),
        ("timer.started", #"{"recordId":\#(id),"start":\#(at),"tagId":"work"}"#, "tagId"),
        ("timer.started", #"{"recordId":\#(id),"start":\#(at),"comment":""}"#, "comment"),
        ("timer.started", #"{"recordId":\#(id),"start":\#(at),"comment":7}"#, "comment"),
        ("timer.started", #"{"recordId":\#(id),"start":\#(at),"tagId":null}"#, "tagId"),
        ("timer.started", #"{"recordId":\#(id),"start":\#(at),"extra":1}"#, "extra"),
        ("record.edited", #"{"recordId":\#(id),"start":\#(at),"end":"yesterday"}"#, "end"),
        ("tag.created", ##"{"tagId":\##(id),"name":"W","color":"#ffffff"}"##, "color"),
        ("tag.created", #"{"tagId":\#(id),"name":"W","color":"red"}"#, "color"),
        ("tag.created", ##"{"tagId":\##(id),"name":"","color":"#FFFFFF"}"##, "name"),
        ("tag.renamed", #"{"tagId":\#(id),"name":["W"]}"#, "name"),
        ("command.undone", #"{"tx":0}"#, "tx"),
        ("command.redone", #"{"tx":"3"}"#, "tx"),
        ("command.redone", #"{"tx":3.5}"#, "tx"),
        ("log.created", #"{"logId":\#(id),"timeZone":"Mars/Olympus","firstWeekday":2,"format":1}"#, "timeZone"),
        ("log.created", #"{"logId":\#(id),"timeZone":"UTC","firstWeekday":8,"format":1}"#, "firstWeekday"),
        ("log.created", #"{"logId":\#(id),"timeZone":"UTC","firstWeekday":2,"format":2}"#, "format"),
    ])
    func aBadMemberIsAnErrorNamingIt(type: String, json: String, member: String) throws {
        let data = try JSON.parse(json)
        let error = try #require(
            domainError { () throws(DomainError) in try DomainEvent(type: type, version: 1, data: data) })
        #expect(error.code == .invalidEventData)
        #expect(error.category == .damaged)
        #expect(error.member == member)
    }

    @Test func aPayloadThatIsNotAnObjectIsInvalid() {
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(type: "tag.deleted", version: 1, data: .array([])) }
                == .invalidEventData)
    }

    @Test func anUnknownTypeIsAnErrorWithTheSeq() throws {
        let event = RecordedEvent(
            seq: 9, at: EventSamples.start, type: "timer.paused", version: 1, prev: RecordedEvent.genesisPrev,
            data: .object([]))
        let error = try #require(domainError { () throws(DomainError) in try DomainEvent(event) })
        #expect(error.code == .unknownEventType)
        #expect(error.seq == 9)
        #expect(error.message.contains("timer.paused"))
    }

    @Test(arguments: [2, 0, 99])
    func aVersionThisBuildDoesNotKnowIsAnError(version: Int) {
        let data = DomainEvent.tagDeleted(tagId: EventSamples.tagId).data
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(type: "tag.deleted", version: version, data: data) }
                == .unknownEventVersion)
    }
}

@Suite struct EventsUpgradeTests {
    /// A made-up history: tag.created v0 had no color; v1 added it, defaulting to gray.
    static let upgrades = EventUpgrades([
        EventUpgrades.Step(type: .tagCreated, from: 0) { (data) throws(DomainError) -> JSON in
            guard var fields = data.objectFields else {
                throw DomainError(.invalidEventData, "tag.created v0: the payload must be an object")
            }
            fields.append(JSONField("color", .string("#888888")))
            return .object(fields)
        }
    ])

    @Test func anOldVersionIsUpgradedBeforeDecoding() throws {
        let v0 = try JSON.parse(#"{"tagId":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d","name":"Work"}"#)
        let event = try DomainEvent(type: "tag.created", version: 0, data: v0, upgrades: Self.upgrades)
        #expect(event == .tagCreated(tagId: EventSamples.tagId, name: "Work", color: "#888888"))
        // Re-encoding writes the current version.
        #expect(event.draft.version == 1)
    }

    @Test func theCurrentVersionIsNotTouchedByTheTable() throws {
        let v1 = DomainEvent.tagCreated(tagId: EventSamples.tagId, name: "Work", color: "#123456").data
        #expect(
            try DomainEvent(type: "tag.created", version: 1, data: v1, upgrades: Self.upgrades)
                == .tagCreated(tagId: EventSamples.tagId, name: "Work", color: "#123456"))
    }

    @Test func anUpgradeThatProducesABadPayloadIsAnError() throws {
        let v0 = try JSON.parse(##"{"tagId":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d","name":"Work","color":"#111111"}"##)
        let error = try #require(
            domainError { () throws(DomainError) in
                try DomainEvent(type: "tag.created", version: 0, data: v0, upgrades: Self.upgrades)
            })
        #expect(error.code == .invalidEventData)
        #expect(error.member == "color")
    }

    @Test func aStepErrorIsPassedOn() {
        #expect(
            errorCode { () throws(DomainError) in
                try DomainEvent(type: "tag.created", version: 0, data: .array([]), upgrades: Self.upgrades)
            } == .invalidEventData)
    }

    @Test func withoutAStepAnOldVersionIsUnknown() {
        #expect(
            errorCode { () throws(DomainError) in
                try DomainEvent(type: "tag.renamed", version: 0, data: .object([]), upgrades: Self.upgrades)
            } == .unknownEventVersion)
    }
}
