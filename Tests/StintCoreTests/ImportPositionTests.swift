import Testing

@testable import StintCore

/// Positions: element positions computed in one pass agree with positions computed one by one, and
/// columns count Unicode scalars.
@Suite struct ImportPositionTests {
    static let texts = [
        "[\n{\"a\":\"ü\"},\n  {\"b\":[1,2]} ,\r\n\"✓✓\",\n\n3]",
        "[{\"start\":\"20261127T090000Z\",\"annotation\":\"éé\"},{\"x\":\"🎉\"},[],{},\"\",0]",
        "[]",
        "  [ 1 ]  ",
    ]

    @Test(arguments: texts)
    func elementPositionsAgreeWithSinglePositions(text: String) throws {
        let bytes = Array(text.utf8)
        _ = try JSON.parse(bytes)
        let locator = JSONLocator(bytes)
        let lines = LineIndex(bytes)
        let offsets = locator.items(ofArrayAt: locator.rootOffset)
        let single = offsets.enumerated().map { lines.position($1, in: .timewarriorExport, index: $0) }
        #expect(lines.elementPositions(offsets, in: .timewarriorExport) == single)
        for (offset, position) in zip(offsets, single) {
            let before = bytes[..<offset]
            #expect(position.line == before.filter { $0 == 0x0A }.count + 1)
            let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
            #expect(
                position.column == String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1)
        }
    }

    @Test(arguments: ["timewarrior/export.json", "watson/frames", "watson/updated/frames"])
    func elementPositionsOfTheFixturesAgreeWithSinglePositions(path: String) throws {
        let bytes = try ImportFixtures.bytes(path)
        let locator = JSONLocator(bytes)
        let lines = LineIndex(bytes)
        let offsets = locator.items(ofArrayAt: locator.rootOffset)
        #expect(offsets.count == (try JSON.parse(bytes)).arrayValue?.count)
        let single = offsets.enumerated().map { lines.position($1, in: .watsonFrames, index: $0) }
        #expect(lines.elementPositions(offsets, in: .watsonFrames) == single)
    }

    @Test(arguments: [
        ("[1, 2, [3, 4], {\"a\": \"[,]\"}, 5", 30, 4),
        ("[1, 2", 1, 0),
        ("[1, 2", 3, 1),
        ("[\"a,b\", ", 8, 1),
        ("[] x", 3, nil as Int?),
        ("{\"a\": [1, 2]}", 10, nil),
    ])
    func theElementOfAnOffsetIsFoundInAnyText(text: String, offset: Int, index: Int?) {
        #expect(JSONLocator(Array(text.utf8)).topLevelIndex(at: offset) == index)
    }

    @Test func membersAreFoundByName() throws {
        let bytes = Array(#"{ "a" : 1, "b\"c": [2, {"d": 3}], "e":"x" }"#.utf8)
        let locator = JSONLocator(bytes)
        #expect(locator.member("a", ofObjectAt: 0) == 8)
        #expect(locator.member("b\"c", ofObjectAt: 0) == 19)
        #expect(locator.member("e", ofObjectAt: 0) == 38)
        #expect(locator.member("d", ofObjectAt: 0) == nil)
    }
}
