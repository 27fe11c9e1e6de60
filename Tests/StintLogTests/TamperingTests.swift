import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Hash-chain tampering at every position of a log with a sealed segment and an active one, by a forger who
/// recompresses everything with valid zstd checksums and rebuilds seal indexes: an edited, deleted,
/// inserted or reordered event is reported by `verify` at the exact seq, in the right segment; recompressing
/// without changing any line changes nothing.
@Suite struct TamperingTests {
    enum Tampering: String, CaseIterable, Sendable {
        case edit, delete, insert, swapWithNext, recompress
    }

    /// A log of single-event batches: a sealed first segment and an active last one.
    struct Original {
        let fixture = LogFixture(sealThreshold: 1500, sealedFrameTarget: 500)
        let events: [RecordedEvent]
        /// Each segment's name and lines (without newlines).
        let segments: [(name: String, lines: [[UInt8]])]
        let head: LogHead

        init() throws {
            events = try fixture.populate(batches: 40)
            var segments: [(String, [[UInt8]])] = []
            for name in try fixture.segmentNames() {
                let frames = SegmentSurgery.frames(try fixture.bytes(of: name))
                segments.append((name, frames.compactMap(\.content).flatMap(SegmentSurgery.lines)))
            }
            self.segments = segments
            head = try fixture.reader().verify().head!
        }

        /// Writes the segments back as a careful forger would: frames with checksums, sealed segments with
        /// a correct index for their (forged) lines, the last segment one frame per line.
        func write(_ segments: [(name: String, lines: [[UInt8]])], level: Int32 = 3) throws {
            for (index, segment) in segments.enumerated() {
                let compressor = ZstdCompressor(level: level)
                func frame(_ lines: [[UInt8]]) -> [UInt8] {
                    var output: [UInt8] = []
                    try! SegmentSurgery.content(lines).withBytes { (bytes) throws(LogError) in
                        try compressor.compress(bytes, appendingTo: &output)
                    }
                    return output
                }
                var bytes: [UInt8] = []
                if index == segments.count - 1 {
                    for line in segment.lines { bytes += frame([line]) }
                } else {
                    var entries: [SealIndex.Entry] = []
                    var group: [[UInt8]] = []
                    for (number, line) in segment.lines.enumerated() {
                        group.append(line)
                        if group.map(\.count).reduce(0, +) >= 500 || number == segment.lines.count - 1 {
                            entries.append(
                                SealIndex.Entry(
                                    offset: Int64(bytes.count), firstSeq: SegmentSurgery.event(group[0]).seq))
                            bytes += frame(group)
                            group = []
                        }
                    }
                    let first = LogDirectory.firstSeq(ofSegment: segment.name)!
                    let last = SegmentSurgery.event(segment.lines.last!).seq
                    bytes += SealIndex(firstSeq: first, lastSeq: last, entries: entries).encodedFrame()
                }
                try fixture.write(bytes, to: segment.name)
            }
        }

        /// The segment holding event `seq` and the index of its line there.
        func place(of seq: Int64) -> (segment: Int, line: Int) {
            var remaining = Int(seq) - 1
            for (index, segment) in segments.enumerated() {
                if remaining < segment.lines.count { return (index, remaining) }
                remaining -= segment.lines.count
            }
            fatalError("no seq \(seq)")
        }
    }

    /// The seq at which the first problem must be reported.
    static func expectedSeq(_ tampering: Tampering, at seq: Int64, last: Int64) -> Int64? {
        switch tampering {
        case .edit: return seq == last ? seq : seq + 1
        case .delete, .insert, .swapWithNext: return seq
        case .recompress: return nil
        }
    }

    @Test(arguments: Tampering.allCases)
    func tamperingAtEveryPositionIsReportedAtItsSeq(tampering: Tampering) throws {
        let original = try Original()
        let last = original.events.last!.seq
        #expect(original.segments.count >= 3)
        var checked = 0
        for seq in Int64(1)...last {
            if tampering == .swapWithNext && seq == last { continue }
            if tampering == .recompress && seq > 1 { break }
            var segments = original.segments
            let (segment, line) = original.place(of: seq)
            let event = original.events[Int(seq) - 1]
            switch tampering {
            case .edit:
                var edited = event
                edited.data = .object(["forged": .int(seq)])
                segments[segment].lines[line] = edited.encodedLine()
            case .delete:
                segments[segment].lines.remove(at: line)
                if segments[segment].lines.isEmpty { continue }
            case .insert:
                // A forged event that links correctly to the one before it, placed before the real one.
                var forged = event
                forged.data = .object(["forged": .int(seq)])
                segments[segment].lines.insert(forged.encodedLine(), at: line)
            case .swapWithNext:
                let (nextSegment, nextLine) = original.place(of: seq + 1)
                let moved = segments[segment].lines[line]
                segments[segment].lines[line] = segments[nextSegment].lines[nextLine]
                segments[nextSegment].lines[nextLine] = moved
            case .recompress:
                break
            }
            try original.write(segments, level: tampering == .recompress ? 19 : 3)
            let report = try original.fixture.reader().verify(expectingHead: original.head)
            if let expected = Self.expectedSeq(tampering, at: seq, last: last) {
                let first = try #require(report.problems.first, "\(tampering) at seq \(seq) was not reported")
                #expect(first.location.seq == expected, "\(tampering) at seq \(seq): \(first)")
                if first.kind != .headMismatch {
                    #expect(first.location.segment != nil, "\(first)")
                    // A segment whose name does not follow the events before it has no frame to point at.
                    #expect(first.location.offset != nil || first.kind == .segmentLayout, "\(first)")
                }
                // Readers hand out the original events before the tampered one and stop where the chain or the
                // seqs show it (an edit shows only at the next link; the last event only against a head).
                let (read, warning) = try original.fixture.readAll()
                let intact = Int(seq) - 1
                #expect(Array(read.prefix(intact)) == Array(original.events.prefix(min(read.count, intact))))
                if first.kind != .headMismatch {
                    #expect(read.count <= Int(expected) && warning != nil, "\(tampering) at seq \(seq)")
                }
            } else {
                #expect(report.problems == [], "recompressed log: \(report.problems)")
                #expect(try original.fixture.readAll().events == original.events)
            }
            checked += 1
        }
        try original.write(original.segments)
        #expect(try original.fixture.reader().verify(expectingHead: original.head).isIntact)
        print(
            "tampering: \(tampering.rawValue) at \(checked) position(s) of a \(last)-event log in "
                + "\(original.segments.count) segments: "
                + (tampering == .recompress ? "no problem, same events" : "each reported at its seq"))
    }
}
