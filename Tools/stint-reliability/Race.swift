import Foundation
import StintCore
import StintLog
import Synchronization
import ToolSupport

/// Concurrent writers and readers: `processes` loops each run `appends` `stint start NEWTAG` commands (a
/// batch of two events: tag.created and timer.started) while `readers` loops read the log with `stint
/// history --json` and with the library reader, checking that every batch they see is whole. Then the log
/// must hold 1 + 2 × processes × appends events, gapless, each acknowledged record once; and a writer that
/// cannot get the lock within STINT_LOCK_TIMEOUT fails clearly and changes nothing.
struct Race {
    var stint: String
    var writer: String
    var path: String
    var processes: Int
    var appends: Int
    var readers: Int

    struct Tally {
        var appended = 0
        var historyReads = 0
        var libraryReads = 0
        var batchesSeen = 0
        var lockWait = 0.0
        var elapsed = 0.0
    }

    final class Shared: Sendable {
        let records = Mutex<[String]>([])
        let problems = Mutex<[String]>([])
        let writing = Mutex(0)
        let reads = Mutex((history: 0, library: 0, batches: 0))

        func problem(_ text: String) { problems.withLock { $0.append(text) } }
    }

    func run() throws -> (Tally, [String]) {
        var tally = Tally()
        let created = try ChildProcess.run(stint, ["--log", path, "init", "--tz", "UTC"])
        guard created.status == 0 else { return (tally, ["stint init failed: \(created.stderr)"]) }
        let shared = Shared()
        shared.writing.withLock { $0 = processes }
        let start = monotonicSeconds()
        var threads: [Thread] = []
        let group = DispatchGroup()
        for worker in 0..<processes {
            group.enter()
            let (stint, path, appends) = (stint, path, appends)
            threads.append(
                Thread {
                    for index in 0..<appends {
                        let tag = "w\(worker)-\(index)"
                        do {
                            let outcome = try ChildProcess.run(
                                stint, ["--log", path, "--json", "start", tag],
                                environment: ["STINT_LOCK_TIMEOUT": "60"])
                            if outcome.status == 0, let id = (try? JSON.parse(outcome.stdout))?["recordId"]?.stringValue
                            {
                                shared.records.withLock { $0.append(id) }
                            } else {
                                shared.problem("stint start \(tag) exited \(outcome.status): \(outcome.stderr)")
                            }
                        } catch {
                            shared.problem("could not run stint: \(error)")
                        }
                    }
                    shared.writing.withLock { $0 -= 1 }
                    group.leave()
                })
        }
        for reader in 0..<readers {
            group.enter()
            let (stint, path) = (stint, path)
            threads.append(
                Thread {
                    var useCLI = reader % 2 == 0
                    while shared.writing.withLock({ $0 > 0 }) {
                        if useCLI {
                            Race.readWithHistory(stint, path, shared)
                        } else {
                            Race.readWithLibrary(path, shared)
                        }
                        useCLI.toggle()
                    }
                    group.leave()
                })
        }
        for thread in threads { thread.start() }
        group.wait()
        tally.elapsed = monotonicSeconds() - start
        var problems = shared.problems.withLock { $0 }
        let records = shared.records.withLock { $0 }
        let reads = shared.reads.withLock { $0 }
        tally.appended = records.count
        tally.historyReads = reads.history
        tally.libraryReads = reads.library
        tally.batchesSeen = reads.batches

        let checks = LogChecks(path: path, stint: stint)
        let (events, batches, warning) = try checks.events()
        if let warning { problems.append("the reader stopped early: \(warning)") }
        let expected = 1 + 2 * processes * appends
        if events.count != expected { problems.append("the log holds \(events.count) events, not \(expected)") }
        problems += checks.problems([.cli(type: "timer.started", records: records)], in: events)
        if Set(records).count != records.count { problems.append("a record id was printed twice") }
        for batch in batches.dropFirst() where batch.events.count != 2 || batch.events[0].type != "tag.created" {
            problems.append("the batch at seq \(batch.firstSeq) is not tag.created + timer.started")
            break
        }
        let tags = events.filter { $0.type == "tag.created" }.compactMap { $0.data["name"]?.stringValue }
        if Set(tags).count != processes * appends { problems.append("\(Set(tags).count) distinct tags were created") }
        if let failure = checks.verifyWithCLI() { problems.append(failure) }

        let (wait, lockProblems) = try lockTimeout(checks)
        tally.lockWait = wait
        problems += lockProblems
        return (tally, problems)
    }

