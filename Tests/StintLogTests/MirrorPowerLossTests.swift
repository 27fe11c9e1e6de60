import Foundation
import StintCore
import TestSupport
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Batches appended to a mirror together (``LogWriter/appendRecorded(batches:)``, one sync per run) survive a
/// power loss as a verified prefix of the device's log holding every run that was acknowledged: ingestion
/// records a device's new head only after the run returned (docs/decisions/0007 §6.2).
@Suite struct MirrorPowerLossTests {
    static let device = DeviceID("3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f")!
    static let path = "/mem/mirror"

    /// A device's log of batches of 1 to 3 events spanning several sealed segments, as a reader hands them out,
    /// and its sealed segments by name.
    private func deviceBatches() throws -> (batches: [LogBatch], sealed: [String: [UInt8]]) {
        let (fixture, batches) = try LogFixture.deviceBatches(
            of: Self.device, count: 40, sealThreshold: 1500, sealedFrameTarget: 500)
        var sealed: [String: [UInt8]] = [:]
        for name in try fixture.segmentNames().dropLast() { sealed[name] = try fixture.bytes(of: name) }
        return (batches, sealed)
    }

    /// The mirror's writer; with `replica`, as a replica's: keeping the `tail` file, and given the device's sealed
    /// segments to place byte for byte.
    private func configuration(_ fileSystem: PowerLossFileSystem, replica: Bool = false) -> LogConfiguration {
        var configuration = LogConfiguration(
            clock: FixedClock("2026-11-29T13:07:09.123Z").reading, sealThreshold: 1500, sealedFrameTarget: 500,
            lockTimeout: .zero, onNotice: { _ in }, device: Self.device)
        configuration.fileSystem = fileSystem
        configuration.keepsTailFile = replica
        return configuration
    }

    /// Creates the mirror with the first batch and appends the others in runs of 1 to 12 until the power
    /// fails; `acknowledged` counts the batches whose append returned.
    private func appendRuns(
        _ batches: [LogBatch], sealed: [String: [UInt8]]?, on fileSystem: PowerLossFileSystem,
        acknowledged: inout Int, using generator: inout SplitMix64
    ) throws {
        let writer = try LogWriter.createMirror(
            at: Self.path, firstBatch: batches[0].events,
            configuration: configuration(fileSystem, replica: sealed != nil))
        defer { writer.close() }
        acknowledged = 1
        while acknowledged < batches.count {
            let end = min(batches.count, acknowledged + Int.random(in: 1...12, using: &generator))
            try writer.appendRecorded(batches: batches[acknowledged..<end].map(\.events)) { sealed?[$0] }
            acknowledged = end
        }
    }

    @Test(arguments: [false, true])
    func runsOfBatchesSurviveAPowerLossAsAVerifiedPrefix(asAReplicasMirror replica: Bool) throws {
        let (batches, sealed) = try deviceBatches()
        var tornOrShort = 0
        for seed in UInt64(1)...120 {
            var generator = SplitMix64(seed: seed)
            let fileSystem = PowerLossFileSystem()
            fileSystem.powerFailsAfter = Int.random(in: 0..<80, using: &generator)
            var acknowledged = 0
            do {
                try appendRuns(
                    batches, sealed: replica ? sealed : nil, on: fileSystem, acknowledged: &acknowledged,
                    using: &generator)
            } catch {
                #expect(fileSystem.isDown, "seed \(seed): \(error)")
            }
            let image = fileSystem.crashImage(using: &generator)
            guard image.contents(of: Self.path + "/format") != nil else {
                #expect(acknowledged == 0, "seed \(seed): an acknowledged mirror was lost")
                continue
            }
            let writer = try LogWriter.open(at: Self.path, configuration: configuration(image, replica: replica))
            #expect(writer.head == (try LogReader(path: Self.path, options: readOptions(image)).head()), "seed \(seed)")
            writer.close()
            let options = readOptions(image)
            let cursor = try LogReader(path: Self.path, options: options).batches()
            var read: [LogBatch] = []
            while let batch = try cursor.next() { read.append(batch) }
            #expect(cursor.warning == nil, "seed \(seed)")
            #expect(read.count >= acknowledged, "seed \(seed): an acknowledged batch was lost")
            #expect(read == Array(batches.prefix(read.count)), "seed \(seed): not a prefix of the device's log")
            #expect(try LogReader(path: Self.path, options: options).verify().problems == [], "seed \(seed)")
            if read.count < batches.count { tornOrShort += 1 }
        }
        #expect(tornOrShort > 0, "some trials lost power before the end")
    }

    private func readOptions(_ fileSystem: PowerLossFileSystem) -> LogReader.Options {
        var options = LogReader.Options(readChunkSize: 512)
        options.fileSystem = fileSystem
        return options
    }
}
