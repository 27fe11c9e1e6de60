import Testing

@testable import StintCore

/// The import events in the log: their bytes, strict decoding, and what the fold accepts and computes.
@Suite struct ImportEventsTests {
    static let id = EntityID.derived(source: .watson, identity: "89ce624f2bcb4ae29908d5cfeb96ceaa")
    static let source = ImportSource(system: .watson, identity: "89ce624f2bcb4ae29908d5cfeb96ceaa")
    static let start = instant("2026-10-26T17:00:00.000Z")
    static let end = instant("2026-10-26T21:30:00.000Z")
    static var record: Record { Record(id: id, start: start, end: end, comment: "Tags: dev, backend") }

    @Test func theCanonicalPayloadIsPinned() {
        #expect(
            DomainEvent.recordImported(Self.record, source: Self.source).draft.data.encodedString
                == #"{"recordId":"\#(Self.id.uuidString)","start":"2026-10-26T17:00:00.000Z","end":"2026-10-26T21:30:00.000Z","comment":"Tags: dev, backend","source":{"system":"watson","identity":"89ce624f2bcb4ae29908d5cfeb96ceaa"}}"#
        )
        #expect(
            DomainEvent.recordUnimported(recordId: Self.id).draft.data.encodedString
                == #"{"recordId":"\#(Self.id.uuidString)"}"#)
    }

    @Test(arguments: [
        ("record.imported", #"{"recordId":"%ID","start":"2026-10-26T17:00:00.000Z"}"#, "source"),
        ("record.imported", #"{"recordId":"%ID","start":"2026-10-26T17:00:00.000Z","source":"watson"}"#, "source"),
        (
            "record.imported",
            #"{"recordId":"%ID","start":"2026-10-26T17:00:00.000Z","source":{"system":"toggl","identity":"1"}}"#,
            "source"
        ),
        (
            "record.reimported",
            #"{"recordId":"%ID","start":"2026-10-26T17:00:00.000Z","source":{"system":"watson","identity":""}}"#,
            "source"
        ),
        (
            "record.reimported",
            #"{"recordId":"%ID","start":"2026-10-26T17:00:00.000Z","source":{"system":"watson","identity":"x","at":1}}"#,
            "source"
        ),
        ("record.reimported", #"{"recordId":"%ID","source":{"system":"watson","identity":"x"}}"#, "start"),
        ("record.unimported", #"{"recordId":"%ID","source":{"system":"watson","identity":"x"}}"#, "source"),
    ])
    func aBadPayloadIsAnErrorNamingTheMember(type: String, json: String, member: String) throws {
        let data = try JSON.parse(json.replacingOccurrences(of: "%ID", with: Self.id.uuidString))
        let error = try #require(
            domainError { () throws(DomainError) in try DomainEvent(type: type, version: 1, data: data) })
        #expect(error.code == .invalidEventData && error.member == member)
    }

    @Test func anImportedRecordCanBeWithdrawnAndImportedAgain() throws {
        var log = TestLog()
        try log.append([.recordImported(Self.record, source: Self.source)])
        #expect(log.state.importProvenance[Self.id]?.values == Self.record)
        #expect(log.state.undoStack.last?.inverses == [.recordUnimported(recordId: Self.id)])
        try log.append([.recordUnimported(recordId: Self.id)])
        #expect(log.state.records[Self.id] == nil && log.state.importProvenance[Self.id] == nil)
        #expect(!log.state.deletedRecordIds.contains(Self.id))
        try log.append([.recordImported(Self.record, source: Self.source)])
        #expect(log.state.records[Self.id] == Self.record)
    }

    @Test func aDeletedImportedRecordKeepsItsIdAndItsProvenance() throws {
        var log = TestLog()
        try log.append([.recordImported(Self.record, source: Self.source)])
        try log.append([.recordDeleted(recordId: Self.id)])
        #expect(log.state.importProvenance[Self.id] != nil)
        let reused = domainError { () throws(DomainError) in
            try log.append([.recordImported(Self.record, source: Self.source)])
        }
        #expect(reused?.code == .inconsistentEvent)
    }

    @Test func eventsForRecordsThatWereNotImportedAreInconsistent() throws {
        var log = TestLog()
        try log.run(.track(start: log.time("2026-11-28T09:00"), end: log.time("2026-11-28T10:00")))
        let tracked = try #require(log.state.records.keys.first)
        for event in [
            DomainEvent.recordReimported(Record(id: tracked, start: Self.start), source: Self.source),
            .recordUnimported(recordId: tracked), .recordUnimported(recordId: Self.id),
            .recordReimported(Self.record, source: Self.source),
        ] {
            let error = domainError { () throws(DomainError) in try log.append([event]) }
            #expect(error?.code == .inconsistentEvent, "\(event)")
        }
    }

    @Test func theInverseOfAReimportRestoresTheRecordAndTheSourceValuesSeparately() throws {
        var log = TestLog()
        try log.append([.recordImported(Self.record, source: Self.source)])
        var edited = Self.record
        edited.comment = "mine"
        try log.append([.recordEdited(edited, fields: .comment)])
        var changed = Self.record
        changed.end = instant("2026-10-26T22:00:00.000Z")
        let moved = ImportSource(system: .watson, identity: "another")
        try log.append([.recordReimported(changed, source: moved)])
        #expect(log.state.importProvenance[Self.id]?.source == moved)
        #expect(
            log.state.undoStack.last?.inverses == [
                .recordReimported(Self.record, source: Self.source), .recordEdited(edited, fields: .comment),
            ])
        try log.run(.undo)
        #expect(log.state.records[Self.id] == edited)
        #expect(log.state.importProvenance[Self.id]?.values == Self.record)
        #expect(log.state.importProvenance[Self.id]?.source == Self.source)
    }

    @Test func aBatchOfManyEventsKeepsItsInversesInReverseOrder() throws {
        var log = TestLog()
        let records = (0..<500).map { index in
            Record(
                id: EntityID.derived(source: .timewarrior, identity: "\(index)"),
                start: Self.start.adding(milliseconds: Int64(index) * 60_000))
        }
        try log.append(
            records.map { .recordImported($0, source: ImportSource(system: .timewarrior, identity: "\($0.start)")) })
        #expect(log.state.undoStack.last?.inverses == records.reversed().map { .recordUnimported(recordId: $0.id) })
        let restored = try CompactCheckpointTests().restore(log.state.compactCheckpoint)
        #expect(restored.undoStack == log.state.undoStack)
    }
}
