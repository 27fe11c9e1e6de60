import Foundation
import Glibc
import StintCore
import TestSupport
import Testing

/// The read models are never a silent source of truth (issue 27, docs/read-models.md): whatever happened to
/// `read-models.sqlite` — deleted, truncated, a page overwritten, read-only, another log's, another schema's, a
/// directory in its place — every read prints the bytes a fold of the log prints (or refuses clearly, exit
/// 65), the next command is recorded in the log, and reads after it print the fold's bytes again.
@Suite struct ReadModelDamageTests {
    static let now = "2026-11-03T15:00:00.000Z"

    /// What a user reads: each goes through the read models when they hold.
    static let reads: [[String]] = [
        ["status"], ["report", "--all", "--by", "tag", "--json"], ["export", "json"], ["export", "csv"], ["tags"],
        ["snapshot"], ["log", "--all"],
    ]

    enum Disturbance: String, CaseIterable, CustomTestStringConvertible {
        case deleted, emptied, truncatedHalfway, pageOverwritten, schemaOlder, schemaNewer, anotherLogsShorter
        case anotherLogsAsLong, directoryInItsPlace

        var testDescription: String { rawValue }
    }

    static func modelsPath(_ log: String) -> String { log + "/read-models.sqlite" }

    /// Changes the read models of `log` as `disturbance` says.
    static func disturb(_ log: String, _ disturbance: Disturbance) throws {
        let path = modelsPath(log)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count >= 3 * 4096, "the sample's read models hold several pages")
        switch disturbance {
        case .deleted:
            try FileManager.default.removeItem(atPath: path)
            return
        case .emptied:
            bytes = []
        case .truncatedHalfway:
            bytes = Array(bytes.prefix(bytes.count / 2))
        case .pageOverwritten:
            // The third page (SQLite's default page size is 4096) with seeded noise.
            var generator = SplitMix64(seed: 27)
            for index in (2 * 4096)..<(3 * 4096) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        case .schemaOlder, .schemaNewer:
            // `PRAGMA user_version`: four bytes at offset 60 of the database header, big-endian.
            let version: UInt32 = disturbance == .schemaOlder ? 1 : 999
            for index in 0..<4 { bytes[60 + index] = UInt8(truncatingIfNeeded: version >> (24 - 8 * UInt32(index))) }
        case .anotherLogsShorter, .anotherLogsAsLong:
            let other = try ImportHarness(now: disturbance == .anotherLogsAsLong ? "2026-11-03T15:00:07.000Z" : now)
            if disturbance == .anotherLogsAsLong {
                // The same commands at another instant: as many events, another chain.
                try ExportCLITests.populate(other)
            } else {
                other.succeed(["track", "2026-11-02T09:00", "2026-11-02T10:00", "elsewhere"])
            }
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: modelsPath(other.logPath))))
        case .directoryInItsPlace:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Every read on `log` prints what it prints on a fold of the log, or refuses with exit 65 and says why.
    static func expectTheFoldsBytes(
        _ log: String, in directory: TemporaryDirectory, run: (String, [String]) -> (Int32, String, String),
        _ context: String, owner: UInt32? = nil
    ) throws {
        let fold = try LogFiles.segmentsOnlyCopy(of: log, in: directory, owner: owner)
        for read in reads {
            let expected = run(fold, read)
            #expect(expected.0 == 0, "\(context): \(read) on the fold: \(expected.2)")
            let actual = run(log, read)
            if actual.0 == 65 {
                #expect(actual.2.contains("error:") && actual.2.contains("read-models"), "\(context): \(read)")
            } else {
                #expect(actual.0 == 0, "\(context): \(read): \(actual.2)")
                #expect(actual.1 == expected.1, "\(context): \(read) printed other bytes than a fold of the log")
            }
        }
    }

    @Test(arguments: Disturbance.allCases)
    func readsAndTheNextCommandGiveTheFoldsBytes(_ disturbance: Disturbance) throws {
        let log = try ExportCLITests.sampleLog()
        try Self.disturb(log.logPath, disturbance)
        let segments = try LogFiles.files(of: log.logPath) { $0.hasSuffix(".jsonl.zst") }
        func run(_ path: String, _ arguments: [String]) -> (Int32, String, String) {
            let result = CLIRunner(log: path, now: Self.now).run(arguments)
            return (result.status, result.stdout, result.stderr)
        }
        try Self.expectTheFoldsBytes(log.logPath, in: log.directory, run: run, "\(disturbance), before a command")
        #expect(
            try LogFiles.files(of: log.logPath) { $0.hasSuffix(".jsonl.zst") } == segments, "a read changed the log")

        let tracked = log.run(["track", "2026-11-02T17:00", "2026-11-02T18:00", "after", "--comment", "recorded"])
        #expect(tracked.status == 0, "\(disturbance): \(tracked.stderr)")
        try Self.expectTheFoldsBytes(log.logPath, in: log.directory, run: run, "\(disturbance), after a command")
        let exported = log.succeed(["export", "csv"])
        #expect(exported.contains("recorded"), "\(disturbance): the command's record is not read back")
        #expect(log.run(["verify"]).status == 0)
    }

    /// A read-only `read-models.sqlite`, and a read-only log directory: run as an unprivileged user (as root, the
    /// permission bits stop nothing), reads print the fold's bytes and a command is recorded or refused clearly.
    @Test(arguments: ["file", "directory"])
    func readOnlyModelsGiveTheFoldsBytes(_ what: String) throws {
        let binary = try StintProcess.requireBinary()
        let log = try ExportCLITests.sampleLog()
        let asUser: [String]
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                Issue.record("running as root needs /usr/bin/setpriv (util-linux) to drop to another user")
                return
            }
            // The whole temporary directory becomes the unprivileged user's, as a user's own log is.
            try LogFiles.chownRecursively(log.directory.path, to: 65534)
            asUser = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path]
        } else {
            asUser = []
        }
        func run(_ path: String, _ arguments: [String]) -> (Int32, String, String) {
            let environment = ["STINT_LOG": path, "STINT_NOW": Self.now, "TZ": "UTC", "HOME": "/nonexistent"]
            let output =
                asUser.isEmpty
                ? try? StintProcess.run(binary, arguments, environment: environment)
                : try? StintProcess.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"), asUser + arguments, environment: environment)
            guard let output else { return (-1, "", "could not run \(binary.path)") }
            return (output.status, output.text, output.errorText)
        }
        let models = Self.modelsPath(log.logPath)
        let target = what == "file" ? models : log.logPath
        try FileManager.default.setAttributes([.posixPermissions: what == "file" ? 0o444 : 0o555], ofItemAtPath: target)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: log.logPath) }
        let owner: UInt32? = asUser.isEmpty ? nil : 65534
        try Self.expectTheFoldsBytes(log.logPath, in: log.directory, run: run, "read-only \(what)", owner: owner)
        // The log's own files stay writable: the command is recorded, whatever the read models could not do.
        let tracked = run(log.logPath, ["track", "2026-11-02T17:00", "2026-11-02T18:00", "after", "--comment", "seen"])
        #expect(tracked.0 == 0, "read-only \(what): \(tracked)")
        #expect(run(log.logPath, ["export", "csv"]).1.contains("seen"), "read-only \(what)")
        // The models could not be written, and the command said so on stderr (proof it ran without privileges).
        #expect(tracked.2.contains("note: the read models of"), "read-only \(what): \(tracked.2)")
        try Self.expectTheFoldsBytes(
            log.logPath, in: log.directory, run: run, "read-only \(what), after a command", owner: owner)
    }
}
