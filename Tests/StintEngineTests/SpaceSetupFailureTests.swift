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

    /// The device id file at `file` instead of the replica's own.
    private static func options(_ replica: SpaceHarness.Replica, idFile file: String) -> EngineOptions {
        var options = replica.options
        let device = replica.device
        options.deviceIdentity = DeviceIdentity(file: file) { device }
        return options
    }

    /// `sync init` of `replica`'s log with `options` is refused with a message holding `text`, and nothing
    /// under the harness's root, the log included, has changed.
    private static func expectFoundingLeavesNothing(
        _ space: SpaceHarness, _ replica: SpaceHarness.Replica, options: EngineOptions, saying text: String
    ) throws {
        let before = entries(space)
        let logBefore = try space.folderBytes(of: replica.log)
        let error = try #require(throws: StintError.self) {
            try Space.initSpace(log: replica.log, folder: space.folder, options: options)
        }
        #expect(error.category == .refused && error.message.contains(text), "\(error.message)")
        #expect(entries(space) == before)
        #expect(try space.folderBytes(of: replica.log) == logBefore)
    }

    /// The id file's directories are made, then the file cannot be (its name is too long): the directories,
    /// the folder and its `space.json` go again.
    @Test func foundingWhoseDeviceIdFileCannotBeWrittenLeavesNothing() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.createLog(a)
        let options = Self.options(a, idFile: space.root.appending("state/stint/" + String(repeating: "n", count: 256)))
        try Self.expectFoundingLeavesNothing(space, a, options: options, saying: "cannot write")
        _ = try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        #expect(FileManager.default.fileExists(atPath: "\(space.folder)/space.json"), "a later init completes")
    }

    @Test func foundingWhileTheLogIsLockedLeavesNothing() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.createLog(a)
        let holder = try LogDirectoryStore.open(at: a.log, holdingLock: true, options: a.options)
        defer { holder.close() }
        try Self.expectFoundingLeavesNothing(space, a, options: a.options, saying: "another stint process")
    }

    /// A segment file reads as a log, but a space is made of a log directory.
    @Test func foundingWithASegmentFileForTheLogIsRefusedBeforeAnythingIsWritten() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.createLog(a)
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
