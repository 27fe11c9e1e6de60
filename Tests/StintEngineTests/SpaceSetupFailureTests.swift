import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A `sync init` or `sync join` that fails leaves the disk as it found it: no sync folder, `space.json` or
/// device id file (nor the directories made for them) is left behind, and the log is unchanged.
@Suite struct SpaceSetupFailureTests {
    /// Every path under the harness's root, directories included.
    private static func entries(_ space: SpaceHarness) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: space.root.path)?.allObjects as? [String] ?? [])
    }

    /// A log made by `init`, not yet part of a space.
    private static func makeLog(_ replica: SpaceHarness.Replica) throws {
        let genesis = DomainEvent.logCreated(
            LogSettings(logId: replica.ids.next(), calendar: LogCalendar(timeZone: "UTC", firstWeekday: 2)!)
        ).draft
        try LogDirectoryStore.create(
            at: replica.log, genesis: genesis, recordedAt: replica.clock.now, options: replica.options
        ).close()
    }

    /// The device id file at `file` instead of the replica's own.
    private static func options(_ replica: SpaceHarness.Replica, idFile file: String) -> EngineOptions {
        var options = replica.options
        let device = replica.device
        options.deviceIdentity = DeviceIdentity(file: file) { device }
        return options
    }

    /// The id file's directories are made, then the file cannot be (its name is too long): the directories,
    /// the folder and its `space.json` go again.
    @Test func foundingWhoseDeviceIdFileCannotBeWrittenLeavesNothing() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try Self.makeLog(a)
        let before = Self.entries(space)
        let logBefore = try space.folderBytes(of: a.log)
        let options = Self.options(a, idFile: space.root.appending("state/stint/" + String(repeating: "n", count: 256)))
        let error = try #require(throws: StintError.self) {
            try Space.initSpace(log: a.log, folder: space.folder, options: options)
        }
        #expect(error.category == .refused && error.message.contains("cannot write"), "\(error.message)")
        #expect(Self.entries(space) == before)
        #expect(try space.folderBytes(of: a.log) == logBefore)
        _ = try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        #expect(FileManager.default.fileExists(atPath: "\(space.folder)/space.json"), "a later init completes")
    }

    @Test func foundingWhileTheLogIsLockedLeavesNothing() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try Self.makeLog(a)
        let before = Self.entries(space)
        let logBefore = try space.folderBytes(of: a.log)
        let holder = try LogDirectoryStore.open(at: a.log, holdingLock: true, options: a.options)
        defer { holder.close() }
        let error = try #require(throws: StintError.self) {
            try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        }
        #expect(error.message.contains("another stint process"), "\(error.message)")
        #expect(Self.entries(space) == before)
        #expect(try space.folderBytes(of: a.log) == logBefore)
    }

    /// A segment file reads as a log, but a space is made of a log directory.
    @Test func foundingWithASegmentFileForTheLogIsRefusedBeforeAnythingIsWritten() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try Self.makeLog(a)
        let segment = try #require(try SpaceHarness.segments(of: a.log).first)
        let before = Self.entries(space)
        let error = try #require(throws: StintError.self) {
            try Space.initSpace(log: "\(a.log)/\(segment)", folder: space.folder, options: a.options)
        }
        #expect(error.category == .refused && error.message.contains("not a log directory"), "\(error.message)")
        #expect(Self.entries(space) == before)
    }

    @Test func joiningWhereNoLogCanBeCreatedLeavesNoDeviceIdFile() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try FileManager.default.createDirectory(atPath: b.log, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(b.log)/notes.txt"))
        let before = Self.entries(space)
        let error = try #require(throws: StintError.self) {
            try Space.joinSpace(log: b.log, folder: space.folder, options: b.options)
        }
        #expect(error.message.contains("not empty"), "\(error.message)")
        #expect(Self.entries(space) == before)
        #expect(!FileManager.default.fileExists(atPath: b.stateDirectory))
    }
}
