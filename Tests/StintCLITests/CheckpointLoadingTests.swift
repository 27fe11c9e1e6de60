import Foundation
import StintCore
import StintEngine
import StintLog
import Synchronization
import TestSupport
import Testing

/// Reads that start from checkpoints give exactly the state of a fold from event 1, and checkpoints that
/// are not of the log are discarded.
@Suite struct CheckpointLoadingTests {
    /// A log of `commands` start/stop commands with comments, one minute apart.
    static func makeLog(at path: String, commands: Int, ids: IncrementingIDs) throws -> EngineOptions {
        let now = Mutex(Instant(milliseconds: 1_795_957_629_000))
        var options = EngineOptions(
            clock: { now.withLock { $0 } }, newID: ids.generator, checkpointInterval: 7, checkpointSpacing: 25)
        let log = try TimeLog.create(at: path, timeZone: "Europe/Berlin", firstWeekday: 2, options: options)
        defer { log.close() }
        for index in 0..<commands {
            now.withLock { $0 = $0.adding(milliseconds: 60_000) }
            if index % 2 == 0 {
                try log.execute(.start(tag: .name("t\(index % 5)"), comment: index % 3 == 0 ? "n\(index)" : nil))
            } else {
                try log.execute(.stop())
            }
        }
        options.clock = { now.withLock { $0 } }
        return options
    }

    static func coldState(_ path: String, at point: ReadPoint, options: EngineOptions) throws -> LogState {
        var cold = options
        cold.writesCheckpoints = false
        let events = try LogReader(path: path).events()
        var all: [RecordedEvent] = []
        while let event = try events.next() { all.append(event) }
        switch point {
        case .seq(let n): return try LogState.fold(all.prefix(Int(n)))
        default: return try LogState.fold(all)
        }
    }

    @Test func readsFromCheckpointsGiveTheStateOfAFoldFromTheStart() throws {
        let directory = TemporaryDirectory(prefix: "checkpoint-loading")
        let path = directory.appending("log")
        let options = try Self.makeLog(at: path, commands: 120, ids: IncrementingIDs())
        let reader = try LogReader(path: path)
        // The first read folds everything and leaves checkpoints every 25 events and at the end.
        let latest = try LogView.load(LogSource(reader: reader), at: .latest, options: options)
        #expect(latest.state == (try Self.coldState(path, at: .latest, options: options)))
        let seqs = CheckpointStore(logDirectory: path).seqs()
        #expect(seqs.contains(25) || seqs.contains(26))
        #expect(seqs.last == latest.state.lastSeq)
        for n: Int64 in [1, 2, 24, 25, 26, 27, 60, 99, 100, latest.state.lastSeq] {
            let view = try LogView.load(LogSource(reader: reader), at: .seq(n), options: options)
            #expect(view.state == (try Self.coldState(path, at: .seq(n), options: options)), "seq \(n)")
        }
        // Reading again from the checkpoints gives the same latest state.
        #expect(try LogView.load(LogSource(reader: reader), at: .latest, options: options).state == latest.state)
    }

    @Test func aCheckpointOfAnotherLogIsDiscarded() throws {
        let directory = TemporaryDirectory(prefix: "checkpoint-foreign")
        let first = directory.appending("first")
        let second = directory.appending("second")
        let options = try Self.makeLog(at: first, commands: 40, ids: IncrementingIDs())
        _ = try Self.makeLog(at: second, commands: 40, ids: IncrementingIDs(startingAfter: 1000))
        _ = try LogView.load(try LogSource.open(path: first), at: .latest, options: options)
        let firstStore = CheckpointStore(logDirectory: first)
        let foreign = try #require(firstStore.seqs().last)
        try FileManager.default.createDirectory(atPath: second + "/checkpoints", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: firstStore.directory + "/" + String(format: "%020lld", foreign) + ".ckpt",
            toPath: second + "/checkpoints/" + String(format: "%020lld", foreign) + ".ckpt")
        var readOnly = options
        readOnly.writesCheckpoints = false
        let view = try LogView.load(try LogSource.open(path: second), at: .latest, options: readOnly)
        #expect(view.state == (try Self.coldState(second, at: .latest, options: options)))
        #expect(!CheckpointStore(logDirectory: second).seqs().contains(foreign))
    }
}
