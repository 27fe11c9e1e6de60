import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The device id file, `space.json` and the refusals of `sync init` and `sync join` (docs/decisions/0007 §1,
/// §4).
@Suite struct SpaceSetupTests {
    @Test func theDeviceIdFileIsCreatedOnceWithMode0600() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let identity = try #require(a.options.deviceIdentity)
        #expect(try identity.stored(options: a.options) == nil)
        #expect(try identity.storedOrCreated(options: a.options) == a.device)
        #expect(FileManager.default.contents(atPath: identity.file) == Data("\(a.device)\n".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: identity.file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let other = DeviceIdentity(file: identity.file) { DeviceID(high: 1, low: 1) }
        #expect(try other.storedOrCreated(options: a.options) == a.device, "an existing id is kept")
        #expect(!FileManager.default.fileExists(atPath: identity.file + ".tmp"))
    }

    @Test(arguments: ["", "3f2a9c4e\n", "3F2A9C4E0B1D4C6E9F005A7B8C9D0E1F\n", "3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f"])
    func aDeviceIdFileThatDoesNotParseIsDamage(content: String) throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.found(a)
        let identity = try #require(a.options.deviceIdentity)
        try Data(content.utf8).write(to: URL(fileURLWithPath: identity.file))
        let error = try #require(throws: StintError.self) { try Space.open(log: a.log, options: a.options) }
        #expect(error.category == .damaged)
        #expect(error.message.contains("delete it"))
        #expect(throws: StintError.self) { try a.sync() }
    }

    /// `sync init` into a folder that holds other files (a home directory, `/`) is refused before anything
    /// changes; a sync tool's hidden files (Syncthing's `.stfolder`) are fine.
    @Test func foundingInAFolderThatHoldsOtherFilesIsRefused() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.createLog(a)
        try FileManager.default.createDirectory(atPath: space.folder, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(space.folder)/notes.txt"))
        let logBefore = try space.folderBytes(of: a.log)
        let error = try #require(throws: StintError.self) {
            try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        }
        #expect(error.category == .refused && error.message.contains("notes.txt"), "\(error.message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: space.folder) == ["notes.txt"])
        #expect(try space.folderBytes(of: a.log) == logBefore, "the log changed")
        #expect(!FileManager.default.fileExists(atPath: try #require(a.options.deviceIdentity).file))
        try FileManager.default.removeItem(atPath: "\(space.folder)/notes.txt")
        try Data().write(to: URL(fileURLWithPath: "\(space.folder)/.stfolder"))
        _ = try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        #expect(FileManager.default.fileExists(atPath: "\(space.folder)/space.json"))
    }

    @Test func aReplicaWrittenByAnotherDeviceThanTheIdFilesIsRefused() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.found(a)
        try a.write("a1")
        let identity = try #require(a.options.deviceIdentity)
        try Data("\(DeviceID(high: 9, low: 9))\n".utf8).write(to: URL(fileURLWithPath: identity.file))
        let error = try #require(throws: StintError.self) { try Space.open(log: a.log, options: a.options) }
        #expect(error.category == .refused && error.message.contains("was written by device \(a.device)"))
        try FileManager.default.removeItem(atPath: identity.file)
        #expect(throws: StintError.self, "no id file") { try TimeLog.open(at: a.log, options: a.options) }
        #expect(throws: StintError.self, "a replica's own log is not written as a single log's") {
            try LogDirectoryStore.open(at: a.log, holdingLock: true, options: a.options)
        }
        // With its id file back, the one opener opens the replica as one: its commands are this device's.
        try Data("\(a.device)\n".utf8).write(to: URL(fileURLWithPath: identity.file))
        let log = try TimeLog.open(at: a.log, options: a.options)
        defer { log.close() }
        a.clock.advance(milliseconds: 60_000)
        let started = try log.execute(.start(tag: .name("code")))
        #expect(!started.events.isEmpty && started.events.allSatisfy { $0.device == a.device && $0.hlc != nil })
    }

    @Test func spaceJsonHoldsTheFoundersSettingsInCanonicalForm() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.found(a)
        let bytes = try #require(FileManager.default.contents(atPath: "\(space.folder)/space.json"))
        let logId = try LogSource.open(path: a.log).settings().logId
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "{\"space\":1,\"spaceId\":\"\(logId)\",\"timeZone\":\"UTC\",\"firstWeekday\":2}")
        #expect(try SpaceDescription(bytes: Array(bytes), file: "space.json").spaceId == logId)
        #expect(throws: StintError.self, "not canonical") {
            try SpaceDescription(bytes: Array(String(decoding: bytes, as: UTF8.self).utf8) + [0x0A], file: "x")
        }
        #expect(FileManager.default.contents(atPath: "\(a.log)/space") == Data("\(space.folder)\n".utf8))
        #expect(FileManager.default.contents(atPath: "\(a.log)/format") == Data("stint-log 2\n".utf8))
        // Running it again completes nothing new and changes nothing.
        _ = try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        #expect(FileManager.default.contents(atPath: "\(space.folder)/space.json") == bytes)
    }

    @Test func aFolderHoldingAnotherSpaceIsRefusedOnEveryIngestion() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        try a.write("a1")
        let other = SpaceHarness()
        _ = other.replica("unused")  // so that c's ids, its space's id among them, are not a's
        let c = other.replica("c")
        try other.found(c)
        try FileManager.default.removeItem(atPath: "\(space.folder)/space.json")
        try FileManager.default.copyItem(atPath: "\(other.folder)/space.json", toPath: "\(space.folder)/space.json")

        let error = try #require(throws: StintError.self) { try b.sync() }
        #expect(error.category == .damaged)
        #expect(error.message.contains("holds another space"))
        #expect(try b.events(of: "\(b.log)/mirrors/\(a.device)").count == 1, "nothing was ingested")
        #expect(throws: StintError.self) { try b.status() }
        #expect(throws: StintError.self, "a founder does not take over another space's folder") {
            try Space.initSpace(log: c.log, folder: space.folder, options: c.options)
        }
    }

    @Test func joiningIsRefusedForADeviceWithALogOrAlreadyInTheSpace() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        let own = try #require(throws: StintError.self) {
            try Space.joinSpace(log: a.log, folder: space.folder, options: b.options)
        }
        #expect(own.category == .refused && own.message.contains("already"))
        let again = try #require(throws: StintError.self) {
            try Space.joinSpace(log: space.root.appending("a/second"), folder: space.folder, options: a.options)
        }
        #expect(again.message.contains("already writes to the space"))
        #expect(throws: StintError.self, "a relative folder") {
            try Space.joinSpace(log: b.log, folder: "sync", options: b.options)
        }
    }

    @Test func aJoiningDevicesFirstEventSortsAfterEverythingItIngested() throws {
        let space = SpaceHarness()
        let a = space.replica("a", skew: 86_400_000)
        let b = space.replica("b")
        try space.found(a)
        try a.write("a1")
        try space.join(b)
        let first = try #require(try b.events(of: b.log).first)
        let last = try #require(try a.events(of: a.log).last)
        #expect(try #require(first.hlc) > (try #require(last.hlc)), "b's clock is a day behind a's")
        let own = try b.events(of: b.log)
        #expect(own.map(\.type) == ["device.joined", "sync.ingested"], "joined, then the ingestion of the space")
        #expect(own[1].data["from"]?.stringValue == a.device.description)
        #expect(try b.mergedEvents().suffix(2).map(\.seq) == [1, 2], "both sort after a's events")
        #expect(Set(try b.frontier().heads.keys) == [a.device, b.device])
    }
}
