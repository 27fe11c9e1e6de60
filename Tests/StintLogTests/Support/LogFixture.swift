import Foundation
import StintCore
import TestSupport

@_spi(FaultInjection) @testable import StintLog

/// A log in a temporary directory with a fixed clock, small thresholds and a notice recorder.
final class LogFixture: @unchecked Sendable {
    let directory = ScratchDirectory(prefix: "stint-log")
    let clock = FixedClock("2026-11-29T13:07:09.123Z")
    let notices = NoticeRecorder()
    var sealThreshold: Int64
    var sealedFrameTarget: Int
    var readChunkSize = 4096
    var lockTimeout: Duration = .seconds(10)
    var fileSystem: any LogFileSystem = POSIXFileSystem()
    /// The device the writer writes as (log format 2); nil for format 1.
    var device: DeviceID?

    init(sealThreshold: Int64 = 1 << 20, sealedFrameTarget: Int = 64 << 10) {
        self.sealThreshold = sealThreshold
        self.sealedFrameTarget = sealedFrameTarget
    }

    /// The log directory (not created until ``create()``).
    var path: String { directory.appending("log") }

    var configuration: LogConfiguration {
        var configuration = LogConfiguration(
            clock: clock.reading, sealThreshold: sealThreshold, sealedFrameTarget: sealedFrameTarget,
            lockTimeout: lockTimeout, onNotice: notices.record, device: device)
        configuration.readChunkSize = readChunkSize
        configuration.fileSystem = fileSystem
        return configuration
    }

    var readOptions: LogReader.Options {
        var options = LogReader.Options(readChunkSize: readChunkSize)
        options.fileSystem = fileSystem
        return options
    }

    static let settings = EventDraft(
        type: "log.created", version: 1,
        data: .object([
            "logId": .string("00000000-0000-4000-8000-000000000001"), "timeZone": .string("Europe/Paris"),
            "firstWeekday": .int(2), "format": .int(1),
        ]))

    /// A draft of about 200 bytes, like a real domain event, numbered `n`.
    static func draft(_ n: Int, type: String = "timer.started") -> EventDraft {
        EventDraft(
            type: type, version: 1,
            data: .object([
                "recordId": .string(String(format: "00000000-0000-4000-8000-%012d", n)),
                "tagIds": .array([.string("00000000-0000-4000-8000-000000000abc")]),
                "note": .string("working on item \(n) of the backlog"), "n": .int(Int64(n)),
            ]))
    }

    func create() throws -> LogWriter {
        try LogWriter.create(at: path, settingsEvent: LogFixture.settings, configuration: configuration)
    }

    func open() throws -> LogWriter {
        try LogWriter.open(at: path, configuration: configuration)
    }

    func reader() throws -> LogReader {
        try LogReader(path: path, options: readOptions)
    }

    /// Every event of the log, read from the start, and the reader's warning.
    func readAll(from seq: Int64 = 1) throws -> (events: [RecordedEvent], warning: LogProblem?) {
        let cursor = try reader().events(from: seq)
        var events: [RecordedEvent] = []
        while let event = try cursor.next() { events.append(event) }
        return (events, cursor.warning)
    }

    /// The segment file names, in order.
    func segmentNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jsonl.zst") }.sorted()
    }

    func allFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func bytes(of name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory.appending("log/\(name)"))))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: directory.appending("log/\(name)")))
    }

    /// All files of the log and their bytes (to show that something changed nothing).
    func snapshot() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try allFileNames() where name != "checkpoints" { files[name] = try bytes(of: name) }
        return files
    }

    /// Puts back every file of `snapshot` (from ``snapshot()``) as it was, and removes the files added since
    /// (`checkpoints` aside, as ``snapshot()`` leaves it out).
    func restore(_ snapshot: [String: [UInt8]]) throws {
        for name in try allFileNames() where snapshot[name] == nil && name != "checkpoints" {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
        for (name, bytes) in snapshot where (try? self.bytes(of: name)) != bytes { try write(bytes, to: name) }
    }

    /// Writes a log of `batches` batches after the settings event: batch i holds `sizes(i)` events.
    @discardableResult
    /// `afterEach` runs after the creation and after each batch is acknowledged.
    func populate(
        batches: Int, sizes: (Int) -> Int = { _ in 1 }, afterEach: () throws -> Void = {}
    ) throws -> [RecordedEvent] {
        let writer = try create()
        var events = [writer.lastEvent!]
        try afterEach()
        var n = 0
        for batch in 0..<batches {
            clock.advance(milliseconds: 1500)
            let drafts = (0..<sizes(batch)).map { _ -> EventDraft in
                n += 1
                return LogFixture.draft(n)
            }
            events += try writer.append(drafts)
            try afterEach()
        }
        writer.close()
        return events
    }
}

/// Collects notices from a writer.
final class NoticeRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [LogNotice] = []

    var notices: [LogNotice] { lock.withLock { storage } }

    var record: @Sendable (LogNotice) -> Void {
        { notice in self.lock.withLock { self.storage.append(notice) } }
    }
}

extension LogFixture {
    /// A log of `device` with `count` batches of 1 to 3 events, sealed at `sealThreshold`, and its batches as
    /// a reader hands them out (what a mirror of that device is written from).
    static func deviceBatches(of device: DeviceID, count: Int, sealThreshold: Int64, sealedFrameTarget: Int)
        throws -> (fixture: LogFixture, batches: [LogBatch])
    {
        let fixture = LogFixture(sealThreshold: sealThreshold, sealedFrameTarget: sealedFrameTarget)
        fixture.device = device
        let writer = try fixture.create()
        for index in 0..<count {
            fixture.clock.advance(milliseconds: 1000)
            _ = try writer.append((0...(index % 3)).map { LogFixture.draft(index * 3 + $0) })
        }
        writer.close()
        let cursor = try fixture.reader().batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return (fixture, batches)
    }
}
