import Testing

@testable import StintCore

@Suite struct DomainDecideTagTests {
    @Test func addTakesTheNextPaletteColorOrTheGivenOne() throws {
        var log = TestLog()
        let first = try log.run(.addTag(name: "A"))
        #expect(
            first.outcome == .tagAdded(StintCore.Tag(id: SequentialIDs.id(1), name: "A", color: TagPalette.colors[0])))
        try log.run(.deleteTag(name: "A"))
        let second = try log.run(.addTag(name: "B"))
        #expect(second.events == [.tagCreated(tagId: SequentialIDs.id(2), name: "B", color: TagPalette.colors[1])])
        let third = try log.run(.addTag(name: "C", color: " #a0b1c2 "))
        #expect(third.events == [.tagCreated(tagId: SequentialIDs.id(3), name: "C", color: "#A0B1C2")])
    }

    @Test func thePaletteCycles() {
        #expect(TagPalette.color(forTagNumber: TagPalette.colors.count) == TagPalette.colors[0])
        #expect(Set(TagPalette.colors).count == TagPalette.colors.count)
        #expect(TagPalette.colors.allSatisfy(InputLimits.isCanonicalColor))
    }

    @Test(arguments: ["red", "#12345", "#1234567", "#GGGGGG", "123456"])
    func aBadColorIsAUsageError(color: String) {
        var log = TestLog()
        let error = domainError { () throws(DomainError) in try log.run(.addTag(name: "A", color: color)) }
        #expect(error?.code == .invalidColor)
        #expect(error?.category == .usage)
    }

    @Test(arguments: ["Untagged", "other", " OTHER ", "UNTAGGED"])
    func theNamesOfSummaryRowsAreReservedForNewTags(_ name: String) throws {
        var log = TestLog()
        let add = domainError { () throws(DomainError) in try log.run(.addTag(name: name)) }
        #expect(add?.code == .tagNameReserved)
        #expect(add?.category == .usage)
        #expect(errorCode { () throws(DomainError) in try log.run(.start(tag: .name(name))) } == .tagNameReserved)
        #expect(
            errorCode { () throws(DomainError) in
                try log.run(.track(start: log.time("08:00"), end: log.time("08:30"), tag: .name(name)))
            } == .tagNameReserved)
        try log.run(.addTag(name: "Work"))
        #expect(
            errorCode { () throws(DomainError) in try log.run(.renameTag(name: "Work", newName: name)) }
                == .tagNameReserved)
        #expect(log.state.tags.values.map(\.name) == ["Work"])
        // Names that only contain them are fine.
        #expect(try log.run(.addTag(name: "\(name) work")).events.count == 1)
    }

    @Test func namesCollideCaseInsensitivelyAmongTagsThatAreNotDeleted() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        #expect(errorCode { () throws(DomainError) in try log.run(.addTag(name: "work")) } == .tagNameTaken)
        try log.run(.archiveTag(name: "Work"))
        #expect(errorCode { () throws(DomainError) in try log.run(.addTag(name: "WORK")) } == .tagNameTaken)
        try log.run(.deleteTag(name: "Work"))
        #expect(try log.run(.addTag(name: "work")).events.count == 1)
    }

    @Test func renameChecksCollisionsButAllowsANewCase() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        try log.run(.addTag(name: "Home"))
        #expect(
            errorCode { () throws(DomainError) in try log.run(.renameTag(name: "home", newName: "WORK")) }
                == .tagNameTaken)
        let decision = try log.run(.renameTag(name: "work", newName: "WORK"))
        guard case .tagRenamed(let before, let after) = decision.outcome else {
            Issue.record("not renamed")
            return
        }
        #expect(before.name == "Work")
        #expect(after.name == "WORK")
        let same = try log.run(.renameTag(name: "work", newName: "WORK"))
        #expect(same.events.isEmpty)
        #expect(same.notices.map(\.code) == [.unchanged])
        #expect(
            errorCode { () throws(DomainError) in try log.run(.renameTag(name: "Nope", newName: "X")) } == .unknownTag)
        #expect(
            errorCode { () throws(DomainError) in try log.run(.renameTag(name: "Home", newName: "\t")) }
                == .tagNameEmpty)
    }

    @Test func archiveAndUnarchiveAreIdempotent() throws {
        var log = TestLog()
        try log.run(.addTag(name: "Work"))
        #expect(try log.run(.unarchiveTag(name: "Work")).notices.map(\.code) == [.unchanged])
        #expect(try log.run(.archiveTag(name: "Work")).events == [.tagArchived(tagId: SequentialIDs.id(1))])
        #expect(log.tag("Work")?.isArchived == true)
        #expect(try log.run(.archiveTag(name: "Work")).events.isEmpty)
        #expect(try log.run(.unarchiveTag(name: "work")).events == [.tagUnarchived(tagId: SequentialIDs.id(1))])
    }

    @Test func deleteKeepsTheTagForHistory() throws {
        var log = TestLog()
        try log.run(.start(tag: .name("Work")))
        try log.run(.deleteTag(name: "Work"))
        #expect(log.state.tags[SequentialIDs.id(1)]?.isDeleted == true)
        #expect(log.state.runningRecords.first?.tagId == SequentialIDs.id(1))
        #expect(errorCode { () throws(DomainError) in try log.run(.deleteTag(name: "Work")) } == .unknownTag)
        // Editing only the comment of a record whose tag was deleted keeps the tag id.
        try log.run(.edit(record: try RecordRef("0002"), comment: "still here"))
        #expect(log.state.runningRecords.first?.tagId == SequentialIDs.id(1))
    }
}
