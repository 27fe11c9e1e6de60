import Testing

@testable import StintCore

/// `record.edited` version 2 (`fields`), its reading of version 1, and the bookkeeping events of a space in
/// the strict fold and the undo model.
@Suite struct RecordEditedVersionTests {
    static let record = "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f"

    static func line(version: Int, data: String) -> [UInt8] {
        Array(
            (#"{"seq":3,"at":"2026-11-29T09:00:00.000Z","type":"record.edited","v":\#(version),"#
                + #""prev":"00000000000000000000000000000000","data":\#(data)}"#).utf8)
    }

    @Test func aVersion1LineReadsAsAnEditOfAllFourMembers() throws {
        let line = Self.line(
            version: 1, data: #"{"recordId":"\#(Self.record)","start":"2026-11-29T08:00:00.000Z","comment":"x"}"#)
        let read = try RecordedEvent(line: line[...])
        #expect(read.version == 1)
        #expect(
            try DomainEvent(read)
                == .recordEdited(
                    Record(id: EntityID(Self.record)!, start: instant("2026-11-29T08:00:00.000Z"), comment: "x"),
                    fields: .all))
        // The line keeps its bytes: it is upgraded in memory only.
        #expect(read.encodedLine() == line)
    }

    @Test func aVersion1LineThatAlreadyNamesFieldsIsRefused() {
        let data = try! JSON.parse(
            #"{"recordId":"\#(Self.record)","start":"2026-11-29T08:00:00.000Z","fields":["start"]}"#)
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(type: "record.edited", version: 1, data: data) }
                == .invalidEventData)
    }

    @Test func version2WritesFieldsLastAndReadsThemBack() throws {
        let event = DomainEvent.recordEdited(
            Record(id: EntityID(Self.record)!, start: instant("2026-11-29T08:00:00.000Z")), fields: [.end, .tagId])
        #expect(event.draft.version == 2)
        #expect(
            event.data.encodedString
                == #"{"recordId":"\#(Self.record)","start":"2026-11-29T08:00:00.000Z","fields":["end","tagId"]}"#)
        let line = Self.line(version: 2, data: event.data.encodedString)
        #expect(try DomainEvent(RecordedEvent(line: line[...])) == event)
    }

    @Test(arguments: [
        #"[]"#, #"["end","start"]"#, #"["start","start"]"#, #"["duration"]"#, #""start""#, #"[1]"#, #"null"#,
    ])
    func fieldsMustBeANonEmptyOrderedSubset(fields: String) throws {
        let text = #"{"recordId":"\#(Self.record)","start":"2026-11-29T08:00:00.000Z","fields":\#(fields)}"#
        let data = try JSON.parse(Array(text.utf8))
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(type: "record.edited", version: 2, data: data) }
                == .invalidEventData)
        let line = Self.line(version: 2, data: text)
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(try! RecordedEvent(line: line[...])) }
                == .invalidEventData)
    }

    @Test func aVersion2LineWithoutFieldsIsRefused() throws {
        let data = try JSON.parse(#"{"recordId":"\#(Self.record)","start":"2026-11-29T08:00:00.000Z"}"#)
        #expect(
            errorCode { () throws(DomainError) in try DomainEvent(type: "record.edited", version: 2, data: data) }
                == .invalidEventData)
    }

    @Test func anEditNamesTheOptionsGivenAndItsUndoSetsTheSame() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("07:00"), end: log.time("08:00"), tag: .name("work"), comment: "draft"))
        let id = try #require(log.state.records.keys.first)
        let edit = try log.run(
            .edit(record: RecordRef(String(id.uuidString.prefix(8))), end: log.time("08:30"), comment: "final"))
        guard case .recordEdited(_, let fields) = try #require(edit.events.last) else {
            Issue.record("not an edit: \(edit.events)")
            return
        }
        #expect(fields == [.end, .comment])
        let undo = try log.run(.undo)
        guard case .recordEdited(let values, let undoFields) = try #require(undo.events.last) else {
            Issue.record("not an edit: \(undo.events)")
            return
        }
        #expect(undoFields == [.end, .comment])
        #expect(values.end == instant("2026-11-29T08:00:00.000Z") && values.comment == "draft")
    }

    @Test func undoOfAStopSetsTheEndOnly() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("work")))
        log.advance(minutes: 30)
        try log.run(.stop())
        let undo = try log.run(.undo)
        guard case .recordEdited(let values, let fields) = try #require(undo.events.last) else {
            Issue.record("not an edit: \(undo.events)")
            return
        }
        #expect(fields == .end)
        #expect(values.end == nil)
    }

    // MARK: Bookkeeping in the strict fold

    static let device = DeviceID(high: 0x3f2a_9c4e_0b1d_4c6e, low: 0x9f00_5a7b_8c9d_0e1f)
    static let head = String(repeating: "0f", count: 32)

    @Test func bookkeepingPushesNoUndoEntryAndClearsNoRedo() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("work")))
        log.advance(minutes: 5)
        try log.run(.undo)
        let before = log.state
        #expect(before.redoStack.count == 1)
        try log.append([.syncIngested(from: Self.device, upTo: 4, head: Self.head)])
        try log.append([.deviceJoined(spaceId: TestLog.logId, device: Self.device, name: "laptop")])
        try log.append([
            .deviceForked(from: Self.device, upTo: 9, head: Self.head),
            .syncIngested(from: Self.device, upTo: 9, head: Self.head),
        ])
        #expect(log.state.undoStack == before.undoStack)
        #expect(log.state.redoStack == before.redoStack)
        #expect(log.state.records == before.records && log.state.tags == before.tags)
        // Redo still reverts the undo, and undo afterwards the redo: the bookkeeping was skipped.
        try log.run(.redo)
        #expect(log.state.runningRecords.count == 1)
        try log.run(.undo)
        #expect(log.state.runningRecords.isEmpty)
    }

    @Test func theCompactFoldTreatsBookkeepingAsTheReferenceDoes() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("work")))
        try log.run(.undo)
        try log.append([.syncIngested(from: Self.device, upTo: 4, head: Self.head)])
        var compact = try #require(CompactFold(genesis: log.events[0], capacity: 4))
        for event in log.events.dropFirst() {
            let applied = compact.apply(event)
            #expect(applied)
        }
        #expect(compact.logState == log.state)
    }
}
