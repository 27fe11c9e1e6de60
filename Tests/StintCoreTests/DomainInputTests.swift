import Testing

@testable import StintCore

@Suite struct DomainInputTests {
    @Test(arguments: [
        ("3f2a", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", true),
        ("3F2A9C4E-0B", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", true),
        ("3f2a9c4e0b1d", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", true),
        ("3f2a-9c4e", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", true),
        ("3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", true),
        ("3f2b", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", false),
        ("3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e10", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f", false),
    ])
    func aReferenceMatchesIdsThatStartWithItsDigits(text: String, id: String, matches: Bool) throws {
        #expect(try RecordRef(text).matches(EntityID(id)!) == matches)
    }

    @Test(arguments: [
        ("3f2", DomainError.Code.referenceTooShort),
        ("", .referenceTooShort),
        ("3f-2", .referenceTooShort),
        ("3f2g", .invalidReference),
        ("work", .invalidReference),
        (String(repeating: "a", count: 33), .invalidReference),
    ])
    func aMalformedReferenceIsAUsageError(text: String, code: DomainError.Code) {
        let error = domainError { () throws(DomainError) in try RecordRef(text) }
        #expect(error?.code == code)
        #expect(error?.category == .usage)
    }

    @Test func theStateListsTheLiveRecordsAReferenceMatches() throws {
        let ids = SequentialIDs()
        ids.queue([
            EntityID("abcd1111-0000-4000-8000-000000000001")!, EntityID("abcd2222-0000-4000-8000-000000000002")!,
            EntityID("abce0000-0000-4000-8000-000000000003")!,
        ])
        var log = TestLog(ids: ids)
        try log.run(.start(at: log.time("08:00")))
        try log.run(.start(at: log.time("07:00")))
        try log.run(.start())
        #expect(
            log.state.records(matching: try RecordRef("abcd")).map(\.id.uuidString).map { $0.prefix(8) } == [
                "abcd2222", "abcd1111",
            ])
        try log.run(.delete(record: try RecordRef("abcd2")))
        #expect(log.state.records(matching: try RecordRef("abcd")).count == 1)
    }

    @Test func aReferenceToAnIdMatchesExactlyThatId() {
        let id = EntityID("3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f")!
        #expect(RecordRef(id).matches(id))
        #expect(!RecordRef(id).matches(EntityID("3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1e")!))
    }

    @Test func tagNamesAreTrimmedAndCountCharacters() throws {
        #expect(try InputLimits.tagName("  Deep\u{00A0}work \n") == "Deep\u{00A0}work")
        let family = "👨‍👩‍👧‍👦"
        #expect(try InputLimits.tagName(String(repeating: family, count: 64)).count == 64)
        #expect(
            errorCode { () throws(DomainError) in try InputLimits.tagName(String(repeating: family, count: 65)) }
                == .tagNameTooLong)
        #expect(errorCode { () throws(DomainError) in try InputLimits.tagName("a\u{7F}b") } == .tagNameControlCharacter)
        #expect(errorCode { () throws(DomainError) in try InputLimits.tagName("a\tb") } == .tagNameControlCharacter)
    }

    @Test func commentsKeepNewlinesAndTabsAndBecomeNilWhenBlank() throws {
        #expect(try InputLimits.comment(" one\n\ttwo ") == "one\n\ttwo")
        #expect(try InputLimits.comment(" \n ") == nil)
        #expect(try InputLimits.comment(String(repeating: "x", count: 500))?.count == 500)
        #expect(
            errorCode { () throws(DomainError) in try InputLimits.comment(String(repeating: "x", count: 501)) }
                == .commentTooLong)
        #expect(
            errorCode { () throws(DomainError) in try InputLimits.comment("bell\u{07}") } == .commentControlCharacter)
    }

    @Test func colorsAreNormalizedToUppercase() throws {
        #expect(try InputLimits.color("#a0b1c2") == "#A0B1C2")
        #expect(InputLimits.isCanonicalColor("#A0B1C2"))
        #expect(!InputLimits.isCanonicalColor("#a0b1c2"))
    }

    @Test func everyErrorCodeHasACategory() {
        let usage = DomainError.Code.allCases.filter { $0.category == .usage }
        let damaged = DomainError.Code.allCases.filter { $0.category == .damaged }
        #expect(usage.contains(.invalidTime))
        #expect(
            damaged == [
                .unknownEventType, .unknownEventVersion, .invalidEventData, .inconsistentEvent, .invalidCheckpoint,
            ])
        #expect(DomainError.Code.severalRunning.category == .refused)
    }
}
