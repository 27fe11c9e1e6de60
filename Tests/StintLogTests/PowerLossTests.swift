import Foundation
import StintCore
import Testing

@_spi(FaultInjection) @testable import StintLog

/// Simulated power losses: a seeded workload runs on ``PowerLossFileSystem`` until the power fails at a
/// random operation; a reboot keeps what was synced and a random part of what was not (writes dropped, torn
/// or reordered; entry changes lost); then a writer opens the log and it must hold every acknowledged batch
/// exactly once, gapless, verified, with any torn bytes kept aside. Half of the trials lose power a second
/// time while the next writer recovers and appends.
///
/// `STINT_POWER_LOSS_TRIALS` (default 300) and `STINT_POWER_LOSS_SEED` (the first seed, default 1) set the
/// run; `Tools/reliability/power-loss.sh` runs the full one. A failure names its seed: run that one trial
/// with `STINT_POWER_LOSS_SEED=<seed> STINT_POWER_LOSS_TRIALS=1`.
@Suite struct PowerLossTests {
    static let environment = ProcessInfo.processInfo.environment
    static let trials = environment["STINT_POWER_LOSS_TRIALS"].flatMap(Int.init) ?? 300
    static let firstSeed = environment["STINT_POWER_LOSS_SEED"].flatMap(UInt64.init) ?? 1

    /// What the trials saw, for the summary line.
    struct Tally {
        var trials = 0
        var acknowledged = 0
        var survivingUnacknowledged = 0
        var tornTails = 0
        var secondCrashes = 0
        var completedSeals = 0
        var neverCreated = 0
        var checkpointsUsed = 0
    }

    @Test(arguments: 0..<2)
    func everyAcknowledgedBatchSurvivesAPowerLossExactlyOnce(half: Int) throws {
        var tally = Tally()
        let seeds = (0..<UInt64(Self.trials)).map { Self.firstSeed + $0 }.filter { Int($0 % 2) == half }
        for seed in seeds {
            try trial(seed: seed, tally: &tally)
        }
        print(
            "power loss (half \(half)): \(tally.trials) trials from seed \(Self.firstSeed), \(tally.acknowledged) "
                + "acknowledged batches all present once, \(tally.survivingUnacknowledged) unacknowledged batches "
                + "survived whole, \(tally.tornTails) torn tails set aside, \(tally.completedSeals) interrupted seals "
                + "completed, \(tally.secondCrashes) second power losses during recovery, \(tally.neverCreated) logs "
                + "never created, \(tally.checkpointsUsed) checkpoints trusted")
    }

    private func trial(seed: UInt64, tally: inout Tally) throws {
        var generator = SplitMix64(seed: seed)
        var workload = CrashWorkload()
        let first = PowerLossFileSystem()
        first.powerFailsAfter = Int.random(in: 0..<160, using: &generator)
        try workload.run(on: first, steps: 25, using: &generator)
        var image = first.crashImage(using: &generator)
        if Bool.random(using: &generator) {
            image.powerFailsAfter = Int.random(in: 0..<40, using: &generator)
            try workload.run(on: image, steps: 6, using: &generator)
            image = image.crashImage(using: &generator)
            tally.secondCrashes += 1
        }
        tally.trials += 1
        try check(image, workload, seed: seed, tally: &tally)
    }

