import Foundation
@_spi(FaultInjection) import StintCLI
import StintCore
@_spi(FaultInjection) import StintEngine
@_spi(FaultInjection) import StintLog
import TestSupport
import Testing

/// I/O errors injected into the CLI run in process: for every write, sync and rename that a scripted
/// sequence of commands makes, and for `EIO` and `ENOSPC`, the script is run again with that one operation
/// failing. The command it hits exits 1 with an `error:` message and prints nothing on stdout; every command
/// that succeeds has made all of the log's files and entries durable before it returned; retrying the
/// failed command works; and the log verifies at the end with exactly the events of a run without faults.
@Suite struct IOErrorTests {
    static let script: [[String]] = [
        ["init", "--tz", "Europe/Berlin", "--first-weekday", "2"],
        ["start", "writing", "--comment", "chapter 3"],
        ["stop"],
        ["track", "09:00", "10:00", "reading"],
        ["start", "errands"],
        ["tag", "add", "projects"],
        ["start", "writing", "--switch"],
        ["stop", "--all"],
        ["undo"],
        ["continue"],
        ["stop", "--all"],
    ]

    struct Fault: CustomTestStringConvertible, Sendable {
        var operation: FailingFileSystem.Operation
        var number: Int
        var errno: Int32

        var testDescription: String {
            "\(errno == ENOSPC ? "ENOSPC" : "EIO") on \(operation.rawValue) #\(number)"
        }
    }

    /// Runs one command line in process on `fileSystem`.
    static func run(
        _ arguments: [String], log: String, fileSystem: FailingFileSystem, ids: IncrementingIDs
    ) -> CLIResult {
        let out = CapturedOutput()
        let err = CapturedOutput()
        var host = Host(
            environment: ["STINT_LOG": log, "STINT_LOCK_TIMEOUT": "0"],
            clock: { Instant(canonical: "2026-11-29T13:00:00.000Z")! }, newID: ids.generator, standardOutput: out,
            standardError: err)
        host.configureEngine = { $0.fileSystem = fileSystem }
        let status = StintCLI.run(arguments: arguments, host: host)
        return CLIResult(status: status, stdout: out.text, stderr: err.text)
    }

    /// The event types of the log, read with the real file system.
    static func types(_ log: String) throws -> [String] {
        let cursor = try LogReader(path: log).events()
        var types: [String] = []
        while let event = try cursor.next() { types.append(event.type) }
        return types
    }

    /// Every fault the script can meet: each numbered write, sync and rename, with EIO and with ENOSPC.
    static let faults: [Fault] = {
        let directory = TemporaryDirectory()
        let fileSystem = FailingFileSystem()
        let ids = IncrementingIDs()
        let log = directory.path + "/log"
        for command in script { _ = run(command, log: log, fileSystem: fileSystem, ids: ids) }
        return FailingFileSystem.Operation.allCases.flatMap { operation in
            (0..<fileSystem.count(of: operation)).flatMap { number in
                [EIO, ENOSPC].map { Fault(operation: operation, number: number, errno: $0) }
            }
        }
    }()

    /// Whether a path is the log's `checked` file or its temporary file (docs/log-format.md §5.4): a cache.
    static func isCache(_ path: String?) -> Bool {
        path.map { $0.hasSuffix("/checked") || $0.hasSuffix("/checked.tmp") } ?? false
    }

    static let faultFreeTypes: [String] = {
        let directory = TemporaryDirectory()
        let log = directory.path + "/log"
        let ids = IncrementingIDs()
        for command in script { _ = run(command, log: log, fileSystem: FailingFileSystem(), ids: ids) }
        return (try? types(log)) ?? []
    }()

    @Test func theScriptMeetsWritesSyncsAndRenames() {
        let operations = Set(Self.faults.map(\.operation))
        #expect(operations == Set(FailingFileSystem.Operation.allCases))
        #expect(Self.faults.count >= 40)
        #expect(Self.faultFreeTypes.count > Self.script.count)
    }

