import StintCore
import TestSupport
import Testing

@testable import StintLog

@Suite struct CheckpointStoreTests {
    /// A checkpoint of megabytes, as the state of an import of 100 000 records is: its bytes are copied out
    /// of the decompressor's buffer while that buffer is alive (a large buffer is unmapped when freed, so
    /// reading it afterwards crashed).
    @Test(arguments: [1 << 10, 2 << 20])
    func aCheckpointReadsBackByteForByte(size: Int) throws {
        let directory = TemporaryDirectory(prefix: "stint-checkpoint")
        let store = CheckpointStore(logDirectory: directory.path)
        var payload: [UInt8] = []
        payload.reserveCapacity(size)
        var line = 0
        while payload.count < size {
            payload += Array("{\"id\":\(line),\"start\":\"2026-11-29T09:00:00.000Z\",\"tag\":\"t\(line % 97)\"}\n".utf8)
            line += 1
        }
        let head = LogHead(seq: 42, hash: String(repeating: "ab", count: 32))
        let at = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        store.save(payload, head: head, at: at, version: 3)
        let loaded = try #require(store.load(seq: 42))
        #expect(loaded.0 == CheckpointStore.Header(head: head, at: at, version: 3))
        let same = loaded.1 == payload
        #expect(same, "the payload read back differs from the one saved")
    }

    /// A payload handed over in pieces as it is made reads back as the same bytes; one whose pieces do not
    /// add up to the size named before them is not saved (the size is in the checkpoint's header and frame).
    @Test func aPayloadStreamedInPiecesReadsBackAndAWrongSizeIsNotSaved() throws {
        let directory = TemporaryDirectory(prefix: "stint-checkpoint")
        let store = CheckpointStore(logDirectory: directory.path)
        var random = SplitMix64(seed: 0xC0_FFEE)
        let pieces = (0..<40).map { index in (0..<(index * 997 % 70_000)).map { _ in UInt8(random.next() % 7) } }
        let payload = pieces.flatMap { $0 }
        let head = LogHead(seq: 7, hash: String(repeating: "cd", count: 32))
        let at = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        store.save(size: payload.count, head: head, at: at, version: 2) { write in
            for piece in pieces { piece.withUnsafeBytes { write($0) } }
        }
        let loaded = try #require(store.load(seq: 7))
        #expect(loaded.0 == CheckpointStore.Header(head: head, at: at, version: 2))
        let same = loaded.1 == payload
        #expect(same, "the payload read back differs from the pieces saved")
        for size in [payload.count - 1, payload.count + 1] {
            let other = LogHead(seq: 8, hash: head.hash)
            store.save(size: size, head: other, at: at, version: 2) { write in
                for piece in pieces { piece.withUnsafeBytes { write($0) } }
            }
            #expect(store.load(seq: 8) == nil, "saved with a size of \(size) for \(payload.count) bytes")
        }
        #expect(store.seqs() == [7], "a refused save left a file behind")
    }
}
