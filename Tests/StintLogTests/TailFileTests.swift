import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A writer that keeps the `tail` file (``LogConfiguration/keepsTailFile``, the logs of a replica) opens the log by
/// reading the last frame the file points at; a missing, torn, stale or lying file, or a damaged last frame, sends
/// it to the full check of the active segment, which writes the file again.
@Suite struct TailFileTests {
    private func keeping(_ fixture: LogFixture) -> LogConfiguration {
        var configuration = fixture.configuration
        configuration.keepsTailFile = true
        return configuration
    }

    private func open(_ fixture: LogFixture) throws -> LogWriter {
        try LogWriter.open(at: fixture.path, configuration: keeping(fixture))
    }

    /// A log of `batches` batches after the first, written by a writer that keeps the tail file.
    private func written(_ fixture: LogFixture, batches: Int) throws {
        let writer = try LogWriter.create(
            at: fixture.path, settingsEvent: LogFixture.settings, configuration: keeping(fixture))
        defer { writer.close() }
        for n in 1...batches { _ = try writer.append([LogFixture.draft(n)]) }
    }

    private func tailFile(_ fixture: LogFixture) throws -> TailFile? {
        guard FileManager.default.fileExists(atPath: fixture.path + "/tail") else { return nil }
        return TailFile(bytes: try fixture.bytes(of: "tail"))
    }

    @Test func theFileRoundTripsAndRefusesAnyOtherBytes() throws {
        let tail = TailFile(segment: "00000000000000000001.jsonl.zst", size: 1234, lastFrameOffset: 1000)
        #expect(TailFile(bytes: tail.bytes) == tail)
        #expect(TailFile(bytes: Array(tail.bytes.dropLast())) == nil, "torn")
        var flipped = tail.bytes
        flipped[20] ^= 0x01
        #expect(TailFile(bytes: flipped) == nil, "a changed byte fails the digest")
        #expect(TailFile(bytes: []) == nil)
    }

    @Test func aWriterOpensByReadingOnlyTheLastFrame() throws {
        let fixture = LogFixture()
        try written(fixture, batches: 20)
        let tail = try #require(try tailFile(fixture))
        let segment = try fixture.segmentNames()[0]
        #expect(tail.segment == segment)
        #expect(tail.size == Int64(try fixture.bytes(of: segment).count))
        let checked = try fixture.open()
        let head = checked.head
        let last = checked.lastEvent
        checked.close()
        let writer = try open(fixture)
        defer { writer.close() }
        #expect(writer.head == head)
        #expect(writer.lastEvent == last)
        #expect(try writer.append([LogFixture.draft(99)])[0].seq == 22)
        #expect(try tailFile(fixture)?.size == Int64(try fixture.bytes(of: segment).count), "the file follows appends")
    }

    /// The tail file saves decoding the frames before the last one, not checking them: a changed byte there is
    /// found by the `checked` file's digest and the log refused.
    @Test func damageBeforeTheLastFrameIsRefusedDespiteTheFile() throws {
        let fixture = LogFixture()
        try written(fixture, batches: 20)
        let segment = try fixture.segmentNames()[0]
        var bytes = try fixture.bytes(of: segment)
        bytes[bytes.count / 2] ^= 0x40
        try fixture.write(bytes, to: segment)
        let before = try fixture.snapshot()
        #expect(logError { try open(fixture).close() }?.code == .damaged)
        #expect(try fixture.snapshot() == before)
    }

