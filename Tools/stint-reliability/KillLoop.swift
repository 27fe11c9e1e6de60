import Foundation
import StintCore
import StintEngine
import StintLog
import ToolSupport

/// The kill -9 loop: each round starts a `stint-crash-writer` (engine level, tiny seal threshold, frequent
/// checkpoints) and a `stint` command on the same log, kills both with SIGKILL after a random delay, then
/// recovers the log as the next writer would and checks it; every `checkEvery` rounds, and at the end, it
/// checks every acknowledged event is present exactly once, the log is gapless, `stint verify` passes, the
/// state read through checkpoints equals a full fold, and what the read verbs print from the read models
/// (caught up by the next command after a kill between an append and their update) equals a fold's output.
struct KillLoop {
    var stint: String
    var writer: String
    var path: String
    var kills: Int
    var seed: UInt64
    var maxDelay: Int
    var checkEvery: Int
    var sealThreshold: Int64 = 2048

    struct Tally {
        var rounds = 0
        var kills = 0
        var cliKills = 0
        var writerKills = 0
        var acknowledgedLibrary = 0
        var acknowledgedCLI = 0
        var tornTails = 0
        var temporaryFilesRemoved = 0
        var sealsCompleted = 0
        var checkpointTemporaries = 0
        var cliFailures: [Int32: Int] = [:]
        var checks = 0
        /// Kills that left the read models behind the log (between a command's append and their update).
        var readModelsBehind = 0
    }

    func run() throws -> (Tally, [String]) {
        var generator = SplitMix64(seed: seed)
        var tally = Tally()
        var acknowledgements: [Acknowledgement] = []
        var problems: [String] = []
        let checks = LogChecks(path: path, stint: stint)
        let created = try ChildProcess.run(stint, ["--log", path, "init", "--tz", "Europe/Berlin"])
        guard created.status == 0 else { return (tally, ["stint init failed: \(created.stderr)"]) }
        let environment = ["STINT_LOCK_TIMEOUT": "30"]
        while tally.kills < kills && problems.isEmpty {
            tally.rounds += 1
            let library = try ChildProcess(
                writer, [path, "--seal-threshold", "\(sealThreshold)", "--checkpoint-every", "2"],
                environment: environment)
            let command = cliCommand(round: tally.rounds, using: &generator)
            let cli = try ChildProcess(stint, ["--log", path, "--json"] + command, environment: environment)
            sleep(milliseconds: Int.random(in: 0...maxDelay, using: &generator))
            // Kill both in a random order, or only one and the other a little later or never (so that stint
            // commands also get to finish, wait for the lock, and recover what the engine writer left).
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let order = Bool.random(using: &generator) ? [library, cli] : [cli, library]
                for process in order { process.kill() }
            case 1:
                library.kill()
            default:
                cli.kill()
                sleep(milliseconds: Int.random(in: 0...maxDelay, using: &generator))
                library.kill()
            }
            let libraryOutcome = library.wait()
            let cliOutcome = cli.wait()
            if libraryOutcome.killed {
                tally.kills += 1
                tally.writerKills += 1
            } else {
                problems.append(
                    "stint-crash-writer ended on its own (\(libraryOutcome.status)): \(libraryOutcome.stderr)")
            }
            if cliOutcome.killed {
                tally.kills += 1
                tally.cliKills += 1
            } else if cliOutcome.status == 0 {
                if let acknowledgement = Self.acknowledgement(command, cliOutcome.stdout) {
                    acknowledgements.append(acknowledgement)
                    tally.acknowledgedCLI += 1
                }
            } else {
                tally.cliFailures[cliOutcome.status, default: 0] += 1
                if !cliOutcome.failedWithError {
                    problems.append("stint \(command) exited \(cliOutcome.status): \(cliOutcome.stderr)")
                }
            }
            for line in libraryOutcome.stdout.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, parts[0] == "ack", let first = Int64(parts[1]), let last = Int64(parts[2])
                else { continue }
                acknowledgements.append(
                    .library(first: first, last: last, record: parts[3] == "-" ? nil : String(parts[3])))
                tally.acknowledgedLibrary += 1
            }
            if let models = ReadModels.head(inLogDirectory: path), let last = try? LogReader(path: path).lastSeq(),
                models.position.seq < last
            {
                tally.readModelsBehind += 1
            }
            tally.checkpointTemporaries += removeCheckpointTemporaries()
            let recovery = checks.recover(sealThreshold: sealThreshold)
            tally.tornTails += recovery.tornTails
            tally.temporaryFilesRemoved += recovery.temporaryFilesRemoved
            tally.sealsCompleted += recovery.sealsCompleted
            problems += recovery.problems.map { "round \(tally.rounds): \($0)" }
            if tally.rounds % checkEvery == 0 || tally.kills >= kills {
                problems += fullCheck(checks, acknowledgements).map { "round \(tally.rounds): \($0)" }
                problems += checks.readModelProblems(round: tally.rounds).map { "round \(tally.rounds): \($0)" }
                tally.checks += 1
            }
        }
        return (tally, problems)
    }

    /// The checkpoint temporaries a kill left (caches; counted, then removed so each round counts its own).
    /// Removes the temporary files of checkpoint writes a kill cut (of both kinds of checkpoint); returns how
    /// many there were.
    private func removeCheckpointTemporaries() -> Int {
        var removed = 0
        for directory in [path + "/checkpoints", path + "/checkpoints/projection"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names where name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(atPath: directory + "/" + name)
                removed += 1
            }
        }
        return removed
    }

    private func fullCheck(_ checks: LogChecks, _ acknowledgements: [Acknowledgement]) -> [String] {
        do {
            let (events, _, warning) = try checks.events()
            var problems = checks.problems(acknowledgements, in: events)
            if let warning { problems.append("a reader stopped early: \(warning)") }
            if let failure = checks.verifyWithCLI() { problems.append(failure) }
            problems += checks.checkpointProblems(events)
            return problems
        } catch {
            return ["the log cannot be read: \(error)"]
        }
    }

    private func cliCommand(round: Int, using generator: inout SplitMix64) -> [String] {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return ["start", "cli-\(round)"]
        case 1: return ["start", "--comment", "round \(round)"]
        case 2: return ["track", "2026-11-28T09:00", "2026-11-28T09:30", "cli-tracked"]
        case 3: return ["stop", "--all"]
        default: return ["start", "cli-shared"]
        }
    }

    /// What a `stint … --json` command printed as done.
    static func acknowledgement(_ command: [String], _ stdout: String) -> Acknowledgement? {
        guard let json = try? JSON.parse(stdout) else { return nil }
        switch command[0] {
        case "start":
            return json["recordId"]?.stringValue.map { .cli(type: "timer.started", records: [$0]) }
        case "track":
            return json["recordId"]?.stringValue.map { .cli(type: "record.tracked", records: [$0]) }
        case "stop":
            let ids = json["stopped"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            return .cli(type: "timer.stopped", records: ids)
        default:
            return nil
        }
    }
}
