import Testing

@testable import StintCore

/// The mapping of intervals to records, one rule per row.
@Suite struct ImportPlanTests {
    static let start = TimewarriorExport.instant("20261127T140000Z")!
    static let end = TimewarriorExport.instant("20261127T150000Z")!
    static let longName = String(repeating: "n", count: 65)

    static func timewarrior(_ tags: [String], annotation: String? = nil, end: Instant? = end) -> ImportedInterval {
        ImportedInterval(
            source: ImportSource(system: .timewarrior, identity: start.iso8601),
            position: ImportPosition(document: .timewarriorExport, offset: 1, line: 1, column: 2, index: 0),
            start: start, end: end, tags: tags, annotation: annotation)
    }

    static func watson(_ project: String, _ tags: [String], id: String = "0123456789abcdef0123456789abcdef")
        -> ImportedInterval
    {
        ImportedInterval(
            source: ImportSource(system: .watson, identity: id),
            position: ImportPosition(document: .watsonFrames, offset: 1, line: 1, column: 2, index: 0), start: start,
            end: end, project: project, tags: tags)
    }

    struct MappingCase: CustomTestStringConvertible, Sendable {
        var name: String
        var interval: ImportedInterval
        var options = ImportOptions()
        var tagName: String?
        var comment: String?
        var namesInComments: [String] = []
        var testDescription: String { name }
    }

    static let mappingCases: [MappingCase] = [
        MappingCase(name: "one tag", interval: timewarrior(["work"]), tagName: "work"),
        MappingCase(
            name: "a name reserved for a summary row", interval: timewarrior(["Other", "dev"]),
            tagName: "Other (imported)", comment: "Tags: dev"),
        MappingCase(
            name: "a reserved Watson project", interval: watson("untagged", []), tagName: "untagged (imported)"),
        MappingCase(name: "no tags", interval: timewarrior([])),
        MappingCase(name: "annotation only", interval: timewarrior([], annotation: "notes"), comment: "notes"),
        MappingCase(name: "empty annotation", interval: timewarrior(["a"], annotation: ""), tagName: "a"),
        MappingCase(
            name: "first tag is the tag, the others follow the annotation",
            interval: timewarrior(["Client", "dev", "urgent"], annotation: "Fixed #12"), tagName: "Client",
            comment: "Fixed #12\nTags: dev, urgent"),
        MappingCase(
            name: "a preferred tag wins, case-insensitively, in the order of preference",
            interval: timewarrior(["a", "b", "c"]), options: ImportOptions(preferredTags: ["C", "b"]), tagName: "c",
            comment: "Tags: a, b"),
        MappingCase(
            name: "a preferred tag the interval lacks changes nothing", interval: timewarrior(["a", "b"]),
            options: ImportOptions(preferredTags: ["z"]), tagName: "a", comment: "Tags: b"),
        MappingCase(
            name: "a name over 64 characters goes into the comment", interval: timewarrior([longName, "short"]),
            tagName: "short", comment: "Tags: \(longName)", namesInComments: [longName]),
        MappingCase(
            name: "exactly 64 characters is a tag", interval: timewarrior([String(repeating: "n", count: 64)]),
            tagName: String(repeating: "n", count: 64)),
        MappingCase(
            name: "a blank name is no tag", interval: timewarrior(["   "]), comment: "Tags: \"   \"",
            namesInComments: ["   "]),
        MappingCase(
            name: "a name with a control character is no tag", interval: timewarrior(["ok", "x\u{7}y"]), tagName: "ok",
            comment: "Tags: \"x\\u0007y\"", namesInComments: ["x\u{7}y"]),
        MappingCase(
            name: "names that would be ambiguous are written as JSON strings",
            interval: timewarrior(["a b", " lead", "q\"uote", "back\\slash", "code, review", "tab\there"]),
            tagName: "a b", comment: #"Tags: " lead", "q\"uote", "back\\slash", "code, review", "tab\there""#,
            namesInComments: ["tab\there"]),
        MappingCase(
            name: "names are trimmed as the domain trims them", interval: timewarrior([" padded ", "b"]),
            tagName: "padded", comment: "Tags: b"),
        MappingCase(
            name: "a preferred tag matches after trimming", interval: timewarrior(["a", " B "]),
            options: ImportOptions(preferredTags: ["b"]), tagName: "B", comment: "Tags: a"),
        MappingCase(
            name: "comments are trimmed as the domain trims them",
            interval: timewarrior([], annotation: "\n  note \t\n"),
            comment: "note"),
        MappingCase(
            name: "an annotation of white space is no comment", interval: timewarrior(["x"], annotation: " \n "),
            tagName: "x"),
        MappingCase(
            name: "Watson: the project is the tag, the tags go to the comment",
            interval: watson("apollo", ["brakes", "code review"]), tagName: "apollo",
            comment: "Tags: brakes, code review"),
        MappingCase(name: "Watson: a project alone", interval: watson("apollo", []), tagName: "apollo"),
        MappingCase(name: "Watson: an empty project", interval: watson("", ["x"]), comment: "Tags: x"),
        MappingCase(
            name: "Watson: a project over 64 characters", interval: watson(longName, ["x"]),
            comment: "Project: \(longName)\nTags: x", namesInComments: [longName]),
        MappingCase(
            name: "Watson: the tags are not used for the tag even when the project cannot be",
            interval: watson("a\u{1}b", ["fine"]), comment: "Project: \"a\\u0001b\"\nTags: fine",
            namesInComments: ["a\u{1}b"]),
    ]

