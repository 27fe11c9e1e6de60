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
