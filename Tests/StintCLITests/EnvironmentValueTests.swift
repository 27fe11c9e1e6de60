import Foundation
import TestSupport
import Testing

/// Environment variables Stint reads, with values no one meant: never a crash.
@Suite struct EnvironmentValueTests {
    @Test(arguments: ["inf", "1e308", "9223372036854775807", "99999999999999999999999"])
    func aHugeLockTimeoutWaitsInEffectForEver(value: String) throws {
        let directory = TemporaryDirectory()
        let environment = [
            "STINT_NOW": "2026-11-29T13:00:00Z", "SWIFT_BACKTRACE": "enable=no", "HOME": directory.path,
            "STINT_LOG": directory.appending("log"), "STINT_LOCK_TIMEOUT": value,
        ]
        let binary = try StintProcess.requireBinary()
        #expect(try StintProcess.run(binary, ["init", "--tz", "UTC"], environment: environment).status == 0)
        let started = try StintProcess.run(binary, ["start", "writing"], environment: environment)
        #expect(started.status == 0, "\(started.errorText)")
    }
}

/// `STINT_JOBS` takes a whole number of threads ≥ 1; anything else is a usage error that names it, and the log
/// is left as it was.
@Suite struct ReadThreadsVariableTests {
    @Test(arguments: ["0", "-1", "two", "1.5", "99999999999999999999"])
    func aCountThatIsNotAWholeNumberAboveZeroIsAUsageError(value: String) throws {
        let directory = TemporaryDirectory()
        let log = directory.appending("log")
        let runner = CLIRunner(log: log)
        #expect(runner.run("init --tz UTC").status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: log).sorted()
        let refused = runner.run(["start", "writing"], environment: ["STINT_JOBS": value])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("error: STINT_JOBS='\(value)' is not a whole number ≥ 1 of threads"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: log).sorted() == before)
        #expect(runner.run(["status"], environment: ["STINT_JOBS": "1"]).status == 0)
        #expect(runner.run(["verify"], environment: ["STINT_JOBS": "9223372036854775807"]).status == 0)
    }
}

/// Variables that are not UTF-8 are refused, as arguments are: decoded, they would name another path.
@Suite struct EnvironmentEncodingTests {
    @Test(arguments: ["STINT_LOG", "XDG_DATA_HOME", "HOME", "TZ", "STINT_NOW"])
    func aVariableStintReadsThatIsNotUTF8IsRefused(name: String) throws {
        let directory = TemporaryDirectory()
        let binary = try StintProcess.requireBinary()
        // The shell makes the byte; Foundation's Process only passes UTF-8 strings.
        let script = "\(name)=\"$(printf 'log\\377')\" exec \"$STINT\" init --tz UTC"
        let environment = [
            "STINT": binary.path, "STINT_LOG": "log", "HOME": directory.path, "STINT_NOW": "2026-11-29T13:00:00Z",
            "SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin",
        ]
        let refused = try StintProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment,
            directory: URL(fileURLWithPath: directory.path))
        #expect(refused.status == 64)
        #expect(refused.errorText.hasPrefix("error: the environment variable \(name) is not valid UTF-8"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
