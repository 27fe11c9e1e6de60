import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A log whose last segment is sealed with an index that lies about its last `seq` (a forger recomputes the
/// index's SHA-256): reads size their tables from that `seq`, and a lie of 2^62 made every cold read and
/// `verify` abort (asking for 32 GiB). Reads now answer from the events the segment holds, and `verify`
/// reports the index.
@Suite struct ForgedSealTests {
    /// The log's last segment after its seal frame's `lastSeq` is replaced by `lastSeq`, the digest redone.
    static func forgeLastSeal(of path: String, lastSeq: UInt64) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
            .filter { $0.hasSuffix(".jsonl.zst") }.sorted()
        try #require(names.count >= 2, "no sealed segment to forge")
        // The active segment goes: the one before it, sealed, is the log's last (as right after a seal).
        try FileManager.default.removeItem(atPath: "\(path)/\(names[names.count - 1])")
        let segment = "\(path)/\(names[names.count - 2])"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        let magic: [UInt8] = [0x5E, 0x2A, 0x4D, 0x18]
        let start = try #require(
            stride(from: bytes.count - 4, through: 0, by: -1).first { Array(bytes[$0..<$0 + 4]) == magic })
        let payload = start + 8
        #expect(Array(bytes[payload..<payload + 8]) == Array("STINTSEL".utf8))
        withUnsafeBytes(of: lastSeq.littleEndian) { bytes.replaceSubrange(payload + 24..<payload + 32, with: $0) }
        let digestStart = bytes.count - 32
        let hex = Array(SHA256Digest(of: Array(bytes[payload..<digestStart])).hex.utf8)
        let digest = stride(from: 0, to: 64, by: 2).map {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
        bytes.replaceSubrange(digestStart..., with: digest)
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
    }

    @Test func readsAndVerifyOfALogWhoseSealLiesAboutItsLastSeqDoNotAbort() throws {
        let directory = TemporaryDirectory()
        let path = try BatchPrefetcherTests.makeLog(in: directory, batches: 120)
        let before = try LogReader(path: path).lastSeq()
        try Self.forgeLastSeal(of: path, lastSeq: 1 << 62)
        #expect(try LogReader(path: path).lastSeq() == 1 << 62, "the forged index is not the one read")
        let options = EngineOptions(
            clock: { Instant(canonical: "2026-05-05T08:00:00.000Z")! }, newID: { EntityID(high: 9, low: 9) })
        let source = try LogSource.open(path: path, options: options)
        let view = try LogView.load(source, at: .latest, options: options)
        #expect(view.state.lastSeq < before, "the events of the segment that went")
        #expect(view.state.tags.count == Int(view.state.lastSeq) - 1)
        let projection = try ProjectionView.load(source, at: .latest, options: options)
        #expect(projection.source.tags.count == view.state.tags.count)
        let report = try source.verify(validatingEach: { _, _ in nil })
        #expect(report.problems.contains { $0.contains("seal index") }, "\(report.problems)")
    }
}
