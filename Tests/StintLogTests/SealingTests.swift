import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

@Suite struct SealingTests {
    @Test func sealingRewritesTheSegmentIntoLargeFramesWithAnIndexAndTheSameLines() throws {
        let fixture = LogFixture(sealThreshold: 4096, sealedFrameTarget: 1000)
        let writer = try fixture.create()
        var events = [writer.lastEvent!]
        var n = 0
        while writer.active != nil {
            n += 1
            fixture.clock.advance(milliseconds: 700)
            events += try writer.append(
                n % 3 == 0 ? [LogFixture.draft(n), LogFixture.draft(n + 1000)] : [LogFixture.draft(n)])
        }
        let name = try fixture.segmentNames()[0]
        let sealed = try fixture.bytes(of: name)
        let frames = SegmentSurgery.frames(sealed)
        let seal = try #require(frames.last)
        #expect(seal.content == nil)
        let dataFrames = frames.dropLast()
        // Each frame closes at the first batch boundary at or after the target.
        for frame in dataFrames.dropLast() {
            let content = frame.content!
            #expect(content.count >= 1000)
            let lines = SegmentSurgery.lines(content)
            let lastBatch = lines.count - (SegmentSurgery.event(lines.last!).tx == nil ? 1 : 2)
            #expect(SegmentSurgery.content(Array(lines[0..<lastBatch])).count < 1000)
        }
        let lines = dataFrames.flatMap { SegmentSurgery.lines($0.content!) }
        #expect(lines == events.map { $0.encodedLine() })
        let index = try seal.bytes.withBytes { (bytes) throws(SealFailure) in
            try SealIndex(payload: UnsafeRawBufferPointer(rebasing: bytes[8...]))
        }
        #expect(index.firstSeq == 1)
        #expect(index.lastSeq == events.last!.seq)
        #expect(index.entries.map(\.offset) == dataFrames.map { Int64($0.offset) })
        #expect(
            index.entries.map(\.firstSeq)
                == dataFrames.map { SegmentSurgery.event(SegmentSurgery.lines($0.content!)[0]).seq })
        #expect(sealed.count < 4096)