    @Test(arguments: mappingCases)
    func namesMapToATagAndAComment(_ testCase: MappingCase) throws {
        let plan = ImportPlan.make(intervals: [testCase.interval], options: testCase.options)
        let record = try #require(plan.records.first)
        #expect(record.tagName == testCase.tagName)
        #expect(record.comment == testCase.comment)
        #expect(plan.report.namesInComments.map(\.name) == testCase.namesInComments)
        #expect(plan.report.commentsWithExtraTags == (record.comment?.contains("Tags: ") == true ? 1 : 0))
        #expect(try record.tagName.map(InputLimits.tagName) == record.tagName)
        #expect(try record.comment.flatMap(InputLimits.comment) == record.comment)
    }

    @Test(arguments: [(Int64(0), false), (Int64(1), true), (Int64(-1_000), false)])
    func recordsLongerThanTheDomainAllowsAreReported(beyondLimit: Int64, listed: Bool) {
        let end = Self.start.adding(milliseconds: InputLimits.maximumRecordMilliseconds + beyondLimit)
        let plan = ImportPlan.make(intervals: [Self.timewarrior(["x"], end: end)])
        #expect(plan.records.count == 1)
        #expect(plan.report.longerThanMaximum.map(\.recordId) == (listed ? [plan.records[0].recordId] : []))
    }

    @Test(arguments: [
        ("line1\r\nline2\rline3", "line1\nline2\nline3", true),
        ("nul\u{0}bell\u{7}del\u{7F}c1\u{85}", "nul\u{FFFD}bell\u{FFFD}del\u{FFFD}c1\u{FFFD}", true),
        ("tab\tand\nnewline stay", "tab\tand\nnewline stay", false),
    ])
    func controlCharactersInAnnotationsAreReplacedAndReported(annotation: String, comment: String, replaced: Bool) {
        let plan = ImportPlan.make(intervals: [Self.timewarrior([], annotation: annotation)])
        #expect(plan.records.first?.comment == comment)
        #expect(plan.report.controlCharactersReplaced.count == (replaced ? 1 : 0))
    }

    @Test(arguments: [
        (499, false), (500, false), (501, true), (2_000, true),
    ])
    func commentsAreCutTo500CharactersEndingInAnEllipsis(length: Int, truncated: Bool) throws {
        // "é" as e + combining accent: one character of two scalars, so the limit counts characters.
        let annotation = String(repeating: "e\u{301}", count: length)
        let plan = ImportPlan.make(intervals: [Self.timewarrior([], annotation: annotation)])
        let comment = try #require(plan.records.first?.comment)
        #expect(comment.count == min(length, 500))
        #expect(plan.report.truncated.count == (truncated ? 1 : 0))
        if truncated {
            #expect(comment == String(repeating: "e\u{301}", count: 499) + "…")
            #expect(plan.report.truncated.first?.fullComment == annotation)
            #expect(plan.report.truncated.first?.length == length)
        } else {
            #expect(comment == annotation)
        }
    }

    @Test func aTagsLineIsCutLikeAnyOtherText() throws {
        let tags = (0..<100).map { "tag\($0)" }
        let plan = ImportPlan.make(intervals: [Self.timewarrior(tags)])
        let comment = try #require(plan.records.first?.comment)
        #expect(comment.count == 500)
        #expect(plan.report.truncated.first?.fullComment == "Tags: " + tags.dropFirst().joined(separator: ", "))
    }

    @Test(arguments: [
        (Int64(-1), ImportReport.SkipReason.endBeforeStart),
        (Int64(0), ImportReport.SkipReason.empty),
    ])
    func intervalsThatHoldNoTimeAreSkippedAndReported(endOffset: Int64, reason: ImportReport.SkipReason) throws {
        var bad = Self.timewarrior(["x"], end: Self.start.adding(milliseconds: endOffset * 1000))
        bad.source.identity = "bad"
        let good = Self.timewarrior(["x"])
        let plan = ImportPlan.make(intervals: [bad, good])
        #expect(plan.records.map(\.source) == [good.source])
        #expect(plan.report.read == 2)
        #expect(plan.report.mapped == 1)
        let skip = try #require(plan.report.skipped.first)
        #expect(plan.report.skipped.count == 1)
        #expect(skip.reason == reason)
        #expect(skip.position == bad.position)
        #expect(plan.report.skipped(reason).count == 1)
    }

    @Test func anEndBeforeTheStartInAFileIsReportedWithItsPosition() throws {
        let text =
            "[\n{\"start\":\"20261127T090000Z\",\"end\":\"20261127T100000Z\"},\n{\"start\":\"20261127T110000Z\",\"end\":\"20261127T100000Z\"}\n]"
        let plan = ImportPlan.make(intervals: try TimewarriorExport.parse(Array(text.utf8)))
        let skip = try #require(plan.report.skipped.first)
        #expect(skip.reason == .endBeforeStart)
        #expect(skip.position == ImportPosition(document: .timewarriorExport, offset: 57, line: 3, column: 1, index: 1))
        #expect(plan.records.count == 1)
    }

