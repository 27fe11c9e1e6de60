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
        for failing in 0..<operations {
            let fixture = LogFixture()
            let fileSystem = FaultInjectingFileSystem()
            fileSystem.crashAt = failing
            fileSystem.crashes = false
            fixture.fileSystem = fileSystem
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
}
