import Foundation
import StintCore
import Testing

@testable import StintLog

/// The layout rules of segments and frames (SegmentLayout), each broken alone in a log that is otherwise
/// intact, as the three walks of a log apply them: the reader stops with a warning, the verifier reports a
/// problem, and recovery refuses to open the log for writing.
@Suite struct SegmentLayoutTests {
    enum Break: String, CaseIterable, CustomStringConvertible {
        case dataFrameAfterTheSeal, secondSealFrame, foreignSkippableFrame, dataFrameWithoutChecksum
        case dataFrameWithoutContentSize, severalBatchesInAnActiveFrame, emptySegment, noSegment, noFirstSegment

        var description: String { rawValue }

        /// What the reader's warning is (nil: the reader reads the log through, since the rule is not one a
        /// reader must enforce), the kind the verifier reports, and the kind recovery refuses with.
        var expected: (reader: LogProblem.Kind?, verifier: LogProblem.Kind, recovery: LogProblem.Kind) {
            switch self {
            case .dataFrameAfterTheSeal, .foreignSkippableFrame, .dataFrameWithoutChecksum:
                return (.frameLayout, .frameLayout, .frameLayout)
            // Recovery finds the second seal from the end, and the last data frame does not end where it starts.
            case .secondSealFrame: return (.frameLayout, .frameLayout, .invalidSeal)
            case .dataFrameWithoutContentSize, .severalBatchesInAnActiveFrame: return (nil, .frameLayout, .frameLayout)
            // Recovery meets the unsealed segment before the empty one.
            case .emptySegment: return (.segmentLayout, .segmentLayout, .invalidSeal)
            case .noSegment, .noFirstSegment: return (.segmentLayout, .segmentLayout, .segmentLayout)
            }
        }
    }

    /// One active segment: the settings event, then five single-event batches, a frame each.
    private func log() throws -> (LogFixture, String, [SegmentSurgery.Frame]) {
        let fixture = LogFixture()
        try fixture.populate(batches: 5)
        let name = try fixture.segmentNames()[0]
        return (fixture, name, SegmentSurgery.frames(try fixture.bytes(of: name)))
    }

    /// The seal frame that describes `frames` (which hold seq 1…6).
    private func seal(_ frames: [SegmentSurgery.Frame]) -> [UInt8] {
        let entries = frames.enumerated().map { index, frame in
            SealIndex.Entry(offset: Int64(frame.offset), firstSeq: Int64(index + 1))
        }
        return SealIndex(firstSeq: 1, lastSeq: Int64(frames.count), entries: entries).encodedFrame()
    }

    /// The frame without its content checksum (flag cleared, last four bytes dropped).
    private func withoutChecksum(_ frame: [UInt8]) -> [UInt8] {
        var bytes = Array(frame.dropLast(4))
        bytes[4] &= ~0x04
        return bytes
    }

    @Test(arguments: Break.allCases)
    func theReaderTheVerifierAndRecoveryApplyTheSameRule(_ broken: Break) throws {
        let (fixture, name, frames) = try log()
        let bytes = frames.map(\.bytes)
        switch broken {
        case .dataFrameAfterTheSeal:
            try fixture.write(bytes.flatMap { $0 } + seal(frames) + bytes[5], to: name)
        case .secondSealFrame:
            try fixture.write(bytes.flatMap { $0 } + seal(frames) + seal(frames), to: name)
        case .foreignSkippableFrame:
            try fixture.write(bytes.flatMap { $0 } + [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4], to: name)
        case .dataFrameWithoutChecksum:
            try fixture.write(
                bytes[0..<2].flatMap { $0 } + withoutChecksum(bytes[2]) + bytes[3...].flatMap { $0 }, to: name)
        case .dataFrameWithoutContentSize:
            try fixture.write(
                bytes[0..<2].flatMap { $0 } + SegmentSurgery.withoutContentSize(bytes[2]) + bytes[3...].flatMap { $0 },
                to: name)
        case .severalBatchesInAnActiveFrame:
            let merged = SegmentSurgery.frame(frames[1].content! + frames[2].content!)
            try fixture.write(bytes[0..<1].flatMap { $0 } + merged + bytes[3...].flatMap { $0 }, to: name)
        case .emptySegment:
            try fixture.write([], to: LogDirectory.segmentName(firstSeq: Int64(frames.count + 1)))
        case .noSegment:
            try FileManager.default.removeItem(atPath: fixture.directory.appending("log/\(name)"))
        case .noFirstSegment:
            try FileManager.default.moveItem(
                atPath: fixture.directory.appending("log/\(name)"),
                toPath: fixture.directory.appending("log/\(LogDirectory.segmentName(firstSeq: 2))"))
        }
        let expected = broken.expected
        let before = try fixture.snapshot()

        #expect(try fixture.readAll().warning?.kind == expected.reader)
        #expect(try fixture.reader().verify().problems.map(\.kind).contains(expected.verifier))
        let refusal = try #require(throws: LogError.self) { try fixture.open() }
        #expect(refusal.code == .damaged)
        #expect((refusal.cause as? LogProblem)?.kind == expected.recovery)
        #expect(try fixture.snapshot() == before, "nothing was changed")
    }
}
