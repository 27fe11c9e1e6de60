import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Replicas of one space in a temporary directory, sharing one sync folder: each device with its own clock,
/// ids, device id file and log directory (docs/decisions/0007 §1).
final class SpaceHarness {
    let root = TemporaryDirectory(prefix: "stint-space")
    var folder: String { root.appending("sync") }

    /// One device's replica.
    final class Replica {
        let name: String
        let device: DeviceID
        let clock: FixedClock
        let ids: IncrementingIDs
        let log: String
        let stateDirectory: String
        var sealThreshold: Int64 = 1 << 20
        var checkpointInterval: Int64 = 10_000
        var checkpointSpacing: Int64 = 100_000

        init(name: String, device: DeviceID, clock: FixedClock, ids: IncrementingIDs, root: TemporaryDirectory) {
            self.name = name
            self.device = device
            self.clock = clock
            self.ids = ids
            log = root.appending("\(name)/log")
            stateDirectory = root.appending("\(name)/state")
            try? FileManager.default.createDirectory(
                atPath: root.appending(name), withIntermediateDirectories: false)
        }

        var options: EngineOptions {
            var options = EngineOptions(
                clock: clock.reading, newID: ids.generator, lockTimeout: .milliseconds(200),
                sealThreshold: sealThreshold, checkpointInterval: checkpointInterval,
                checkpointSpacing: checkpointSpacing)
            let device = device
            options.deviceIdentity = DeviceIdentity(file: "\(stateDirectory)/stint/device") { device }
            return options
        }

        /// The replica as a store (not holding the lock between appends).
        func store() throws -> MergedStore {
            try MergedStore.open(log: log, holdingLock: false, options: options)
        }

        /// Appends a batch of remarks and publishes it.
        @discardableResult
        func write(_ texts: String...) throws -> StoredBatch {
            let store = try store()
            defer { store.close() }
            clock.advance(milliseconds: 1000)
            let (batch, _) = try store.appendExpectingSuccess(texts.map { remark($0, ids: ids) }, at: clock.now)
            return batch
        }

        /// Appends a batch of drafts and publishes it, without ingesting first (as a device that has not
        /// seen the latest events).
        @discardableResult
        func append(_ drafts: [EventDraft]) throws -> StoredBatch {
            let store = try store()
            defer { store.close() }
            let (batch, _) = try store.appendExpectingSuccess(drafts, at: clock.now)
            return batch
        }

        /// Ingests the sync folder.
        @discardableResult
        func sync() throws -> IngestionReport {
            let store = try store()
            defer { store.close() }
            return try store.ingest()
        }

        /// The merged history, as the store hands it out.
        func mergedEvents() throws -> [RecordedEvent] {
            let store = try store()
            defer { store.close() }
            return try store.allBatches().flatMap(\.events)
        }

        func frontier() throws -> Frontier {
            try Space.open(log: log, options: options).frontier()
        }

        func status() throws -> SpaceStatus {
            try Space.open(log: log, options: options).status()
        }

        /// The events of one log directory (the own log or a mirror), in seq order.
        func events(of path: String) throws -> [RecordedEvent] {
            let cursor = try LogReader(path: path).events()
            var events: [RecordedEvent] = []
            while let event = try cursor.next() { events.append(event) }
            return events
        }
    }

    private var next: UInt64 = 0

    /// A replica whose clock starts at `start` plus `skew` milliseconds.
    func replica(_ name: String, skew: Int64 = 0) -> Replica {
        next += 1
        let device = DeviceID(high: 0x1000_0000_0000_0000 * next, low: next)
        let clock = FixedClock(Instant(canonical: "2026-12-01T09:00:00.000Z")!.adding(milliseconds: skew))
        return Replica(
            name: name, device: device, clock: clock, ids: IncrementingIDs(startingAfter: next << 32), root: root)
    }

    /// The founder: a new log made a space.
    func found(_ replica: Replica) throws {
        try createLog(replica)
        _ = try Space.initSpace(log: replica.log, folder: folder, options: replica.options)
    }

    /// A new log for `replica`, as `stint init` makes one (not yet part of a space).
    func createLog(_ replica: Replica) throws {
        let genesis = DomainEvent.logCreated(
            LogSettings(logId: replica.ids.next(), calendar: LogCalendar(timeZone: "UTC", firstWeekday: 2)!)
        ).draft
        try LogDirectoryStore.create(
            at: replica.log, genesis: genesis, recordedAt: replica.clock.now, options: replica.options
        ).close()
    }

    /// A device joining the space.
    func join(_ replica: Replica) throws {
        _ = try Space.joinSpace(log: replica.log, folder: folder, options: replica.options)
    }

    /// The directory of a device's log in the sync folder.
    func published(_ replica: Replica) -> String {
        "\(folder)/devices/\(replica.device)"
    }

    /// Every file under the sync folder and its bytes.
    func folderBytes() throws -> [String: Data] { try folderBytes(of: folder) }

    /// Every file under `directory`, by its path relative to it.
    func folderBytes(of directory: String) throws -> [String: Data] {
        let folder = directory
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = "\(folder)/\(name)"
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// The segment files of a log directory, in order.
    static func segments(of directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl.zst") }.sorted()
    }
}

/// An event the tests can tell apart by its text (its `name`): a tag created with that name.
func remark(_ text: String, ids: IncrementingIDs) -> EventDraft {
    DomainEvent.tagCreated(tagId: ids.next(), name: text, color: "#29BF12").draft
}
