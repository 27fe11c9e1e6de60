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
        let gap = try GapLog(keepsAfter: false)
        #expect(try gap.fixture.readAll().events == gap.expected)
        let before = try gap.fixture.snapshot()
        let error = #expect(throws: LogError.self) {
            let writer = try gap.fixture.open()
            defer { writer.close() }
            _ = try writer.append([LogFixture.draft(1000)])
        }
        #expect(error?.code == .damaged)
        #expect(error?.message.contains("resumes at seq \(gap.resumesAt)") == true)
        #expect(try gap.fixture.snapshot().filter { $0.key != CheckedSegments.name } == before)
    }
}
