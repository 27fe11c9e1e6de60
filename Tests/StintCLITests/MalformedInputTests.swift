import Foundation
@_spi(FaultInjection) import StintCLI
import StintCore
@_spi(FaultInjection) import StintEngine
@_spi(FaultInjection) import StintLog
import TestSupport
import Testing

/// Malformed input, table-driven: each case gets its documented exit status, a message on stderr that
/// starts with `error:` (what is wrong and how to fix it; the text itself is not matched), nothing on
/// stdout, and leaves every file of the log byte-identical.
@Suite struct MalformedInputTests {
    /// Where the case's log comes from.
    enum Setup: Sendable {
        /// The standard log (see ``standardLog(in:)``).
        case standard
        /// The standard log, with `format` replaced by these bytes.
        case format(String)
        /// A regular file (holding `hello`) where the log should be.
        case regularFile
        /// An empty directory.
        case emptyDirectory
        /// No log at all.
        case missing
        /// The standard log's events as a `.jsonl` file, with one byte of event 3 replaced.
        case jsonl(replacing: String, with: [UInt8])
        /// The standard log, its segment not readable (EACCES).
        case unreadable
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var setup = Setup.standard
        var environment: [String: String] = [:]
        var stdin: [UInt8] = []

        var testDescription: String { name }

        /// `verify` prints its report of the problems on stdout.
        var printsReport: Bool { arguments.contains("verify") }
    }

