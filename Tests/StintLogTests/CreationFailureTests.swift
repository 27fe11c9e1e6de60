import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

@Suite struct CreationFailureTests {
    /// Regression: when the directory sync after `format` was renamed into place failed (or the sync of the
    /// parent directory), `create` threw but left `format` behind, so the directory opened as a log whose
    /// `format` entry — and, for the parent, the log itself — no power loss was guaranteed to keep, and running
    /// `create` again refused it ("a log is already there"). Now a failed creation never leaves `format`.
    @Test func aCreationThatFailsAtAnyOperationLeavesNoFormatAndCanBeRunAgain() throws {
        let probe = FaultInjectingFileSystem()
        let dry = LogFixture()
        dry.fileSystem = probe
        try dry.create().close()
        let operations = probe.operations.count
        #expect(probe.operations.contains { $0.hasPrefix("rename format.tmp") })
        // Writing the `checked` file (a cache: its failures are ignored) runs from opening `checked.tmp` to renaming it.
        let cacheStart = try #require(probe.operations.firstIndex { $0 == "open checked.tmp" })
        let cacheEnd = try #require(probe.operations.firstIndex { $0.hasPrefix("rename checked.tmp") })
        for failing in 0..<operations {
            let fixture = LogFixture()
            let fileSystem = FaultInjectingFileSystem()
            fileSystem.crashAt = failing
            fileSystem.crashes = false
            fixture.fileSystem = fileSystem
            if (cacheStart...cacheEnd).contains(failing) {
                try fixture.create().close()
                #expect(try fixture.reader().verify().isIntact, "\(fileSystem.operations[failing])")
                continue
            }
            let error = logError { try fixture.create() }
            #expect(error?.code == .io, "operation \(failing): \(fileSystem.operations[failing])")
            #expect(
                !FileManager.default.fileExists(atPath: fixture.path + "/format"), "\(fileSystem.operations[failing])")
            #expect(logError { try fixture.open() }?.code != nil)
            let writer = try fixture.create()
            #expect(writer.lastSeq == 1)
            writer.close()
            #expect(try fixture.reader().verify().isIntact)
        }
    }

    /// A mirror keeps the `tail` file from its first append, before `format` is written: a creation that stops
    /// at any operation after it (or fails to write it, which is ignored) can still be run again.
    @Test func aMirrorCreationThatStopsAtAnyOperationCanBeRunAgain() throws {
        let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!
        let (source, batches) = try LogFixture.deviceBatches(
            of: device, count: 3, sealThreshold: 1 << 20, sealedFrameTarget: 1 << 16)
        func configuration(_ fileSystem: any LogFileSystem) -> LogConfiguration {
            var configuration = source.configuration
            configuration.fileSystem = fileSystem
            configuration.keepsTailFile = true
            return configuration
        }
        let probe = FaultInjectingFileSystem()
        let dry = LogFixture()
        try LogWriter.createMirror(at: dry.path, firstBatch: batches[0].events, configuration: configuration(probe))
            .close()
        #expect(probe.operations.contains { $0.hasPrefix("rename tail.tmp") })
        for failing in 0..<probe.operations.count {
            let fixture = LogFixture()
            let fileSystem = FaultInjectingFileSystem()
            fileSystem.crashAt = failing
            fileSystem.crashes = false
            let error = logError {
                try LogWriter.createMirror(
                    at: fixture.path, firstBatch: batches[0].events, configuration: configuration(fileSystem)
                ).close()
            }
            // A failure to write the tail file is ignored: the mirror was created.
            guard error != nil else { continue }
            #expect(!FileManager.default.fileExists(atPath: fixture.path + "/format"))
            let writer = try LogWriter.createMirror(
                at: fixture.path, firstBatch: batches[0].events, configuration: configuration(POSIXFileSystem()))
            #expect(writer.lastSeq == batches[0].lastSeq, "\(fileSystem.operations[failing])")
            writer.close()
            #expect(try fixture.reader().verify().isIntact)
        }
    }
}
