import Foundation
import StintCore
@_spi(FaultInjection) import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintLog

@Suite struct LogReaderTests {
    /// A log of several sealed segments (small thresholds) and an active one, with batches of 1 to 3 events.
    static func sealedLog() throws -> (LogFixture, [RecordedEvent]) {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 700)
        let events = try fixture.populate(batches: 60, sizes: { [1, 2, 1, 3][$0 % 4] })
        return (fixture, events)
    }

    @Test(arguments: [1, 7, 64, 4096, 1 << 20])
    func readsTheSameEventsWhateverTheChunkSize(chunkSize: Int) throws {
        let (fixture, events) = try Self.sealedLog()
        fixture.readChunkSize = chunkSize
        #expect(try fixture.segmentNames().count >= 5)
        let (read, warning) = try fixture.readAll()
        #expect(warning == nil)
        #expect(read == events)
        let cursor = try fixture.reader().batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        #expect(batches.map(\.events.count) == [1] + (0..<60).map { [1, 2, 1, 3][$0 % 4] })
        #expect(try fixture.reader().verify().problems == [])
    }

    /// The first event read from the first frame's first line alone is the first event the reader hands out;
    /// a first frame that does not read, or a log whose first segment is gone, gives nil (the caller then
    /// reads the log, which reports the damage).
    @Test func theFirstEventComesFromTheFirstFramesFirstLine() throws {
        let (fixture, events) = try Self.sealedLog()
        #expect(try fixture.reader().firstEventOfFirstFrame() == events[0])
        let first = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: first)
        var flipped = original
        flipped[SegmentSurgery.frames(original)[0].bytes.count / 2] ^= 0x10
        try fixture.write(flipped, to: first)
        #expect(try fixture.reader().firstEventOfFirstFrame() == nil)
        try FileManager.default.removeItem(atPath: fixture.path + "/" + first)
        #expect(try fixture.reader().firstEventOfFirstFrame() == nil)
    }

    /// The last event, unchecked, comes from one line of the last segment: the last whole frame's last line, or
    /// (sealed) that of the frame its seal names last, the one the chain-checked read finds; a frame that does not
    /// read (a changed byte, a torn append) is not read past.
    @Test func theLastEventComesFromTheLastSegmentsLastLine() throws {
        let (fixture, events) = try Self.sealedLog()
        let reader = try fixture.reader()
        #expect(try reader.lastEvent() == events.last)
        let segments = try fixture.segmentNames()
        let last = try #require(segments.last)
        let beforeLast = try #require(events.last { $0.seq < (LogDirectory.firstSeq(ofSegment: last) ?? 0) })
        let original = try fixture.bytes(of: last)
        var flipped = original
        flipped[SegmentSurgery.frames(original)[0].bytes.count / 2] ^= 0x10
        try fixture.write(flipped, to: last)
        #expect(try fixture.reader().lastEvent() == beforeLast)
        try fixture.write(Array(original.dropLast(3)), to: last)
        #expect(try #require(try fixture.reader().lastEvent()).seq < events.last!.seq)
        // Without the active segment the log ends with a sealed one (its seal frame after the last data frame).
        try FileManager.default.removeItem(atPath: fixture.path + "/" + last)
        let sealedEnd = try fixture.reader()
        #expect(try sealedEnd.lastEvent() == beforeLast)
        #expect(try sealedEnd.lastEvent() == (try sealedEnd.lastEvent(checkingChain: true)))
        #expect(SegmentSurgery.frames(try fixture.bytes(of: segments[segments.count - 2])).last?.content == nil)
    }

    @Test func readsFromEverySeqOfASealedLog() throws {
        let (fixture, events) = try Self.sealedLog()
        let reader = try fixture.reader()
        for start in 1...(events.count + 1) {
            let cursor = try reader.events(from: Int64(start))
            var read: [RecordedEvent] = []
            while let event = try cursor.next() { read.append(event) }
            #expect(cursor.warning == nil)
            #expect(read == Array(events[(start - 1)...]), "from seq \(start)")
        }
        let batches = try reader.batches(from: 4)
        #expect(try batches.next()?.firstSeq == 3)
    }

    @Test func startingInASealedSegmentSeeksToTheFrameThroughTheIndex() throws {
        let (fixture, events) = try Self.sealedLog()
        let segments = try fixture.segmentNames()
        let second = segments[1]
        let frames = SegmentSurgery.frames(try fixture.bytes(of: second))
        #expect(frames.count >= 3)
        // The last event of the segment's last data frame.
        let lastFrame = frames[frames.count - 2]
        let target = SegmentSurgery.event(SegmentSurgery.lines(lastFrame.content!).last!).seq
        let counting = CountingFileSystem()
        fixture.fileSystem = counting
        fixture.readChunkSize = 64
        let cursor = try fixture.reader().events(from: target)
        #expect(try cursor.next() == events[Int(target - 1)])
        // Only the segment holding the start was opened, and of it only the tail (seal) and the last frame
        // were read, not the frames before.
        #expect(counting.openedNames.filter { $0.hasSuffix(".jsonl.zst") }.allSatisfy { $0 == second })
        let segmentSize = try fixture.bytes(of: second).count
        #expect(counting.bytesRead(of: second) < segmentSize + lastFrame.bytes.count + 128)
        #expect(counting.bytesRead(of: second) - min(segmentSize, 64 << 10) < lastFrame.offset)
    }

    @Test func lastSeqAndHeadAreCheapAndAgreeWithVerify() throws {
        let (fixture, events) = try Self.sealedLog()
        let reader = try fixture.reader()
        #expect(try reader.lastSeq() == Int64(events.count))
        let lastSegment = try #require(try fixture.segmentNames().last)
        #expect(try reader.eventsBeforeLastSegment() == Int64(lastSegment.prefix(20))! - 1)
        #expect(
            try LogReader(bytes: events.flatMap { $0.encodedLine() + [0x0A] }).eventsBeforeLastSegment()
                == Int64(events.count), "a stream is read through")
        let report = try reader.verify()
        #expect(try reader.head() == report.head)
        let middle = events[40]
        let head = try reader.head(at: middle.seq)
        #expect(head?.hash == SHA256Digest(of: middle.encodedLine() + [0x0A]).hex)
        #expect(try reader.head(at: Int64(events.count + 5)) == nil)
        // A log whose last segment was just sealed.
        let sealed = LogFixture(sealThreshold: 600)
        let writer = try sealed.create()
        while writer.active != nil { _ = try writer.append([LogFixture.draft(1)]) }
        #expect(try sealed.reader().lastSeq() == writer.lastSeq)
        #expect(try sealed.reader().lastEvent() == writer.lastEvent, "the last segment is sealed")
        #expect(try sealed.reader().lastEvent(checkingChain: true) == writer.lastEvent, "sealed, checked")
        #expect(
            try sealed.reader().eventsBeforeLastSegment() < writer.lastSeq, "the sealed last segment is not counted")
        _ = try writer.append([LogFixture.draft(2), LogFixture.draft(3)])
        #expect(try sealed.reader().eventsBeforeLastSegment() == writer.lastSeq - 2, "the two in the new segment")
        #expect(try sealed.reader().lastEvent() == writer.lastEvent, "the last segment is not sealed")
        #expect(try sealed.reader().lastEvent(checkingChain: true) == writer.lastEvent, "not sealed, checked")
        #expect(try reader.lastEvent() == events.last)
        #expect(try reader.lastEvent(checkingChain: true) == events.last)
        #expect(try LogReader(bytes: events.flatMap { $0.encodedLine() + [0x0A] }).lastEvent() == events.last)
        #expect(
            try LogReader(bytes: events.flatMap { $0.encodedLine() + [0x0A] }).lastEvent(checkingChain: true)
                == events.last)
    }

    @Test func readsASingleSegmentFileAPlainFileAndStreams() throws {
        let (fixture, events) = try Self.sealedLog()
        let segments = try fixture.segmentNames()
        let second = fixture.path + "/" + segments[1]
        let firstSeq = LogDirectory.firstSeq(ofSegment: segments[1])!
        let segmentEvents = try readAll(LogReader(path: second))
        #expect(segmentEvents.warning == nil)
        #expect(segmentEvents.events.first?.seq == firstSeq)
        #expect(
            segmentEvents.events == Array(events[Int(firstSeq - 1)..<(Int(firstSeq - 1) + segmentEvents.events.count)]))

        let lines: [UInt8] = events.flatMap { $0.encodedLine() + [0x0A] }
        let plain = fixture.directory.appending("events.jsonl")
        try Data(lines).write(to: URL(fileURLWithPath: plain))
        #expect(try readAll(LogReader(path: plain)).events == events)
        #expect(try LogReader(path: plain).verify().problems == [])
        #expect(try readAll(LogReader(bytes: lines)).events == events)
        // A plain file whose last line has no newline.
        #expect(try readAll(LogReader(bytes: Array(lines.dropLast()))).events == events)

        // All segments one after the other, as `cat *.jsonl.zst | stint … -` gives them.
        var concatenated: [UInt8] = []
        for name in segments { concatenated += try fixture.bytes(of: name) }
        #expect(try readAll(LogReader(bytes: concatenated)).events == events)
        #expect(try LogReader(bytes: concatenated).verify().problems == [])
        #expect(try LogReader(bytes: concatenated).lastSeq() == Int64(events.count))

        let pipe = Pipe()
        let all = concatenated
        let writing = Thread {
            pipe.fileHandleForWriting.write(Data(all))
            try? pipe.fileHandleForWriting.close()
        }
        writing.start()
        let streamed = try readAll(LogReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "-"))
        #expect(streamed.events == events)
        #expect(streamed.warning == nil)
    }

    @Test func anIncompleteLastFrameIsNotYetWritten() throws {
        let fixture = LogFixture()
        let events = try fixture.populate(batches: 3)
        let name = try fixture.segmentNames()[0]
        let bytes = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(bytes)
        try fixture.write(Array(bytes[0..<(frames.last!.offset + 5)]), to: name)
        let (read, warning) = try fixture.readAll()
        #expect(read == Array(events.dropLast()))
        #expect(warning == nil)
    }

    private func readAll(_ reader: LogReader) throws -> (events: [RecordedEvent], warning: LogProblem?) {
        let cursor = try reader.events()
        var events: [RecordedEvent] = []
        while let event = try cursor.next() { events.append(event) }
        return (events, cursor.warning)
    }
}