    @Test func aRepeatedIdentityIsImportedOnceAndReported() throws {
        let text = """
            [[1795870800, 1795874400, "a", "f00d", []],
             [1795880000, 1795890000, "b", "f00d", []]]
            """
        let plan = ImportPlan.make(intervals: try WatsonFrames.parse(frames: Array(text.utf8), state: nil))
        #expect(plan.records.map(\.tagName) == ["a"])
        #expect(plan.report.skipped.map(\.reason) == [.duplicateIdentity])
        #expect(plan.report.skipped.first?.position.index == 1)
    }

    @Test func membersTimewarriorDoesNotWriteAreCountedInTheReport() throws {
        let text = """
            [{"id":2,"start":"20261127T090000Z","end":"20261127T100000Z","uuid":"x","color":1},
             {"id":1,"start":"20261127T110000Z","uuid":"y"}]
            """
        let plan = ImportPlan.make(intervals: try TimewarriorExport.parse(Array(text.utf8)))
        #expect(plan.report.unknownMembers.map(\.name) == ["uuid", "color"])
        #expect(plan.report.unknownMembers.map(\.count) == [2, 1])
        #expect(plan.report.unknownMembers.first?.first.index == 0)
        #expect(plan.report.running == 1)
    }

    @Test(arguments: [
        ("1795870800", Int64(1_795_870_800_000), false),
        ("1795870800.5", Int64(1_795_870_800_500), false),
        ("1795870800.123", Int64(1_795_870_800_123), false),
        ("1795870800.0004", Int64(1_795_870_800_000), true),
        ("1795870800.9996", Int64(1_795_870_801_000), true),
        ("-1.5", Int64(-1_500), false),
    ])
    func watsonEpochsBecomeExactInstants(text: String, milliseconds: Int64, rounded: Bool) throws {
        let frames = "[[\(text), 1895870800, \"p\", \"id\", [], 1795870800]]"
        let intervals = try WatsonFrames.parse(frames: Array(frames.utf8), state: nil)
        #expect(intervals.first?.start == Instant(milliseconds: milliseconds))
        let plan = ImportPlan.make(intervals: intervals)
        #expect(plan.report.roundedToMillisecond.count == (rounded ? 1 : 0))
    }

    @Test(arguments: [
        ("", nil as String?, 0), ("[]", "{}", 0), ("[]", "", 0), ("", nil, 0),
        ("[[1795870800, 1795874400, \"p\", \"id\"]]", "{\"tags\":[\"x\"]}", 1),
        ("[]", "{\"project\":\"p\",\"start\":1795870800}", 1),
    ])
    func watsonFilesThatWatsonTreatsAsEmptyAreEmpty(frames: String, state: String?, count: Int) throws {
        let intervals = try WatsonFrames.parse(frames: Array(frames.utf8), state: state.map { Array($0.utf8) })
        #expect(intervals.count == count)
    }

    @Test func aFinishedWatsonFrameNamesTheRunningRecordItCompletes() throws {
        let state = try WatsonFrames.parse(
            frames: [], state: Array(#"{"project":"apollo","start":1795870800,"tags":["x"]}"#.utf8))
        let stopped = try WatsonFrames.parse(
            frames: Array(#"[[1795870800, 1795874400, "apollo", "0a1b", ["x"], 1795874400]]"#.utf8),
            state: Array("{}".utf8))
        let running = ImportPlan.make(intervals: state).records[0]
        let finished = ImportPlan.make(intervals: stopped).records[0]
        #expect(running.isRunning)
        #expect(finished.replacesRunningId == running.recordId)
        #expect(finished.recordId != running.recordId)
    }

    @Test func tagNamesThatDifferOnlyInCaseAreReportedAsOne() {
        let intervals = ["Work", "work", "Home", "WORK"].enumerated().map { index, project in
            var interval = ImportPlanTests.watson(project, [], id: "id\(index)")
            interval.start = interval.start.adding(milliseconds: Int64(index))
            return interval
        }
        let report = ImportPlan.make(intervals: intervals).report
        #expect(report.tagNames == ["Work", "Home"])
        #expect(report.mergedTagSpellings == [["Work", "work", "WORK"]])
    }

    @Test func theReportHasACanonicalJSONForm() throws {
        var bad = Self.timewarrior(["x"], end: Self.start)
        bad.source.identity = "bad"
        let plan = ImportPlan.make(intervals: [bad, Self.timewarrior([Self.longName, "ok"], end: nil)])
        let json = plan.report.json
        #expect(json["read"] == .int(2))
        #expect(json["running"] == .int(1))
        #expect(json["skips"]?.arrayValue?.first?["reason"] == .string("empty"))
        #expect(json["namesInComments"]?.arrayValue?.first?["name"] == .string(Self.longName))
        #expect(try JSON.parse(json.encoded()) == json)
    }
}
