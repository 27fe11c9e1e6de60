import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Two copies of one log compared by their last segments' bytes: the same, a prefix with a whole frame, or
/// different for anything a reader would have to look at.
@Suite struct LastSegmentComparisonTests {
    /// A log of `batches` batches after the first, and a copy of it.
    private func logAndCopy(batches: Int) throws -> (LogFixture, String) {
        let fixture = LogFixture()
        _ = try fixture.populate(batches: batches)
        let copy = fixture.directory.appending("copy")
        try SegmentCopier().copy(from: fixture.path, to: copy)
        return (fixture, copy)
    }

    private func compare(_ prefix: String, _ whole: String) -> LastSegmentComparison {
        LastSegmentComparison.of(prefix, in: whole, fileSystem: POSIXFileSystem())
    }

    @Test func aCopyIsTheSameAndAnOlderCopyIsAPrefix() throws {
        let (fixture, copy) = try logAndCopy(batches: 5)
        #expect(compare(copy, fixture.path) == .same)
        let writer = try fixture.open()
        _ = try writer.append([LogFixture.draft(6)])
        writer.close()
        let segment = try fixture.segmentNames().last!
        let copied = Int64(try Data(contentsOf: URL(fileURLWithPath: copy + "/" + segment)).count)
        #expect(
            compare(copy, fixture.path)
                == .prefix(segment: segment, length: copied, wholeLength: Int64(try fixture.bytes(of: segment).count)))
        #expect(compare(fixture.path, copy) == .different, "the longer is not a prefix of the shorter")
    }

    @Test(arguments: ["flipped", "cut in the first frame", "no format", "another format", "no segment"])
    func anythingElseIsDifferent(_ kind: String) throws {
        let (fixture, copy) = try logAndCopy(batches: 5)
        let segment = try fixture.segmentNames().last!
        let path = copy + "/" + segment
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        switch kind {
        case "flipped": bytes[bytes.count - 10] ^= 0x01
        case "cut in the first frame": bytes = Array(bytes.prefix(12))
        case "no format": try FileManager.default.removeItem(atPath: copy + "/format")
        case "another format": try Data("stint-log 2\n".utf8).write(to: URL(fileURLWithPath: copy + "/format"))
        default: try FileManager.default.removeItem(atPath: path)
        }
        if kind != "no segment" { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        #expect(compare(copy, fixture.path) == .different)
    }

    /// Compared from its last bytes on, a copy is told from the log by what ends it (another writer's frames),
    /// not by a change further back, which only the whole comparison finds.
    @Test func aComparisonOfTheLastBytesSeesOnlyThem() throws {
        let (fixture, copy) = try logAndCopy(batches: 200)
        let segment = try fixture.segmentNames().last!
        let path = copy + "/" + segment
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 8 << 10, "\(bytes.count) bytes")
        let last: Int64 = 4 << 10
        let whole = LastSegmentComparison.of(copy, in: fixture.path, fileSystem: POSIXFileSystem(), last: nil)
        #expect(whole == .same)
        #expect(LastSegmentComparison.of(copy, in: fixture.path, fileSystem: POSIXFileSystem(), last: last) == .same)
        for (offset, seen) in [(bytes.count / 2, false), (bytes.count - 100, true)] {
            var changed = bytes
            changed[offset] ^= 0x01
            try Data(changed).write(to: URL(fileURLWithPath: path))
            #expect(compare(copy, fixture.path) == .different, "at \(offset)")
            let tail = LastSegmentComparison.of(copy, in: fixture.path, fileSystem: POSIXFileSystem(), last: last)
            #expect((tail == .different) == seen, "at \(offset)")
        }
    }

    @Test func readingResumesAfterTheCopysLastLineWithItsChecks() throws {
        let (fixture, copy) = try logAndCopy(batches: 5)
        let writer = try fixture.open()
        for n in 6...8 { _ = try writer.append([LogFixture.draft(n)]) }
        writer.close()
        guard case .prefix(let segment, let length, _) = compare(copy, fixture.path) else {
            Issue.record("the copy is a prefix")
            return
        }
        let copied = try LogReader(path: copy)
        let last = try #require(try copied.lastEvent(checkingChain: true))
        let head = try #require(try copied.head())
        let cursor = try fixture.reader().batches(resumingAfter: last, head: head, segment: segment, offset: length)
        var seqs: [Int64] = []
        while let batch = try cursor.next() { seqs += batch.events.map(\.seq) }
        #expect(cursor.warning == nil)
        #expect(seqs == [7, 8, 9])
        // Resumed after another line (its hash not the one the next line links to): the chain check refuses it.
        let other = try #require(try copied.events(from: 5).next())
        let wrong = try fixture.reader().batches(
            resumingAfter: last, head: LogHead(of: other).withSeq(last.seq), segment: segment, offset: length)
        #expect(try wrong.next() == nil)
        #expect(wrong.warning?.kind == .chainBroken)
    }
}

extension LogHead {
    fileprivate func withSeq(_ seq: Int64) -> LogHead { LogHead(seq: seq, hash: hash) }
}
