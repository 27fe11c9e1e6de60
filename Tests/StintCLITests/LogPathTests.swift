import Foundation
import TestSupport
import Testing

/// Short log paths, `.` and trailing slashes, given to the real `stint` in a directory of its own (a crash
/// in a path routine must not take the test process with it).
@Suite struct LogPathTests {
    static let environment = [
        "STINT_NOW": "2026-11-29T13:00:00Z", "SWIFT_BACKTRACE": "enable=no", "HOME": "/nonexistent",
    ]

    static func stint(_ arguments: [String], in directory: String) throws -> StintProcess.Output {
        try StintProcess.run(
            StintProcess.requireBinary(), arguments, environment: environment,
            directory: URL(fileURLWithPath: directory))
    }

    /// Every name below `directory`, with the bytes of each file.
    static func listing(_ directory: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            result[name] = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
        }
        return result
    }

    @Test(arguments: ["M", "a/", "é", "~", "x/y/", "./b", "c//", "deep/er/log"])
    func initCreatesALogAtAShortPathOrOneWithATrailingSlash(path: String) throws {
        let directory = TemporaryDirectory()
        let created = try Self.stint(["--log", path, "init", "--tz", "UTC"], in: directory.path)
        #expect(created.status == 0, "\(created.errorText)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/" + path + "/format"))
        let started = try Self.stint(["--log", path, "start", "writing"], in: directory.path)
        #expect(started.status == 0, "\(started.errorText)")
        let verified = try Self.stint(["--log", path, "verify"], in: directory.path)
        #expect(verified.status == 0 && verified.text.hasPrefix("intact: 3 events"), "\(verified.errorText)")
    }

    @Test(arguments: [".", "./", ".//"])
    func initCreatesTheLogInTheCurrentDirectoryWhenItIsEmpty(path: String) throws {
        let directory = TemporaryDirectory()
        let created = try Self.stint(["--log", path, "init", "--tz", "UTC"], in: directory.path)
        #expect(created.status == 0, "\(created.errorText)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/format"))
        let verified = try Self.stint(["--log", ".", "verify"], in: directory.path)
        #expect(verified.status == 0, "\(verified.errorText)")
    }
}

/// A refused `init` leaves the directory it was given as it found it.
@Suite struct RefusedInitTests {
    @Test(arguments: [".", "./", "full", "full/"])
    func aDirectoryThatIsNotEmptyIsRefusedWithoutALockFileLeftInIt(path: String) throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.appending("full"), withIntermediateDirectories: true)
        let inside = path.hasPrefix(".") ? directory.path : directory.appending("full")
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: inside + "/notes.txt"))
        let before = LogPathTests.listing(directory.path)
        let refused = try LogPathTests.stint(["--log", path, "init", "--tz", "UTC"], in: directory.path)
        #expect(refused.status == 1)
        #expect(refused.errorText.hasPrefix("error: cannot create a log at "), "\(refused.errorText)")
        #expect(LogPathTests.listing(directory.path) == before)
    }

    @Test func anUnknownZoneIsRefusedBeforeTheLogsParentDirectoriesAreCreated() throws {
        let directory = TemporaryDirectory()
        let refused = try LogPathTests.stint(
            ["--log", "new/deeper/log", "init", "--tz", "Mars/Base"], in: directory.path)
        #expect(refused.status == 64)
        #expect(refused.errorText.hasPrefix("error: 'Mars/Base' is not an IANA time zone"), "\(refused.errorText)")
        #expect(LogPathTests.listing(directory.path).isEmpty)
    }
}

/// A log path the system refuses part of the way down: the directories made on the way are removed.
@Suite struct UncreatableLogPathTests {
    @Test(arguments: [
        "new/deeper/" + String(repeating: "n", count: 256),
        String(repeating: "a/", count: 2100),
    ])
    func initRemovesTheDirectoriesItMadeWhenTheLogCannotBeCreated(path: String) throws {
        let directory = TemporaryDirectory()
        let refused = try LogPathTests.stint(["--log", path, "init", "--tz", "UTC"], in: directory.path)
        #expect(refused.status == 1)
        #expect(refused.errorText.hasPrefix("error: "))
        #expect(LogPathTests.listing(directory.path).isEmpty)
    }
}
