import Foundation
import TestSupport
import Testing

/// Time records are personal: a new log directory and every file in it (segments, lock, checkpoints, the
/// read models) are readable by their owner only, whatever the umask; `verify` warns about a log others
/// can read.
@Suite struct PermissionTests {
    /// Runs `stint arguments` under `umask` in a shell, as a user would.
    static func run(_ arguments: [String], umask: String, log: String) throws -> StintProcess.Output {
        let binary = try StintProcess.requireBinary()
        return try StintProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "umask \(umask); exec \"$0\" \"$@\"", binary.path] + arguments,
            environment: ["STINT_LOG": log, "STINT_NOW": "2026-11-29T09:00:00Z", "TZ": "UTC"])
    }

    /// Every entry under `path`, with its permission bits.
    static func modes(under path: String) throws -> [String: Int] {
        var modes: [String: Int] = [:]
        let files = FileManager.default
        let entries = try files.subpathsOfDirectory(atPath: path)
        for entry in [""] + entries {
            let attributes = try files.attributesOfItem(atPath: entry.isEmpty ? path : path + "/" + entry)
            modes[entry.isEmpty ? "." : entry] = (attributes[.posixPermissions] as? Int) ?? -1
        }
        return modes
    }

    @Test(arguments: ["000", "022", "002"])
    func aNewLogIsItsOwnersOnly(umask: String) throws {
        let directory = TemporaryDirectory()
        let log = directory.appending("data/stint/log")
        for arguments in [
            ["init", "--tz", "UTC"], ["track", "07:00", "08:00", "writing"], ["start", "email"], ["status"],
            ["verify"],
        ] {
            let result = try Self.run(arguments, umask: umask, log: log)
            #expect(result.status == 0, "\(arguments): \(result.errorText)")
        }
        let modes = try Self.modes(under: log)
        #expect(modes.keys.contains("read-models.sqlite"), "\(modes.keys.sorted())")
        for (entry, mode) in modes {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: log + "/" + entry, isDirectory: &isDirectory)
            #expect(mode == (isDirectory.boolValue ? 0o700 : 0o600), "\(entry): \(String(mode, radix: 8))")
        }
        // The directories init created for it too.
        let parent = try FileManager.default.attributesOfItem(atPath: directory.appending("data/stint"))
        #expect(parent[.posixPermissions] as? Int == 0o700)
    }

    @Test func verifyWarnsAboutALogOthersCanRead() throws {
        let directory = TemporaryDirectory()
        let log = directory.appending("log")
        #expect(try Self.run(["init", "--tz", "UTC"], umask: "077", log: log).status == 0)
        let quiet = try Self.run(["verify"], umask: "077", log: log)
        #expect(quiet.status == 0)
        #expect(quiet.errorText.isEmpty, "\(quiet.errorText)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: log)
        let warned = try Self.run(["-q", "verify"], umask: "077", log: log)
        #expect(warned.status == 0)
        #expect(warned.errorText.hasPrefix("warning: the log directory \(log) (mode 755) can be read by other users"))
        #expect(warned.errorText.contains("chmod -R go-rwx"))
    }
}