    static let longName = String(repeating: "a", count: 65)
    static let oversizedFrame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xA4, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00]

    static let cases: [Case] = [
        // Unknown verbs and options, missing values and arguments.
        Case(name: "unknown verb", arguments: ["frobnicate"], status: 64),
        Case(name: "misspelled verb", arguments: ["statsu"], status: 64),
        Case(name: "unknown subverb", arguments: ["tag", "frob"], status: 64),
        Case(name: "group without subverb", arguments: ["tag"], status: 64),
        Case(name: "unknown option", arguments: ["start", "--bogus"], status: 64),
        Case(name: "unknown short option", arguments: ["stop", "-x"], status: 64),
        Case(name: "option without value", arguments: ["start", "--comment"], status: 64),
        Case(name: "global option without value", arguments: ["--log"], status: 64),
        Case(name: "empty log path", arguments: ["--log", "", "status"], status: 64),
        Case(name: "bad color", arguments: ["status", "--color", "purple"], status: 64),
        Case(name: "missing END", arguments: ["track", "09:00"], status: 64),
        Case(name: "missing START and END", arguments: ["track"], status: 64),
        Case(name: "missing record id", arguments: ["edit"], status: 64),
        Case(name: "missing new tag name", arguments: ["tag", "rename", "writing"], status: 64),
        Case(name: "extra argument", arguments: ["start", "a", "b"], status: 64),
        Case(
            name: "TAG and --tag-id", arguments: ["start", "a", "--tag-id", "00000000-0000-4000-8000-000000000001"],
            status: 64),
        Case(name: "--tag-id not a UUID", arguments: ["start", "--tag-id", "nope"], status: 64),
        Case(name: "ids and --all", arguments: ["stop", "0000", "--all"], status: 64),
        Case(name: "--seq 0", arguments: ["snapshot", "--seq", "0"], status: 64),
        Case(name: "--seq not a number", arguments: ["snapshot", "--seq", "three"], status: 64),
        Case(name: "--at and --seq", arguments: ["snapshot", "--at", "09:00", "--seq", "2"], status: 64),
        Case(name: "--seq past the end", arguments: ["snapshot", "--seq", "999"], status: 1),
        Case(name: "--at before the log", arguments: ["status", "--at", "2020-01-01T00:00Z"], status: 1),
        Case(name: "bad --expect-head", arguments: ["verify", "--expect-head", "abc"], status: 64),
        Case(name: "--jobs 0", arguments: ["verify", "--jobs", "0"], status: 64),
        Case(name: "--jobs not a number", arguments: ["verify", "--jobs", "two"], status: 64),
        Case(name: "--jobs negative", arguments: ["verify", "--jobs", "-2"], status: 64),
        Case(name: "bad first weekday", arguments: ["init", "--first-weekday", "9"], status: 64),
        Case(name: "unknown time zone", arguments: ["init", "--tz", "Mars/Olympus"], status: 64),
        Case(name: "init over a log", arguments: ["init"], status: 1),
        Case(name: "mutation on standard input", arguments: ["--log", "-", "start"], status: 64),
        Case(name: "bad STINT_NOW", arguments: ["status"], status: 64, environment: ["STINT_NOW": "noon"]),
        Case(name: "bad STINT_ID_SEED", arguments: ["start"], status: 64, environment: ["STINT_ID_SEED": "-1"]),

        // Times that are not times, or do not exist.
        Case(name: "hour 25", arguments: ["start", "--at", "25:00"], status: 64),
        Case(name: "minute 60", arguments: ["start", "--at", "9:60"], status: 64),
        Case(name: "yesterday with a word", arguments: ["start", "--at", "yesterday noon"], status: 64),
        Case(name: "month 13", arguments: ["start", "--at", "2026-13-01T00:00"], status: 64),
        Case(name: "February 30", arguments: ["start", "--at", "2026-02-30T10:00"], status: 64),
        Case(name: "tomorrow", arguments: ["start", "--at", "tomorrow"], status: 1),  // understood, in the future
        Case(name: "negative duration", arguments: ["start", "--at", "-5m ago"], status: 64),
        Case(name: "huge duration", arguments: ["start", "--at", "99999999999999999999h ago"], status: 64),
        Case(name: "offset +25:00", arguments: ["start", "--at", "2026-11-29T10:00+25:00"], status: 64),
        Case(name: "bad START", arguments: ["track", "nonsense", "10:00"], status: 64),
        Case(name: "bad --since", arguments: ["history", "--since", "x"], status: 64),
        Case(name: "control character in a time", arguments: ["start", "--at", "09:\u{0}00"], status: 64),
        Case(name: "DST gap with --at", arguments: ["start", "--at", "2026-03-29T02:30"], status: 1),
        Case(name: "DST gap in track", arguments: ["track", "2026-03-29T02:15", "2026-03-29T04:00"], status: 1),
        Case(
            name: "DST gap yesterday", arguments: ["start", "--at", "yesterday 02:30"], status: 1,
            environment: ["STINT_NOW": "2026-03-30T10:00:00Z"]),
        Case(name: "end before start", arguments: ["track", "10:00", "09:00"], status: 1),
        Case(name: "end equal to start", arguments: ["track", "09:00", "09:00"], status: 1),
        Case(name: "stop before start", arguments: ["stop", "--all", "--at", "08:00"], status: 1),

        // Ids that name nothing, or more than one thing.
        Case(name: "unknown id prefix", arguments: ["stop", "ffff"], status: 1),
        Case(name: "unknown id to delete", arguments: ["delete", "ffff"], status: 1),
        Case(name: "unknown full id", arguments: ["delete", "00000000-0000-4000-8000-00000000ffff"], status: 1),
        Case(name: "not an id", arguments: ["delete", "zz"], status: 64),
        Case(name: "too short a prefix", arguments: ["delete", "00"], status: 64),
        Case(name: "ambiguous prefix", arguments: ["delete", "0000"], status: 1),
        Case(name: "ambiguous prefix to edit", arguments: ["edit", "00000000", "--comment", "x"], status: 1),
        Case(name: "unknown tag to rename", arguments: ["tag", "rename", "nosuchtag", "x"], status: 1),
        Case(name: "unknown tag to delete", arguments: ["tag", "delete", "nosuchtag"], status: 1),
        Case(name: "tag that exists", arguments: ["tag", "add", "WRITING"], status: 1),
        Case(name: "nothing to redo", arguments: ["redo"], status: 1),

        // Names and comments that are too long or hold control characters.
        Case(name: "over-long tag name", arguments: ["start", longName], status: 64),
        Case(
            name: "over-long comment", arguments: ["start", "--comment", String(repeating: "x", count: 501)], status: 64
        ),
        Case(name: "bell in a tag name", arguments: ["tag", "add", "bad\u{07}name"], status: 64),
        Case(name: "tab in a tag name", arguments: ["start", "tab\tname"], status: 64),
        Case(name: "escape in a tag name", arguments: ["tag", "add", "\u{1B}[31mred"], status: 64),
        Case(name: "empty tag name", arguments: ["tag", "add", ""], status: 64),
        Case(name: "blank tag name", arguments: ["tag", "add", "   "], status: 64),
        Case(name: "over-long new tag name", arguments: ["tag", "rename", "writing", longName], status: 64),

        // Logs that are not logs, damaged, or from the future.
        Case(name: "log of a newer format", arguments: ["status"], status: 65, setup: .format("stint-log 3\n")),
        Case(name: "write to a newer format", arguments: ["start"], status: 65, setup: .format("stint-log 3\n")),
        Case(name: "format file of garbage", arguments: ["status"], status: 1, setup: .format("hello\n")),
        Case(name: "log path is a file", arguments: ["start"], status: 1, setup: .regularFile),
        Case(name: "log path is a non-log file", arguments: ["status"], status: 65, setup: .regularFile),
        Case(name: "empty directory", arguments: ["status"], status: 1, setup: .emptyDirectory),
        Case(name: "no log", arguments: ["start"], status: 1, setup: .missing),
        Case(name: "no log to read", arguments: ["history"], status: 1, setup: .missing),
        Case(
            name: "invalid UTF-8 in a log line", arguments: ["verify"], status: 65,
            setup: .jsonl(replacing: "writing", with: [0x77, 0xFF, 0x69])),
        Case(
            name: "control byte in a log line", arguments: ["verify"], status: 65,
            setup: .jsonl(replacing: "writing", with: [0x77, 0x01, 0x69])),
        Case(name: "unreadable segment", arguments: ["status"], status: 1, setup: .unreadable),
        Case(name: "unreadable segment, writing", arguments: ["start"], status: 1, setup: .unreadable),
        Case(name: "empty standard input", arguments: ["--log", "-", "status"], status: 65),
        Case(
            name: "garbage on standard input", arguments: ["--log", "-", "status"], status: 65,
            stdin: Array("{not json\n".utf8)),
        Case(
            name: "standard input frame claiming 4 GiB", arguments: ["--log", "-", "status"], status: 65,
            stdin: oversizedFrame + [UInt8](repeating: 0, count: 64)),
        Case(
            name: "standard input frame claiming 4 GiB, verify", arguments: ["--log", "-", "verify"], status: 65,
            stdin: oversizedFrame + [UInt8](repeating: 0, count: 64)),
    ]

    /// Reading verbs show the intact prefix of a log damaged after its first event, with a `warning:` (exit
    /// 0); only `verify` fails on it. That is checked here for the damaged cases of the table.
    @Test(arguments: ["status", "history", "summary"])
    func readersOfADamagedLogShowTheIntactPrefixWithAWarning(verb: String) throws {
        let scratch = TemporaryDirectory()
        let log = Self.standardLog(in: scratch.path)
        var content = Array(CLIRunner(log: log).run(["--json", "history"]).stdout.utf8)
        let lines = content.split(separator: 0x0A)
        let third = lines[0].count + lines[1].count + 2 + 12
        content[third] = 0xFF
        let file = scratch.path + "/events.jsonl"
        try Data(content).write(to: URL(fileURLWithPath: file))
        let result = CLIRunner(log: file).run([verb])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: "))
    }

    /// The log every standard case starts from: a few commands, ids `…0001`, `…0002`, … (so that `0000`
    /// is an ambiguous prefix).
    static func standardLog(in directory: String) -> String {
        let log = directory + "/log"
        var runner = CLIRunner(log: log)
        runner.now = Instant(canonical: "2026-11-29T13:00:00.000Z")!
        for line in ["init --tz Europe/Berlin", "start writing", "track 09:00 10:00 reading", "start errands"] {
            let result = runner.run(line)
            precondition(result.status == 0, result.stderr)
        }
        return log
    }

    /// Every file under `directory` and its bytes.
    static func files(under directory: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return files }
        while let name = enumerator.nextObject() as? String {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            files[name] =
                isDirectory.boolValue ? [] : FileManager.default.contents(atPath: path).map { Array($0) } ?? []
        }
        return files
    }

    @Test func theTableHasSixtyCasesOrMore() {
        #expect(Self.cases.count >= 60)
    }

    @Test(arguments: cases)
    func malformedInputIsRefusedWithItsStatusAndChangesNothing(case item: Case) throws {
        let scratch = TemporaryDirectory()
        var log = Self.standardLog(in: scratch.path)
        var fileSystem: (any LogFileSystem)?
        switch item.setup {
        case .standard:
            break
        case .format(let text):
            try Data(text.utf8).write(to: URL(fileURLWithPath: log + "/format"))
        case .regularFile:
            log = scratch.path + "/afile"
            try Data("hello\n".utf8).write(to: URL(fileURLWithPath: log))
        case .emptyDirectory:
            log = scratch.path + "/empty"
            try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
        case .missing:
            log = scratch.path + "/nothing/here"
        case .jsonl(let text, let bytes):
            let history = CLIRunner(log: log).run(["--json", "history"])
            var content = Array(history.stdout.utf8)
            let needle = Array(text.utf8)
            let at = try #require(
                (0...(content.count - needle.count)).first { Array(content[$0..<($0 + needle.count)]) == needle })
            content.replaceSubrange(at..<(at + needle.count), with: bytes)
            log = scratch.path + "/events.jsonl"
            try Data(content).write(to: URL(fileURLWithPath: log))
        case .unreadable:
            if geteuid() == 0 {
                // Root reads any file whatever its mode, so the refusal comes through the seam.
                fileSystem = DenyingFileSystem()
            } else {
                for name in try FileManager.default.contentsOfDirectory(atPath: log) where name.hasSuffix(".zst") {
                    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: log + "/" + name)
                }
            }
        }
        let before = Self.files(under: scratch.path)
        let runner = CLIRunner(log: log)
        let now = runner.now
        let out = CapturedOutput()
        let err = CapturedOutput()
        let ids = IncrementingIDs(startingAfter: 1000)
        var host = Host(
            environment: runner.environment.merging(item.environment) { $1 }, clock: { now },
            newID: ids.generator, standardOutput: out, standardError: err, readStandardInput: { item.stdin })
        if let fileSystem { host.configureEngine = { $0.fileSystem = fileSystem } }
        let status = StintCLI.run(arguments: item.arguments, host: host)
        #expect(status == item.status, "\(item.name): \(err.text)")
        #expect(err.text.hasPrefix("error: ") && err.text.count > "error: ".count + 10, "\(item.name): \(err.text)")
        #expect(out.text.isEmpty || item.printsReport, "\(item.name) printed: \(out.text)")
        #expect(Self.files(under: scratch.path) == before, "\(item.name) changed the log")
    }

    /// Bytes that are not UTF-8 in an argument: the real binary refuses them (exit 64) instead of storing
    /// U+FFFD replacement characters.
    @Test(arguments: [[0xFF, 0xFE], [0x61, 0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] as [[UInt8]])
    func argumentsThatAreNotUTF8AreRefused(bytes: [UInt8]) throws {
        let stint = try #require(CrashHarnessTests.tool("stint"), "build the stint executable first")
        let scratch = TemporaryDirectory()
        let log = Self.standardLog(in: scratch.path)
        let before = Self.files(under: scratch.path)
        for arguments in [[Array("start".utf8), bytes], [Array("start".utf8), Array("--comment".utf8), bytes]] {
            let (status, stderr) = try Self.spawn(stint, arguments, environment: ["STINT_LOG=\(log)"])
            #expect(status == 64, "\(bytes): \(stderr)")
            #expect(stderr.hasPrefix("error: "))
        }
        #expect(Self.files(under: scratch.path) == before)
    }

    /// Runs an executable with raw argument bytes (Foundation's Process only takes Strings).
    static func spawn(_ path: String, _ arguments: [[UInt8]], environment: [String]) throws -> (Int32, String) {
        let all = [Array(path.utf8)] + arguments
        let argv = all.map { bytes -> UnsafeMutablePointer<CChar>? in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        let envp = environment.map { strdup($0) }
        defer {
            argv.forEach { $0?.deallocate() }
            envp.forEach { free($0) }
        }
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv + [nil], envp + [nil])
        posix_spawn_file_actions_destroy(&actions)
        Glibc.close(pipe[1])
        guard result == 0 else {
            Glibc.close(pipe[0])
            throw CocoaError(.executableLoad)
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(pipe[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        Glibc.close(pipe[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return ((status >> 8) & 0xFF, String(decoding: output, as: UTF8.self))
    }

    /// A reader fed a frame header that claims 4 GiB refuses it without allocating it: the process's peak
    /// memory grows by far less than the claimed size.
    @Test func aFrameClaimingGigabytesOnStandardInputIsRefusedWithoutAllocatingIt() {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakBefore = usage.ru_maxrss
        var runner = CLIRunner()
        runner.stdin = Self.oversizedFrame + [UInt8](repeating: 0, count: 1 << 20)
        for verb in ["status", "history", "verify", "summary"] {
            let result = runner.run(["--log", "-", verb])
            #expect(result.status == 65, "\(verb): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: "))
        }
        getrusage(RUSAGE_SELF.rawValue, &usage)
        // ru_maxrss is in KiB; reading 4 GiB would raise it by about 4 000 000.
        #expect(usage.ru_maxrss - peakBefore < 256 * 1024)
    }
}

/// Refuses to open the log's segment files, as a file without read permission does for a user other than
/// root.
final class DenyingFileSystem: ForwardingFileSystem, @unchecked Sendable {
    let base: any LogFileSystem = POSIXFileSystem()

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        if path.hasSuffix(".jsonl.zst") { throw SystemCallError(operation: "open", path: path, errno: EACCES) }
        return try base.openFile(path, mode)
    }
}