    @Test(arguments: faults)
    func aFailedOperationFailsItsCommandAndNothingElse(fault: Fault) throws {
        let directory = TemporaryDirectory()
        let log = directory.path + "/log"
        let fileSystem = FailingFileSystem()
        fileSystem.failing = fault.operation
        fileSystem.failAt = fault.number
        fileSystem.errno = fault.errno
        let ids = IncrementingIDs()
        var failures = 0
        for command in Self.script {
            let wasFailed = fileSystem.failed
            let result = Self.run(command, log: log, fileSystem: fileSystem, ids: ids)
            if fileSystem.failed && !wasFailed && Self.isCache(fileSystem.failedPath) {
                // The `checked` file is a cache of what the writers checked: a failure to write it is ignored
                // (the next writer checks again).
                failures += 1
                #expect(result.status == 0, "\(command): \(result.stderr)")
            } else if fileSystem.failed && !wasFailed {
                failures += 1
                #expect(result.status == 1, "\(command): \(result.stderr)")
                #expect(result.stderr.hasPrefix("error: ") && result.stderr.count > 20, "\(command)")
                #expect(result.stdout.isEmpty, "\(command) printed \(result.stdout) though it failed")
                // The next process, with the fault gone, finds a valid log and does the same command.
                let retry = Self.run(command, log: log, fileSystem: fileSystem, ids: ids)
                #expect(retry.status == 0, "retrying \(command): \(retry.stderr)")
            } else {
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            // What the command acknowledged is on stable storage: no unsynced data or entry of the log's
            // files (the lock file's entry, the checkpoint caches and the `checked` file are not part of the log).
            let unsynced = fileSystem.notDurable { path in
                path.hasPrefix(log) && !path.hasSuffix("/lock") && !path.contains("/checkpoints")
                    && !Self.isCache(path)
            }
            #expect(unsynced.isEmpty, "after \(command): \(unsynced)")
        }
        #expect(failures == 1)
        #expect(try Self.types(log) == Self.faultFreeTypes)
        let verify = Self.run(["verify"], log: log, fileSystem: FailingFileSystem(), ids: ids)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".tmp") } == [])
    }

    /// After a failed append, the engine's writer refuses every further append until the log is opened
    /// again, which finds it valid and without the failed batch.
    @Test(arguments: [FailingFileSystem.Operation.write, .sync], [EIO, ENOSPC])
    func aWriterStopsAfterAFailedAppend(operation: FailingFileSystem.Operation, errno: Int32) throws {
        let directory = TemporaryDirectory()
        let log = directory.path + "/log"
        let fileSystem = FailingFileSystem()
        let ids = IncrementingIDs()
        var options = EngineOptions(
            clock: { Instant(canonical: "2026-11-29T13:00:00.000Z")! }, newID: ids.generator, lockTimeout: .zero)
        options.fileSystem = fileSystem
        try TimeLog.create(at: log, timeZone: "UTC", firstWeekday: 2, options: options).close()
        let timeLog = try TimeLog.open(at: log, options: options)
        _ = try timeLog.execute(.start(tag: .name("a"), comment: nil, at: nil, switching: false, force: false))
        fileSystem.failing = operation
        fileSystem.failAt = fileSystem.count(of: operation)
        fileSystem.errno = errno
        let failure = #expect(throws: StintError.self) {
            try timeLog.execute(.start(tag: .name("b"), comment: nil, at: nil, switching: false, force: false))
        }
        #expect(failure?.log?.code == .io)
        #expect((failure?.log?.cause as? SystemCallError)?.errno == errno)
        let stopped = #expect(throws: StintError.self) {
            try timeLog.execute(.start(tag: .name("c"), comment: nil, at: nil, switching: false, force: false))
        }
        #expect(stopped?.log?.code == .failStopped)
        timeLog.close()
        let reopened = try TimeLog.open(at: log, options: options)
        #expect(reopened.state.lastSeq == 3)
        reopened.close()
        #expect(try LogReader(path: log).verify().isIntact)
    }
}
