import Foundation
import Glibc
import StintCore
import TestSupport
import Testing

/// Outputs Stint is told to write: what is already at the path is never replaced by something else.
@Suite struct OutputPathTests {
    @Test func publishNeverReplacesAFIFOEvenWithForce() throws {
        let directory = TemporaryDirectory()
        let runner = CLIRunner(log: directory.appending("log"))
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        // A FIFO stands in for /dev/null and /dev/full, which a test must not risk replacing.
        let fifo = directory.appending("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = runner.run(["publish", "--to", fifo, "--force"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: could not write \(fifo): it is not a regular file"), "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["fifo", "log"])
    }

    @Test func publishToAPathEndingInASlashNamesADirectory() throws {
        let directory = TemporaryDirectory()
        let runner = CLIRunner(log: directory.appending("log"))
        #expect(runner.run(["init", "--tz", "UTC"]).status == 0)
        let missing = runner.run(["publish", "--to", directory.appending("new/")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("names a directory, not a file"), "\(missing.stderr)")
        let existing = runner.run(["publish", "--to", directory.path + "/"])
        #expect(existing.status == 1)
        #expect(existing.stderr.contains("such as \(directory.path)/widget-data.json"), "\(existing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["log"])
    }
}
