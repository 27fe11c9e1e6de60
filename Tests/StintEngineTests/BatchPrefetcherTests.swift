import Foundation
import StintCore
@_spi(FaultInjection) import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The per-device read-ahead of a merged read: the same batches, end and warning as the cursor it reads,
/// across chunk boundaries, and a prefetcher dropped early stops its thread.
@Suite struct BatchPrefetcherTests {
    /// A log of `count` one-event batches after `log.created`, in segments of a few kilobytes.
    static func makeLog(in directory: TemporaryDirectory, batches count: Int) throws -> String {
        let calendar = LogCalendar(timeZone: "UTC", firstWeekday: 2)!
        let settings = DomainEvent.logCreated(LogSettings(logId: EntityID(high: 1, low: 2), calendar: calendar))
        let clock = FixedClock("2026-05-04T08:00:00.000Z")
        let path = directory.appending("log")
        var configuration = LogConfiguration(clock: clock.reading, sealThreshold: 4096)
        configuration.fileSystem = UnsyncedFileSystem()
        let writer = try LogWriter.create(at: path, settingsEvent: settings.draft, configuration: configuration)
        for index in 0..<count {
            _ = try writer.append([
                DomainEvent.tagCreated(
                    tagId: EntityID(high: 3, low: UInt64(index)), name: "t\(index)", color: "#112233"
                )
                .draft
            ])
        }
        writer.close()
        return path
    }

    /// Files written without waiting for the disk: these logs are read back, never recovered.
    struct UnsyncedFileSystem: ForwardingFileSystem {
        let base: any LogFileSystem = POSIXFileSystem()
        func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {}
        func synchronizeDirectory(_ path: String) throws(SystemCallError) {}
    }

    static func drain(_ next: () throws -> LogBatch?) throws -> [[Int64]] {
        var seqs: [[Int64]] = []
        while let batch = try next() { seqs.append(batch.events.map(\.seq)) }
        return seqs
    }

    @Test func handsOutWhatTheCursorDoes() throws {
        let directory = TemporaryDirectory()
        let count = BatchPrefetcher.chunkSize * (BatchPrefetcher.chunksAhead + 2) + 7
        let path = try Self.makeLog(in: directory, batches: count)
        let reader = try LogReader(path: path)
        let direct = try reader.batches(from: 1)
        let prefetcher = BatchPrefetcher(try reader.batches(from: 1))
        let expected = try Self.drain(direct.next)
        #expect(expected.count == count + 1)
        #expect(try Self.drain(prefetcher.next) == expected)
        #expect(try prefetcher.next() == nil)
        #expect(prefetcher.cursor.warning == nil)
    }

    @Test func endsWhereDamageEndsTheCursorWithItsWarning() throws {
        let directory = TemporaryDirectory()
        let path = try Self.makeLog(in: directory, batches: BatchPrefetcher.chunkSize * 3)
        let segments = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jsonl.zst") }
            .sorted()
        #expect(segments.count > 2)
        let damaged = "\(path)/\(segments[1])"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: damaged)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let reader = try LogReader(path: path)
        let direct = try reader.batches(from: 1)
        let expected = try Self.drain(direct.next)
        let prefetcher = BatchPrefetcher(try reader.batches(from: 1))
        #expect(try Self.drain(prefetcher.next) == expected)
        #expect(direct.warning != nil)
        #expect(prefetcher.cursor.warning == direct.warning)
    }

    @Test func droppedEarlyStopsReading() throws {
        let directory = TemporaryDirectory()
        let path = try Self.makeLog(in: directory, batches: BatchPrefetcher.chunkSize * 8)
        let reader = try LogReader(path: path)
        // Each one is dropped with its thread blocked on a full read-ahead, or still reading: dropping it
        // waits for the thread, which must return (the test would hang otherwise).
        for taken in [0, 1, BatchPrefetcher.chunkSize + 1] {
            let prefetcher = BatchPrefetcher(try reader.batches(from: 1))
            for _ in 0..<taken { _ = try prefetcher.next() }
            if taken == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        let last = try Self.drain(BatchPrefetcher(try reader.batches(from: 1)).next).last
        #expect(last == [Int64(BatchPrefetcher.chunkSize * 8 + 1)])
    }
}