    /// `stint history --json` prints the stored events; every `tx` batch in it must be whole.
    static func readWithHistory(_ stint: String, _ path: String, _ shared: Shared) {
        guard let outcome = try? ChildProcess.run(stint, ["--log", path, "--json", "history"]) else { return }
        guard outcome.status == 0 else {
            shared.problem("stint history exited \(outcome.status) during the race: \(outcome.stderr)")
            return
        }
        var groups: [Int64: Int] = [:]
        for line in outcome.stdout.split(separator: "\n") {
            guard let event = try? RecordedEvent(line: Array(line.utf8)) else {
                shared.problem("stint history printed a line that is not an event: \(line.prefix(80))")
                return
            }
            if let tx = event.tx { groups[tx, default: 0] += 1 }
        }
        if let partial = groups.first(where: { $0.value != 2 }) {
            shared.problem("stint history showed \(partial.value) event(s) of the batch at seq \(partial.key)")
        }
        shared.reads.withLock {
            $0.history += 1
            $0.batches += groups.count
        }
    }

    /// The library reader hands out whole batches; each must be the two events of one `stint start`.
    static func readWithLibrary(_ path: String, _ shared: Shared) {
        do {
            let cursor = try LogReader(path: path).batches()
            var seen = 0
            while let batch = try cursor.next() {
                if batch.firstSeq > 1 && (batch.events.count != 2 || batch.events.contains { $0.tx != batch.firstSeq })
                {
                    shared.problem("the library reader saw a partial batch at seq \(batch.firstSeq)")
                }
                seen += 1
            }
            if let warning = cursor.warning { shared.problem("the library reader stopped: \(warning)") }
            shared.reads.withLock {
                $0.library += 1
                $0.batches += seen
            }
        } catch {
            shared.problem("the library reader failed: \(error)")
        }
    }

    /// A writer that cannot take the lock within STINT_LOCK_TIMEOUT exits 1 with an `error:` message,
    /// after about that long, and changes nothing.
    func lockTimeout(_ checks: LogChecks) throws -> (Double, [String]) {
        let holder = try ChildProcess(writer, [path, "--hold-lock-ms", "5000", "--seal-threshold", "\(1 << 20)"])
        // Give it time to open the log and take the lock (it holds it for 5 s).
        sleep(milliseconds: 1500)
        let before = checks.snapshot()
        var problems: [String] = []
        let start = monotonicSeconds()
        let blocked = try ChildProcess.run(
            stint, ["--log", path, "start", "blocked"], environment: ["STINT_LOCK_TIMEOUT": "0.5"])
        let elapsed = monotonicSeconds() - start
        let holderOutcome = holder.wait()
        if !holderOutcome.stdout.hasPrefix("locked") {
            problems.append("the lock holder did not take the lock: \(holderOutcome.stderr)")
        }
        if !blocked.failedWithError {
            problems.append("a writer that waited for the lock exited \(blocked.status): \(blocked.stderr)")
        }
        if elapsed < 0.5 || elapsed > 3.5 {
            problems.append("a writer with STINT_LOCK_TIMEOUT=0.5 gave up after \(elapsed) s")
        }
        if checks.snapshot() != before { problems.append("the writer that could not lock changed the log") }
        return (elapsed, problems)
    }
}
