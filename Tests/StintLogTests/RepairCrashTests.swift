import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// A repair interrupted at any file operation (docs/log-format.md §5.7) leaves a log that the next repair
/// finishes: the events a reader read before the cut are kept, nothing else is in the log, every original
/// byte of the damaged log is still in the directory, and the next repair still has the same loss to record
/// (from the `repairing` file when the cut was complete), while writers refuse the log until it is recorded.
@Suite struct RepairCrashTests {
    @Test func aRepairInterruptedAtAnyOperationIsFinishedByTheNextOne() throws {
        let fixture = LogFixture(sealThreshold: 2048, sealedFrameTarget: 600)
        try fixture.populate(batches: 40)
        let names = try fixture.segmentNames()
        #expect(names.count >= 4)
        // Damage the second frame of the second segment.
        var bytes = try fixture.bytes(of: names[1])
        let target = SegmentSurgery.frames(bytes)[1]
        bytes[target.offset + target.bytes.count / 2] ^= 0x55
        try fixture.write(bytes, to: names[1])
        let damaged = try fixture.snapshot()
        let (kept, warning) = try fixture.readAll()
        #expect(warning != nil && !kept.isEmpty)

        let probe = FaultInjectingFileSystem()
        fixture.fileSystem = probe
        let dry = try LogWriter.openRepairing(at: fixture.path, configuration: fixture.configuration)
        dry.writer.close()
        let expected = try #require(dry.repair)
        #expect(expected.lostEvents)
        let operations = probe.operations.count
        #expect(operations > 10)

        for crashAt in 0..<operations {
            try fixture.restore(damaged)
            let faults = FaultInjectingFileSystem()
            faults.crashAt = crashAt
            fixture.fileSystem = faults
            if let opened = try? LogWriter.openRepairing(at: fixture.path, configuration: fixture.configuration) {
                opened.writer.close()
            }
            fixture.fileSystem = POSIXFileSystem()
            let place = "crash at operation \(crashAt) (\(faults.operations.last ?? "?"))"
            #expect(throws: LogError.self, "\(place): a writer opened a log whose repair is not recorded") {
                try fixture.open().close()
            }
            let finished = try LogWriter.openRepairing(at: fixture.path, configuration: fixture.configuration)
            #expect(finished.repair?.firstLostSeq == expected.firstLostSeq, "\(place)")
            #expect(finished.repair?.lastLostSeq == expected.lastLostSeq, "\(place)")
            #expect(finished.repair?.reason == expected.reason, "\(place)")
            try finished.writer.finishRepair()
            finished.writer.close()
            try fixture.open().close()
            let (read, after) = try fixture.readAll()
            #expect(after == nil, "\(place): \(after!)")
            #expect(read == kept, "\(place): the log is not the kept events")
            #expect(try fixture.reader().verify().isIntact, "\(place)")
            // Every original byte is still somewhere in the directory.
            let present = try Set(
                fixture.allFileNames().filter { $0 != "checkpoints" }.map { try fixture.bytes(of: $0) })
            for (name, original) in damaged where name.hasSuffix(".jsonl.zst") {
                #expect(present.contains(original), "\(place): the bytes of \(name) are gone")
            }
        }
    }
}