    private func check(_ image: PowerLossFileSystem, _ workload: CrashWorkload, seed: UInt64, tally: inout Tally) throws
    {
        let path = CrashWorkload.logPath
        guard CrashWorkload.isLog(image) else {
            // Creation never finished: nothing may have been acknowledged, and creating again must work.
            #expect(workload.attempts.allSatisfy { !$0.acknowledged }, "seed \(seed): a log was acknowledged but lost")
            let fresh = CrashWorkload()
            let writer = try LogWriter.create(
                at: path,
                settingsEvent: workload.attempts.first?.drafts[0]
                    ?? EventDraft(
                        type: "log.created", version: 1, data: .object([:])),
                configuration: fresh.configuration(image))
            writer.close()
            #expect(try LogReader(path: path, options: CrashWorkload.readOptions(image)).verify().isIntact)
            tally.neverCreated += 1
            return
        }
        // A reader of the crashed log (before any repair) sees whole batches, a prefix of what was attempted.
        let (seen, _) = try CrashWorkload.batches(image)
        if let problem = workload.mismatch(seen, mayEndEarly: true) {
            Issue.record("seed \(seed): before recovery, a reader saw: \(problem)")
        }
        let segmentsBefore = image.names(in: path).filter { $0.hasSuffix(".jsonl.zst") }
        var before: [String: [UInt8]] = [:]
        for name in segmentsBefore { before[name] = image.contents(of: path + "/" + name) }

        // Torn tails set aside before the last power loss were made durable before they were reported.
        let earlier = workload.notices.notices
        for notice in earlier where notice.kind == .tornTailSetAside {
            guard let segment = notice.location?.segment, let offset = notice.location?.offset, offset > 0 else {
                continue
            }
            #expect(
                image.names(in: path).contains { $0.hasPrefix("\(segment).torn-\(offset)") },
                "seed \(seed): the torn bytes of \(segment) at \(offset), set aside before the last crash, are lost")
        }
        let writer: LogWriter
        do {
            writer = try LogWriter.open(at: path, configuration: workload.configuration(image))
        } catch {
            Issue.record("seed \(seed): the log does not open after the power loss: \(error)")
            return
        }
        defer { writer.close() }
        let (batches, warning) = try CrashWorkload.batches(image)
        #expect(warning == nil, "seed \(seed)")
        if let problem = workload.mismatch(batches) {
            Issue.record("seed \(seed): \(problem)")
        }
        let events = batches.flatMap(\.events)
        #expect(events.map(\.seq) == (0..<events.count).map { Int64($0 + 1) }, "seed \(seed): not gapless")
        tally.acknowledged += workload.attempts.filter(\.acknowledged).count
        tally.survivingUnacknowledged += max(0, batches.count - workload.attempts.filter(\.acknowledged).count)

        // Torn tails were kept aside byte for byte.
        for notice in workload.notices.notices.dropFirst(earlier.count) where notice.kind == .tornTailSetAside {
            tally.tornTails += 1
            guard let segment = notice.location?.segment, let offset = notice.location?.offset,
                let original = before[segment]
            else { continue }
            let tail = Array(original[Int(offset)...])
            if !tail.isEmpty {
                let kept = image.names(in: path).filter { $0.hasPrefix("\(segment).torn-\(offset)") }.compactMap {
                    image.contents(of: path + "/" + $0)
                }
                #expect(kept.contains(tail), "seed \(seed): the torn bytes of \(segment) at \(offset) were not kept")
            }
        }
        tally.completedSeals +=
            workload.notices.notices.dropFirst(earlier.count).filter { $0.kind == .interruptedSealCompleted }.count

        // The repaired log verifies, and goes on.
        let report = try LogReader(path: path, options: CrashWorkload.readOptions(image)).verify()
        #expect(report.problems == [], "seed \(seed)")
        #expect(report.eventCount == Int64(events.count), "seed \(seed)")
        let next = try writer.append([EventDraft(type: "timer.stopped", version: 1, data: .object([:]))])
        #expect(next[0].seq == Int64(events.count) + 1, "seed \(seed)")
        let reader = try LogReader(path: path, options: CrashWorkload.readOptions(image))
        #expect(try reader.verify().problems == [], "seed \(seed)")

        // A checkpoint is either trusted and whole, or ignored.
        let store = CheckpointStore(logDirectory: path, fileSystem: image)
        if let found = store.newest(atOrBefore: .max, recordedAtOrBefore: nil, version: 1, reader: reader) {
            #expect(found.payload == CrashWorkload.checkpointPayload(found.header.head), "seed \(seed)")
            tally.checkpointsUsed += 1
        }
    }
}