    @Test(arguments: ["missing", "torn", "garbled", "stale", "lying"])
    func aFileThatDoesNotDescribeTheLogIsCheckedAsWithoutOneAndWrittenAgain(_ kind: String) throws {
        let fixture = LogFixture()
        try written(fixture, batches: 5)
        let good = try #require(try tailFile(fixture))
        let tailPath = fixture.path + "/tail"
        switch kind {
        case "missing":
            try FileManager.default.removeItem(atPath: tailPath)
        case "torn":
            try fixture.write(Array(good.bytes.prefix(30)), to: "tail")
        case "garbled":
            var bytes = good.bytes
            bytes[bytes.count - 3] ^= 0x02
            try fixture.write(bytes, to: "tail")
        case "stale":
            // Another writer (one that keeps no tail file) appended since.
            let other = try fixture.open()
            _ = try other.append([LogFixture.draft(6)])
            other.close()
        default:
            // Well formed, but its offset is not where the last frame starts.
            let lying = TailFile(segment: good.segment, size: good.size, lastFrameOffset: good.lastFrameOffset - 1)
            try fixture.write(lying.bytes, to: "tail")
        }
        let expected = kind == "stale" ? 7 : 6
        let writer = try open(fixture)
        #expect(writer.lastSeq == Int64(expected))
        let appended = try writer.append([LogFixture.draft(100)])
        writer.close()
        #expect(appended[0].seq == Int64(expected + 1))
        let (events, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(events.count == expected + 1, "the chain continues from the real last line")
        #expect(try tailFile(fixture)?.size == Int64(try fixture.bytes(of: good.segment).count))
    }

    @Test func aDamagedLastFrameIsNotTakenFromTheFile() throws {
        let fixture = LogFixture()
        try written(fixture, batches: 5)
        let tail = try #require(try tailFile(fixture))
        var bytes = try fixture.bytes(of: tail.segment)
        bytes[bytes.count - 2] ^= 0x10
        try fixture.write(bytes, to: tail.segment)
        let before = try fixture.snapshot()
        // The full check finds the last frame unreadable; a writer acknowledged it (the `checked` file), so it
        // is damage, not a torn tail: refused, nothing changed.
        #expect(throws: LogError.self) { try open(fixture).close() }
        #expect(try fixture.snapshot() == before)
        // Without the `checked` file (an older writer's log), it is taken for a torn tail and set aside.
        try FileManager.default.removeItem(atPath: fixture.path + "/checked")
        let writer = try open(fixture)
        defer { writer.close() }
        #expect(writer.lastSeq == 5)
        #expect(fixture.notices.notices.contains { $0.message.contains("torn tail") })
        #expect(try tailFile(fixture)?.size == tail.lastFrameOffset)
    }

    @Test func aTornAppendAfterTheFileIsSetAside() throws {
        let fixture = LogFixture()
        try written(fixture, batches: 5)
        let tail = try #require(try tailFile(fixture))
        let bytes = try fixture.bytes(of: tail.segment)
        try fixture.write(bytes + [0x28, 0xB5, 0x2F, 0xFD, 0x64], to: tail.segment)
        let writer = try open(fixture)
        defer { writer.close() }
        #expect(writer.lastSeq == 6)
        #expect(try fixture.bytes(of: tail.segment) == bytes, "the torn bytes were cut off")
        #expect(fixture.notices.notices.contains { $0.message.contains("torn tail") })
    }

    @Test func aSealedLastSegmentHasNoTailFile() throws {
        let fixture = LogFixture(sealThreshold: 2000, sealedFrameTarget: 500)
        let writer = try LogWriter.create(
            at: fixture.path, settingsEvent: LogFixture.settings, configuration: keeping(fixture))
        var sealed = false
        for n in 1...40 {
            _ = try writer.append([LogFixture.draft(n)])
            if writer.active == nil {
                sealed = true
                #expect(try tailFile(fixture) == nil)
                break
            }
        }
        writer.close()
        #expect(sealed)
        let reopened = try open(fixture)
        defer { reopened.close() }
        #expect(reopened.head == (try fixture.reader().head()))
    }

    @Test func aWriterThatKeepsNoTailFileWritesNone() throws {
        let fixture = LogFixture()
        let writer = try fixture.create()
        _ = try writer.append([LogFixture.draft(1)])
        writer.close()
        #expect(!(try fixture.allFileNames()).contains("tail"))
    }

    @Test func aReaderFindsTheLastEventThroughTheFileOnlyWhileItDescribesTheLog() throws {
        let fixture = LogFixture()
        try written(fixture, batches: 5)
        #expect(try fixture.reader().lastEventFromTailFile() == (try fixture.reader().lastEvent()))
        // A writer that keeps no tail file appends: the file is stale, and the reader does not take it.
        let other = try fixture.open()
        _ = try other.append([LogFixture.draft(6)])
        other.close()
        #expect(try fixture.reader().lastEventFromTailFile() == nil)
        let writer = try open(fixture)
        writer.close()
        #expect(try fixture.reader().lastEventFromTailFile()?.seq == 7, "the full recovery wrote it again")
        let segment = try fixture.segmentNames()[0]
        var bytes = try fixture.bytes(of: segment)
        bytes[bytes.count - 2] ^= 0x10
        try fixture.write(bytes, to: segment)
        #expect(try fixture.reader().lastEventFromTailFile() == nil, "a last frame that does not check")
    }
}
