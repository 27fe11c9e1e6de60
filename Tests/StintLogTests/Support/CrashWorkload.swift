import Foundation
import StintCore
import TestSupport

@_spi(FaultInjection) @testable import StintLog

/// A seeded sequence of log operations (create, appends of 1–3 events, reopenings, checkpoint saves) run
/// against a file system that may lose power, and the checks that what survives is right.
///
/// Every batch the workload tries is remembered with whether ``LogWriter/append(_:)`` returned (was
/// acknowledged). After a crash and a recovery, the log must hold every acknowledged batch exactly once, in
/// order, and nothing but them and possibly some of the batches that were in flight, each whole.
struct CrashWorkload {
    /// A batch the workload tried to append.
    struct Attempt {
        var drafts: [EventDraft]
        var acknowledged = false
    }

    static let logPath = "/mem/log"
    let clock = FixedClock("2026-11-29T13:07:09.123Z")
    let notices = NoticeRecorder()
    var sealThreshold: Int64 = 1500
    var sealedFrameTarget = 500
    private(set) var attempts: [Attempt] = []
    private var counter = 0

    func configuration(_ fileSystem: any LogFileSystem) -> LogConfiguration {
        var configuration = LogConfiguration(
            clock: clock.reading, sealThreshold: sealThreshold, sealedFrameTarget: sealedFrameTarget,
            lockTimeout: .zero, onNotice: notices.record)
        configuration.fileSystem = fileSystem
        return configuration
    }

    static func readOptions(_ fileSystem: any LogFileSystem) -> LogReader.Options {
        var options = LogReader.Options(readChunkSize: 512)
        options.fileSystem = fileSystem
        return options
    }

    static func isLog(_ fileSystem: PowerLossFileSystem) -> Bool {
        fileSystem.contents(of: logPath + "/format") != nil
    }

    /// Runs `steps` operations until they end or the power fails; throws only for failures that are not
    /// explained by the power going down.
    mutating func run(
        on fileSystem: PowerLossFileSystem, steps: Int, using generator: inout some RandomNumberGenerator
    ) throws {
        var writer: LogWriter?
        defer { writer?.close() }
        do {
            writer = try openOrCreate(fileSystem)
            for _ in 0..<steps {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    writer?.close()
                    writer = try LogWriter.open(at: Self.logPath, configuration: configuration(fileSystem))
                case 1:
                    guard let head = writer?.head, let at = writer?.lastEvent?.at else { continue }
                    CheckpointStore(logDirectory: Self.logPath, fileSystem: fileSystem).save(
                        Self.checkpointPayload(head), head: head, at: at, version: 1)
                default:
                    let drafts = (0..<Int.random(in: 1...3, using: &generator)).map { _ in nextDraft() }
                    attempts.append(Attempt(drafts: drafts))
                    clock.advance(milliseconds: Int64.random(in: 0...5000, using: &generator))
                    _ = try writer!.append(drafts)
                    attempts[attempts.count - 1].acknowledged = true
                }
            }
        } catch let error as LogError where fileSystem.isDown {
            _ = error
        }
    }

    private mutating func openOrCreate(_ fileSystem: PowerLossFileSystem) throws -> LogWriter {
        if Self.isLog(fileSystem) {
            return try LogWriter.open(at: Self.logPath, configuration: configuration(fileSystem))
        }
        counter += 1
        let settings = EventDraft(
            type: "log.created", version: 1,
            data: .object([
                "logId": .string(String(format: "00000000-0000-4000-8000-%012d", counter)), "timeZone": .string("UTC"),
                "firstWeekday": .int(2), "format": .int(1),
            ]))
        attempts.append(Attempt(drafts: [settings]))
        let writer = try LogWriter.create(
            at: Self.logPath, settingsEvent: settings, configuration: configuration(fileSystem))
        attempts[attempts.count - 1].acknowledged = true
        return writer
    }

    /// A unique draft of about 200 bytes.
    private mutating func nextDraft() -> EventDraft {
        counter += 1
        return EventDraft(
            type: "timer.started", version: 1,
            data: .object([
                "recordId": .string(String(format: "00000000-0000-4000-8000-%012d", counter)),
                "note": .string("power-loss workload item \(counter)"), "n": .int(Int64(counter)),
            ]))
    }

    static func checkpointPayload(_ head: LogHead) -> [UInt8] {
        Array("state after \(head)".utf8)
    }

    // MARK: Checks

    /// Matches the log's batches against the attempts: every acknowledged batch present once and in order,
    /// unacknowledged ones whole or absent, nothing else. Returns a description of the first mismatch.
    func mismatch(_ batches: [LogBatch], mayEndEarly: Bool = false) -> String? {
        var index = 0
        var expectedSeq: Int64 = 1
        for (number, attempt) in attempts.enumerated() {
            if index < batches.count, Self.matches(batches[index], attempt.drafts) {
                if batches[index].firstSeq != expectedSeq {
                    return "batch of attempt \(number) starts at seq \(batches[index].firstSeq), not \(expectedSeq)"
                }
                expectedSeq += Int64(attempt.drafts.count)
                index += 1
            } else if attempt.acknowledged && !(mayEndEarly && index == batches.count) {
                return
                    "acknowledged attempt \(number) (\(attempt.drafts.count) events from seq \(expectedSeq)) is missing"
            }
        }
        if index < batches.count {
            return "the log holds \(batches.count - index) batches that were never attempted, from seq "
                + "\(batches[index].firstSeq)"
        }
        return nil
    }

    private static func matches(_ batch: LogBatch, _ drafts: [EventDraft]) -> Bool {
        batch.events.count == drafts.count
            && zip(batch.events, drafts).allSatisfy {
                $0.type == $1.type && $0.data == $1.data && $0.version == $1.version
            }
    }

    /// All batches of the log at `path` on `fileSystem`, and the reader's warning.
    static func batches(_ fileSystem: any LogFileSystem) throws -> ([LogBatch], LogProblem?) {
        let cursor = try LogReader(path: logPath, options: readOptions(fileSystem)).batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return (batches, cursor.warning)
    }
}
