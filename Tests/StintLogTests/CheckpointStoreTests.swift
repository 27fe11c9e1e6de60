import Foundation
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

    /// A checkpoint opened to be read in pieces (``CheckpointStream``) gives its header, its payload line
    /// and the rest of its payload, and ``CheckpointStream/finish()`` holds only when all of it was read from
    /// an undamaged file: not for a file cut short, one with a byte changed, one with bytes after the frame,
    /// or a payload not read to its end.
    @Test func aCheckpointReadInPiecesIsWholeOnlyWhenItsFileIs() throws {
        let directory = TemporaryDirectory(prefix: "stint-checkpoint")
        let store = CheckpointStore(logDirectory: directory.path)
        var random = SplitMix64(seed: 0x5EED_0001)
        let line = Array("{\"devices\":[]}\n".utf8)
        let payload = line + (0..<600_000).map { _ in UInt8(random.next() % 200) }
        let head = LogHead(seq: 9, hash: String(repeating: "ef", count: 32))
        let at = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        store.save(payload, head: head, at: at, version: 4)
        let path = store.path(for: 9)
        let file = try #require(FileManager.default.contents(atPath: path))

        func readAll(_ stream: CheckpointStream, piece: Int) -> [UInt8]? {
            guard let first = stream.readLine(maximum: 1 << 10) else { return nil }
            var read = first + [0x0A]
            var buffer = [UInt8](repeating: 0, count: piece)
            while read.count < stream.size {
                let want = min(piece, stream.size - read.count)
                guard
                    let count = buffer.withUnsafeMutableBytes({
                        stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want]))
                    }),
                    count > 0
                else { return nil }
                read += buffer[..<count]
            }
            return read
        }

        for piece in [1_000, 70_000] {
            let stream = try #require(store.openNewestUnverified(atOrBefore: 9, recordedAtOrBefore: nil, version: 4))
            #expect(stream.header == CheckpointStore.Header(head: head, at: at, version: 4))
            #expect(stream.size == payload.count)
            let read = readAll(stream, piece: piece)
            #expect(read == payload, "pieces of \(piece)")
            #expect(stream.finish(), "pieces of \(piece): an undamaged file read whole")
        }
        // Not read to its end.
        let partial = try #require(store.openNewestUnverified(atOrBefore: 9, recordedAtOrBefore: nil, version: 4))
        _ = partial.readLine(maximum: 1 << 10)
        #expect(!partial.finish(), "a payload not read to its end")

        var damaged: [(String, Data)] = [
            ("cut short", file.prefix(file.count - 3)),
            ("one more byte", file + Data([0])),
        ]
        var flipped = file
        flipped[file.count / 2] ^= 0x20
        damaged.append(("a byte changed", flipped))
        for (what, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            guard let stream = store.openNewestUnverified(atOrBefore: 9, recordedAtOrBefore: nil, version: 4) else {
                continue  // Refused when opened: as good.
            }
            let read = readAll(stream, piece: 4096)
            #expect(read == nil || !stream.finish(), "\(what): taken as whole")
        }
    }

    /// Saving keeps the newest `retained` checkpoints and, with a spacing, the first past each multiple of it
    /// for the newest `kept` multiples; the rest are removed.
    @Test func savingKeepsTheNewestAndTheFirstPastEachMultipleOfTheSpacing() throws {
        let directory = TemporaryDirectory(prefix: "stint-checkpoint")
        var store = CheckpointStore(logDirectory: directory.path)
        store.retained = 2
        store.spacing = (every: 10, kept: 3)
        let at = Instant(canonical: "2026-11-29T09:00:00.000Z")!
        for seq: Int64 in [3, 8, 12, 14, 19, 23, 31, 35, 36, 47] {
            store.save(
                Array("state \(seq)".utf8), head: LogHead(seq: seq, hash: String(repeating: "ab", count: 32)), at: at,
                version: 1)
        }
        // The newest two (36, 47), and the first of each of the newest three multiples (23, 31, 47; 12 and 3
        // are of older ones).
        #expect(store.seqs() == [23, 31, 36, 47])
        store.spacing = nil
        store.save(
            Array("state 50".utf8), head: LogHead(seq: 50, hash: String(repeating: "ab", count: 32)), at: at, version: 1
        )
        #expect(store.seqs() == [47, 50])
        #expect(CheckpointStore.kept(of: [], retained: 3, spacing: (every: 5, kept: 2)).isEmpty)
        #expect(CheckpointStore.kept(of: [1, 2, 3], retained: 0, spacing: (every: 5, kept: 2)) == [1])
    }
}
