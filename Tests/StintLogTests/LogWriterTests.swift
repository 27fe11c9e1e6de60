import StintCore
import Testing

@testable import StintLog

@Suite struct LogWriterTests {
    @Test func batchesRoundTripThroughReopenWithContinuingSeqAndChain() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        #expect(writer.lastSeq == 1)
        fixture.clock.advance(milliseconds: 1000)
        let single = try writer.append([LogFixture.draft(1)])
        #expect(single.map(\.seq) == [2])
        #expect(single[0].tx == nil)
        fixture.clock.advance(milliseconds: 1000)
        let multi = try writer.append([LogFixture.draft(2), LogFixture.draft(3), LogFixture.draft(4)])
        #expect(multi.map(\.seq) == [3, 4, 5])
        #expect(multi.allSatisfy { $0.tx == 3 && $0.at == multi[0].at })
        let headBefore = writer.head
        writer.close()

        let reopened = try fixture.open()
        #expect(reopened.lastSeq == 5)
        #expect(reopened.head == headBefore)
        fixture.clock.advance(milliseconds: 1000)
        let next = try reopened.append([LogFixture.draft(5)])
        #expect(next[0].seq == 6)
        reopened.close()

        let (events, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(events.map(\.seq) == Array(1...6))
        #expect(Array(events[1...4]) == single + multi)
        #expect(events[5] == next[0])
        let report = try fixture.reader().verify()
        #expect(report.problems == [])
        #expect(report.eventCount == 6)
        #expect(report.head?.seq == 6)
    }
}