        let next = try writer.append([LogFixture.draft(0)])
        #expect(try fixture.segmentNames() == [name, LogDirectory.segmentName(firstSeq: next[0].seq)])
        writer.close()
        #expect(try fixture.reader().verify().problems == [])
    }

    /// A crash at every file operation of the append that seals a segment, and of the append after it that
    /// starts a new segment, leaves every acknowledged event exactly once, and the next writer continues.
    @Test(arguments: [CrashPoint.sealingAppend, .firstAppendOfNewSegment])
    func aCrashAtEveryStepOfSealingLosesNothing(point: CrashPoint) throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 500)
        let writer = try fixture.create()
        var events = [writer.lastEvent!]
        while writer.active == nil || writer.active!.size + 250 < 2048 {
            fixture.clock.advance(milliseconds: 10)
            events += try writer.append([LogFixture.draft(events.count)])
        }
        if point == .firstAppendOfNewSegment {
            while writer.active != nil { events += try writer.append([LogFixture.draft(events.count)]) }
        }
        writer.close()
        let pristine = try fixture.snapshot()

        // A dry run counts the operations of the append.
        let probe = FaultInjectingFileSystem()
        fixture.fileSystem = probe
        let probeWriter = try fixture.open()
        let start = probe.operations.count
        _ = try probeWriter.append([LogFixture.draft(-1)])
        if point == .sealingAppend { #expect(probeWriter.active == nil) }
        probeWriter.close()
        let operations = Array(probe.operations[start...])
        #expect(operations.contains { $0.hasPrefix("rename") })

        var states: Set<String> = []
        for step in 0..<operations.count {
            try fixture.restore(pristine)
            let faults = FaultInjectingFileSystem()
            fixture.fileSystem = faults
            let crashing = try fixture.open()
            faults.crashAt = faults.operations.count + step
            let result = logError { try crashing.append([LogFixture.draft(-1)]) }
            let acknowledged = result == nil
            crashing.close()
            fixture.fileSystem = POSIXFileSystem()
            states.insert(try describe(fixture))

            let reopened = try fixture.open()
            let (read, warning) = try fixture.readAll()
            #expect(warning == nil, "crash at \(operations[step])")
            if acknowledged {
                #expect(read.count == events.count + 1, "crash at \(operations[step])")
            } else {
                #expect(read.count == events.count || read.count == events.count + 1, "crash at \(operations[step])")
            }
            #expect(Array(read.prefix(events.count)) == events)
            #expect(read.dropFirst(events.count).allSatisfy { $0.data["n"] == .int(-1) })
            let next = try reopened.append([LogFixture.draft(-2)])
            #expect(next[0].seq == Int64(read.count + 1))
            reopened.close()
            #expect(try fixture.reader().verify().problems == [], "crash at \(operations[step])")
            #expect(try fixture.allFileNames().allSatisfy { !$0.hasSuffix(".tmp") })
        }
        if point == .sealingAppend {
            #expect(states.contains("unsealed segment over the threshold"))
            #expect(states.contains("unsealed segment and a seal.tmp"))
            #expect(states.contains("sealed segment, no new segment"))
        } else {
            #expect(states.contains("sealed segment and a new.tmp"))
        }
    }

    enum CrashPoint: String, Sendable, CustomTestStringConvertible {
        case sealingAppend
        case firstAppendOfNewSegment
        var testDescription: String { rawValue }
    }

    /// What a crash left, in words.
    private func describe(_ fixture: LogFixture) throws -> String {
        let names = try fixture.allFileNames()
        let segments = try fixture.segmentNames()
        let last = try fixture.bytes(of: segments.last!)
        let sealed = SegmentFile(
            path: fixture.path + "/" + segments.last!, name: segments.last!, fileSystem: POSIXFileSystem())
        let isSealed = try sealed.seal() != nil
        if names.contains(where: { $0.hasSuffix(".seal.tmp") }) { return "unsealed segment and a seal.tmp" }
        if names.contains(where: { $0.hasSuffix(".new.tmp") }) { return "sealed segment and a new.tmp" }
        if isSealed { return "sealed segment, no new segment" }
        if last.count >= 2048 { return "unsealed segment over the threshold" }
        return "unsealed segment under the threshold"
    }

    @Test func aSegmentLeftOverTheThresholdIsSealedOnOpen() throws {
        let fixture = LogFixture(sealThreshold: 1 << 20)
        let events = try fixture.populate(batches: 20)
        fixture.sealThreshold = 2048
        let name = try fixture.segmentNames()[0]
        #expect(try fixture.bytes(of: name).count >= 2048)
        let writer = try fixture.open()
        #expect(writer.active == nil)
        #expect(fixture.notices.notices.map(\.kind) == [.interruptedSealCompleted])
        #expect(try fixture.segmentNames() == [name])
        #expect(try fixture.readAll().events == events)
        let next = try writer.append([LogFixture.draft(1)])
        #expect(try fixture.segmentNames() == [name, LogDirectory.segmentName(firstSeq: next[0].seq)])
    }

    @Test func aSealTemporaryFileWrittenButNotRenamedIsRemoved() throws {
        let fixture = LogFixture(sealThreshold: 1 << 20)
        let events = try fixture.populate(batches: 20)
        let name = try fixture.segmentNames()[0]
        let original = try fixture.bytes(of: name)
        try fixture.write(Array(original[0..<(original.count / 2)]), to: name + ".seal.tmp")
        let writer = try fixture.open()
        #expect(fixture.notices.notices.map(\.kind) == [.temporaryFileRemoved])
        #expect(try fixture.allFileNames().contains(name + ".seal.tmp") == false)
        #expect(try fixture.bytes(of: name) == original)
        #expect(writer.lastSeq == events.last!.seq)
    }
}
