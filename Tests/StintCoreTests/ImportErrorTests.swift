import Testing

@testable import StintCore

/// Malformed files are refused with the position of the first problem. Each input marks the expected
/// position with `‸`, which is removed before parsing; the expected line, column and byte offset are
/// counted from the marker here, independently of the importer.
@Suite struct ImportErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var document: ImportPosition.Document
        var input: String
        var code: ImportError.Code
        var index: Int?

        var testDescription: String { name }

        /// The input without the marker, and the expected position.
        var prepared: ([UInt8], ImportPosition) {
            let parts = input.components(separatedBy: "‸")
            precondition(parts.count == 2, "one marker per input")
            let before = parts[0]
            let line = before.filter { $0 == "\n" }.count + 1
            let column =
                (before.split(separator: "\n", omittingEmptySubsequences: false).last ?? "").unicodeScalars
                .count + 1
            let position = ImportPosition(
                document: document, offset: before.utf8.count, line: line, column: column, index: index)
            return (Array((parts[0] + parts[1]).utf8), position)
        }

        func parse() throws(ImportError) {
            let (bytes, _) = prepared
            switch document {
            case .timewarriorExport: _ = try TimewarriorExport.parse(bytes)
            case .watsonFrames: _ = try WatsonFrames.parse(frames: bytes, state: nil)
            case .watsonState: _ = try WatsonFrames.parse(frames: Array("[]".utf8), state: bytes)
            }
        }
    }

    static let timewarrior: [Case] = [
        Case(
            name: "truncated in a string", document: .timewarriorExport,
            input: "[\n{\"start\":\"20261127T090000Z\"},\n{\"start\":‸\"2026", code: .malformedJSON, index: 1),
        Case(
            name: "truncated after a comma", document: .timewarriorExport,
            input: "[\n{\"start\":\"20261127T090000Z\"},\n‸", code: .malformedJSON, index: 1),
        Case(name: "empty", document: .timewarriorExport, input: "‸", code: .malformedJSON),
        Case(name: "text after the array", document: .timewarriorExport, input: "[]\n‸x", code: .malformedJSON),
        Case(
            name: "duplicate key", document: .timewarriorExport,
            input: "[{\"start\":\"20261127T090000Z\",‸\"start\":\"20261127T100000Z\"}]", code: .malformedJSON, index: 0),
        Case(
            name: "not an array", document: .timewarriorExport, input: "‸{\"start\":\"20261127T090000Z\"}",
            code: .unexpectedStructure),
        Case(
            name: "element not an object", document: .timewarriorExport,
            input: "[\n  {\"start\":\"20261127T090000Z\"},\n  ‸[\"20261127T090000Z\"]\n]", code: .unexpectedStructure,
            index: 1),
        Case(
            name: "ISO time instead of Timewarrior's", document: .timewarriorExport,
            input: "[{\"start\":‸\"2026-11-27T09:00:00Z\"}]", code: .invalidTime, index: 0),
        Case(
            name: "impossible date", document: .timewarriorExport,
            input: "[{\"start\":\"20261127T090000Z\"},{\"start\":‸\"20261131T090000Z\"}]", code: .invalidTime, index: 1),
        Case(
            name: "local time without Z", document: .timewarriorExport,
            input: "[{\"start\":\"20261127T090000Z\",\"end\":‸\"20261127T100000\"}]", code: .invalidTime, index: 0),
        Case(
            name: "start as a number", document: .timewarriorExport, input: "[{\"start\":‸1795870800}]",
            code: .wrongType, index: 0),
        Case(
            name: "no start", document: .timewarriorExport, input: "[‸{\"id\":1,\"end\":\"20261127T090000Z\"}]",
            code: .missingField, index: 0),
        Case(
            name: "tag not a string", document: .timewarriorExport,
            input: "[{\"start\":\"20261127T090000Z\",\"tags\":[\"a\",‸2]}]", code: .wrongType, index: 0),
        Case(
            name: "tags not an array", document: .timewarriorExport,
            input: "[{\"start\":\"20261127T090000Z\",\"tags\":‸\"a\"}]", code: .wrongType, index: 0),
        Case(
            name: "annotation not a string", document: .timewarriorExport,
            input: "[{\"annotation\":‸[],\"start\":\"20261127T090000Z\"}]", code: .wrongType, index: 0),
        Case(
            name: "columns count characters", document: .timewarriorExport,
            input:
                "[{\"start\":\"20261127T090000Z\",\"annotation\":\"éé\"},\n {\"annotation\":\"ü✓\", \"end\":‸\"yesterday\"}]",
            code: .invalidTime, index: 1),
    ]

    static let watson: [Case] = [
        Case(
            name: "frame with three items", document: .watsonFrames,
            input: "[\n ‸[1795870800, 1795874400, \"p\"]\n]", code: .unexpectedStructure, index: 0),
        Case(
            name: "frame with seven items", document: .watsonFrames,
            input: "[[1795870800, 1795874400, \"p\", \"a\", [], 1], ‸[1795870800, 1795874400, \"p\", \"b\", [], 1, 2]]",
            code: .unexpectedStructure, index: 1),
        Case(
            name: "frame as an object", document: .watsonFrames, input: "[‸{\"start\":1}]", code: .unexpectedStructure,
            index: 0),
        Case(
            name: "frames not an array", document: .watsonFrames, input: "‸{}", code: .unexpectedStructure),
        Case(
            name: "frame without stop", document: .watsonFrames,
            input: "[[1795870800, ‸null, \"p\", \"abc\", [], 1795874400]]", code: .wrongType, index: 0),
        Case(
            name: "start as text", document: .watsonFrames, input: "[[‸\"1795870800\", 1795874400, \"p\", \"abc\"]]",
            code: .wrongType, index: 0),
        Case(
            name: "start out of range", document: .watsonFrames,
            input: "[[1795870800, 1795874400, \"p\", \"abc\"],\n [‸1e20, 1795874400, \"p\", \"def\"]]",
            code: .invalidTime,
            index: 1),
        Case(
            name: "empty frame id", document: .watsonFrames, input: "[[1795870800, 1795874400, \"p\", ‸\"\"]]",
            code: .invalidValue, index: 0),
        Case(
            name: "project as a number", document: .watsonFrames, input: "[[1795870800, 1795874400, ‸7, \"abc\"]]",
            code: .wrongType, index: 0),
        Case(
            name: "tags as an object", document: .watsonFrames,
            input: "[[1795870800, 1795874400, \"p\", \"abc\", ‸{}]]", code: .wrongType, index: 0),
        Case(
            name: "updated_at as text", document: .watsonFrames,
            input: "[[1795870800, 1795874400, \"p\", \"abc\", [], ‸\"now\"]]", code: .wrongType, index: 0),
        Case(
            name: "frames truncated", document: .watsonFrames,
            input: "[[1795870800, 1795874400, \"p\", \"abc\", [], 1795874400],\n [1795870800‸", code: .malformedJSON,
            index: 1),
        Case(name: "frames only white space", document: .watsonFrames, input: "  \n‸", code: .malformedJSON),
        Case(name: "state not an object", document: .watsonState, input: "‸[]", code: .unexpectedStructure),
        Case(
            name: "state without start", document: .watsonState, input: "‸{\"project\":\"p\",\"tags\":[]}",
            code: .missingField),
        Case(
            name: "state start as text", document: .watsonState, input: "{\"project\":\"p\",\"start\":‸\"9:00\"}",
            code: .wrongType),
        Case(
            name: "state project as a number", document: .watsonState, input: "{\"project\":‸1,\"start\":1795870800}",
            code: .wrongType),
        Case(name: "state truncated", document: .watsonState, input: "{\"project\":\"p\",‸", code: .malformedJSON),
    ]

    @Test(arguments: timewarrior + watson)
    func malformedInputIsRefusedAtItsFirstProblem(_ testCase: Case) throws {
        let (_, expected) = testCase.prepared
        let error = try #require(throws: ImportError.self) { try testCase.parse() }
        #expect(error.code == testCase.code)
        #expect(error.position == expected)
        #expect(error.expected?.isEmpty == false)
        #expect(error.message.contains(expected.description))
        #expect((error.cause != nil) == (testCase.code == .malformedJSON))
    }

    /// Cutting the real export anywhere gives a refusal that names a plausible position, never a crash or a
    /// partial result.
    @Test func everyTruncationOfTheRealExportIsRefused() throws {
        let bytes = try ImportFixtures.bytes("timewarrior/export.json")
        let elements = try TimewarriorExport.parse(bytes).count
        let end = bytes.lastIndex(of: UInt8(ascii: "]"))!
        for cut in stride(from: 0, to: end, by: 7) {
            let prefix = Array(bytes[..<cut])
            let error = try #require(throws: ImportError.self) { try TimewarriorExport.parse(prefix) }
            let position = try #require(error.position)
            #expect(error.code == .malformedJSON)
            #expect(position.offset <= cut)
            #expect(position.line == prefix[..<position.offset].filter { $0 == 0x0A }.count + 1)
            if let index = position.index { #expect(index < elements) }
            #expect((position.index == nil) == (cut <= 1))
        }
    }
}
