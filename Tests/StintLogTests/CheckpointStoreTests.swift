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
}
