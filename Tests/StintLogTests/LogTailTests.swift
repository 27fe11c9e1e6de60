import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A writer opened with the tail the last writer left reads a few bytes of the last segment, not its frames;
/// when the segment is not as the tail says, it checks the log's end as without one.
@Suite struct LogTailTests {
    /// Writes `batches` batches and returns the tail the writer leaves.
    private func written(_ fixture: LogFixture, batches: Int) throws -> LogTail {
        let writer = try fixture.create()
        defer { writer.close() }
        for n in 1...batches { _ = try writer.append([LogFixture.draft(n)]) }
        return try #require(writer.tail())
    }

    /// The tail saves decoding the frames before it, not checking them: bytes changed since the last writer left
    /// the segment are found (their digest differs from the `checked` file's) and the log is checked whole.
    @Test func aWriterOpenedWithTheTailRefusesDamageBeforeIt() throws {
        let fixture = LogFixture()
        let tail = try written(fixture, batches: 20)
        let segment = try fixture.segmentNames()[0]
        var bytes = try fixture.bytes(of: segment)
        bytes[bytes.count / 2] ^= 0x40
        try fixture.write(bytes, to: segment)
        let before = try fixture.snapshot()
        let error = logError {
            try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail }).close()
        }
        #expect(error?.code == .damaged)
        #expect(error?.location?.segment == segment)
        #expect(try fixture.snapshot() == before)
    }

    /// A tail kept elsewhere (the read models) whose line was changed but still decodes is not taken: the next
    /// append would chain to a line that is not in the log.
    @Test func aTailWhoseLineIsNotTheLogsIsNotTaken() throws {
        let fixture = LogFixture()
        var tail = try written(fixture, batches: 20)
        let line = String(decoding: tail.lastLine, as: UTF8.self)
        #expect(line.contains("backlog"))
        tail.lastLine = Array(line.replacingOccurrences(of: "backlog", with: "backlpg").utf8)
        let writer = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        let appended: [RecordedEvent]
        do {
            defer { writer.close() }
            appended = try writer.append([LogFixture.draft(99)])
        }
        let (read, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(read.last == appended.last)
        #expect(try fixture.reader().verify().isIntact)
    }

    @Test func aWriterOpenedWithTheTailAppendsAfterIt() throws {
        let fixture = LogFixture()
        let tail = try written(fixture, batches: 20)
        let writer = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        defer { writer.close() }
        #expect(writer.lastSeq == 21)
        let appended = try writer.append([LogFixture.draft(99)])
        #expect(appended[0].seq == 22)
    }

    @Test func theTailGivesTheSameHeadAndPlacesTheNextBatchAsAFullCheck() throws {
        let fixture = LogFixture()
        let tail = try written(fixture, batches: 5)
        let hinted = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        let head = hinted.head
        let event = hinted.lastEvent
        hinted.close()
        let checked = try fixture.open()
        defer { checked.close() }
        #expect(checked.head == head)
        #expect(checked.lastEvent == event)
    }

    @Test func aLogThatGrewSinceTheTailIsCheckedAsWithoutOne() throws {
        let fixture = LogFixture()
        let tail = try written(fixture, batches: 5)
        let other = try fixture.open()
        _ = try other.append([LogFixture.draft(6)])
        other.close()
        let writer = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        defer { writer.close() }
        #expect(writer.lastSeq == 7)
    }

    @Test func aTornAppendAfterTheTailIsSetAside() throws {
        let fixture = LogFixture()
        let tail = try written(fixture, batches: 5)
        let segment = try fixture.segmentNames()[0]
        let bytes = try fixture.bytes(of: segment)
        try fixture.write(bytes + [0x28, 0xB5, 0x2F, 0xFD, 0x64], to: segment)
        let writer = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        defer { writer.close() }
        #expect(writer.lastSeq == 6)
        #expect(try fixture.bytes(of: segment) == bytes, "the torn bytes were cut off")
        #expect(fixture.notices.notices.contains { $0.message.contains("torn tail") })
    }

    @Test func aTailOfAnotherLogIsNotTrusted() throws {
        let first = LogFixture()
        let tail = try written(first, batches: 5)
        let second = LogFixture()
        _ = try written(second, batches: 3)
        let writer = try LogWriter.open(at: second.path, configuration: second.configuration, tail: { tail })
        defer { writer.close() }
        #expect(writer.lastSeq == 4)
    }

    @Test func aSealedSegmentsTailIsTrustedAndTheNextAppendStartsASegment() throws {
        let fixture = LogFixture(sealThreshold: 2048)
        let writer = try fixture.create()
        var tail = try #require(writer.tail())
        var n = 0
        // Append until an append seals the active segment.
        while !tail.sealed && n < 500 {
            n += 1
            _ = try writer.append([LogFixture.draft(n)])
            tail = try #require(writer.tail())
        }
        writer.close()
        #expect(tail.sealed)
        let segments = try fixture.segmentNames()
        let reopened = try LogWriter.open(at: fixture.path, configuration: fixture.configuration, tail: { tail })
        defer { reopened.close() }
        #expect(reopened.lastSeq == Int64(n + 1))
        _ = try reopened.append([LogFixture.draft(999)])
        #expect(try fixture.segmentNames().count == segments.count + 1)
        #expect(try fixture.readAll().events.count == n + 2)
    }
}
