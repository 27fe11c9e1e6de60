import Foundation
import StintCore
import Testing

@testable import StintLog

/// The one gap a log may have: after a `log.repaired` that names a resume point, the next event has that
/// `seq` and that `prev` (docs/log-format.md §6.1). Every reader follows it; nothing else is a gap.
@Suite struct LogGapTests {
    @Test func aColdReadGoesOnAfterTheGap() throws {
        let gap = try GapLog()
        let (events, warning) = try gap.fixture.readAll()
        #expect(warning == nil)
        #expect(events == gap.expected)
        #expect(events.map(\.seq).contains(gap.from))
        #expect(!events.map(\.seq).contains(gap.from + 1))
        let reader = try gap.fixture.reader()
        #expect(try reader.lastSeq() == gap.original.last!.seq)
    }

    @Test func verifyPassesAndCountsTheEventsThere() throws {
        let gap = try GapLog()
        let report = try gap.fixture.reader().verify()
        #expect(report.problems == [])
        #expect(report.eventCount == Int64(gap.expected.count))
    }

    @Test func readingFromAnySeqGivesTheEventsFromThere() throws {
        let gap = try GapLog()
        for start in 1...(gap.original.last!.seq + 1) {
            let (events, warning) = try gap.fixture.readAll(from: start)
            #expect(warning == nil, "from seq \(start)")
            #expect(events == gap.expected.filter { $0.seq >= start }, "from seq \(start)")
        }
    }

    @Test func theBatchAfterTheRecordSaysWhichEventItFollows() throws {
        let gap = try GapLog()
        let cursor = try gap.fixture.reader().batches(from: gap.from + 1)
        let first = try #require(try cursor.next())
        #expect(first.firstSeq == gap.resumesAt)
        #expect(cursor.lastSeqBefore == gap.from)
    }

    @Test func aWrongResumeLinkBreaksTheChainThere() throws {
        let gap = try GapLog(resume: { ResumePoint(seq: $0.seq, link: "0123456789abcdef0123456789abcdef") })
        let (events, warning) = try gap.fixture.readAll()
        #expect(events == Array(gap.expected.prefix { $0.seq <= gap.from }))
        #expect(warning?.kind == .chainBroken)
        #expect(warning?.location.seq == gap.resumesAt)
        #expect(warning?.message.contains("resume link") == true)
        let problems = try gap.fixture.reader().verify().problems
        #expect(problems.map(\.kind).contains(.chainBroken))
    }

    @Test func aResumePointThatIsNotTheNextSegmentIsALayoutProblem() throws {
        let wrong = try GapLog(resume: { ResumePoint(seq: $0.seq + 1, link: $0.link) })
        let (events, warning) = try wrong.fixture.readAll()
        #expect(events == Array(wrong.expected.prefix { $0.seq <= wrong.from }))
        #expect(warning?.kind == .segmentLayout)
        #expect(warning?.message.contains("resumes at seq \(wrong.resumesAt + 1)") == true)
        #expect(try !wrong.fixture.reader().verify().problems.isEmpty)
    }

    @Test func withoutAResumePointTheGapIsDamageAsBefore() throws {
        let gap = try GapLog(resume: { _ in nil })
        let (events, warning) = try gap.fixture.readAll()
        #expect(events == Array(gap.expected.prefix { $0.seq <= gap.from }))
        #expect(warning?.kind == .segmentLayout)
        #expect(try !gap.fixture.reader().verify().problems.isEmpty)
    }

    @Test func aWriterDoesNotAppendRightAfterARecordThatAwaitsItsKeptEvents() throws {
        let gap = try GapLog(after: .nothing)
        #expect(try gap.fixture.readAll().events == gap.expected)
        let before = try gap.fixture.snapshot()
        let error = Self.appendRefusal(gap)
        #expect(error?.code == .damaged)
        #expect(error?.message.contains("resumes at seq \(gap.resumesAt)") == true)
        #expect(try gap.fixture.snapshot().filter { $0.key != CheckedSegments.name } == before)
    }

    @Test(arguments: [GapLog.After.sealedSegments, .activeSegment])
    func aWriterAppendsAfterTheGapAndAColdReadFindsIt(after: GapLog.After) throws {
        let gap = try GapLog(after: after)
        var appended: [RecordedEvent] = []
        // Opened with nothing remembered (every segment checked whole), then again with the `checked` file the
        // first writer left (the gap's ending read through the seal), then once more without it.
        for n in 0..<3 {
            if n == 2 { try FileManager.default.removeItem(atPath: gap.fixture.path + "/" + CheckedSegments.name) }
            let writer = try gap.fixture.open()
            defer { writer.close() }
            appended += try writer.append([LogFixture.draft(1000 + n)])
        }
        #expect(appended.map(\.seq) == (1...3).map { gap.keptAfter.last!.seq + Int64($0) })
        let (events, warning) = try gap.fixture.readAll()
        #expect(warning == nil)
        #expect(events == gap.expected + appended)
        let report = try gap.fixture.reader().verify()
        #expect(report.problems == [])
        #expect(report.eventCount == Int64(gap.expected.count + appended.count))
    }

    @Test(arguments: [GapLog.After.sealedSegments, .activeSegment])
    func aWriterRefusesAGapItsRecordDoesNotName(after: GapLog.After) throws {
        let wrongs: [@Sendable (ResumePoint) -> ResumePoint?] = [
            { ResumePoint(seq: $0.seq + 1, link: $0.link) },
            { ResumePoint(seq: $0.seq, link: "0123456789abcdef0123456789abcdef") },
            { _ in nil },
        ]
        for wrong in wrongs {
            let gap = try GapLog(resume: wrong, after: after)
            let before = try gap.fixture.snapshot()
            #expect(Self.appendRefusal(gap)?.code == .damaged)
            #expect(try gap.fixture.snapshot() == before)
        }
    }

    /// What a writer that opens the log and appends one batch is refused with (an issue when it is not).
    static func appendRefusal(_ gap: GapLog) -> LogError? {
        #expect(throws: LogError.self) {
            let writer = try gap.fixture.open()
            defer { writer.close() }
            _ = try writer.append([LogFixture.draft(1000)])
        }
    }
}
