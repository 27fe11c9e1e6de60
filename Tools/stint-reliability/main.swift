// stint-reliability: the crash and concurrency harnesses (docs/reliability.md).
//
//   stint-reliability kill-loop [--kills N] [--seed S] [--max-delay-ms MS] [--check-every K] [--log DIR]
//   stint-reliability race [--processes P] [--appends N] [--readers R] [--log DIR]
//
// Both find `stint` and `stint-crash-writer` next to this executable (or take --stint / --writer), use a fresh
// log directory under /tmp unless --log is given, print a summary line of figures, and exit 0 when every
// check passed, 1 with the problems on stderr otherwise.
import Foundation
import Glibc
import ToolSupport

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            ("usage: stint-reliability kill-loop [--kills N] [--seed S] [--max-delay-ms MS] [--check-every K] "
                + "[--log DIR]\n       stint-reliability race [--processes P] [--appends N] [--readers R] "
                + "[--log DIR]\n").utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, ["kill-loop", "race"].contains(mode) else { usage() }
arguments.removeFirst()
var parsed: [String: String] = [:]
while arguments.count >= 2, arguments[0].hasPrefix("--") {
    parsed[String(arguments[0].dropFirst(2))] = arguments[1]
    arguments.removeFirst(2)
}
guard arguments.isEmpty else { usage() }
let known: Set<String> =
    mode == "kill-loop"
    ? ["kills", "seed", "max-delay-ms", "check-every", "log", "stint", "writer"]
    : ["processes", "appends", "readers", "log", "stint", "writer"]
for name in parsed.keys where !known.contains(name) {
    FileHandle.standardError.write(Data("error: \(mode) has no option --\(name)\n".utf8))
    usage()
}
let values = parsed
@MainActor func number(_ name: String, _ fallback: Int) -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text), value >= 0 else { usage() }
    return value
}

let selfPath =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let directory = (selfPath as NSString).deletingLastPathComponent
let stint = values["stint"] ?? directory + "/stint"
let writer = values["writer"] ?? directory + "/stint-crash-writer"
for tool in [stint, writer] where !FileManager.default.isExecutableFile(atPath: tool) {
    FileHandle.standardError.write(Data("error: \(tool) is missing; run `swift build` first\n".utf8))
    exit(1)
}
let scratch = values["log"] ?? NSTemporaryDirectory() + "stint-\(mode)-\(getpid())"
// A --log directory is the harness's own scratch space: never one that already holds something, such as a
// real time log.
if let given = values["log"], let entries = try? FileManager.default.contentsOfDirectory(atPath: given),
    !entries.isEmpty
{
    FileHandle.standardError.write(Data("error: \(given) is not empty; give a new or empty directory to --log\n".utf8))
    exit(64)
}
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
let path = scratch + "/log"
let started = monotonicSeconds()
var problems: [String] = []

switch mode {
case "kill-loop":
    let seed = UInt64(values["seed"] ?? "") ?? UInt64(getpid())
    let loop = KillLoop(
        stint: stint, writer: writer, path: path, kills: number("kills", 1000), seed: seed,
        maxDelay: number("max-delay-ms", 150), checkEvery: number("check-every", 50))
    let (tally, found) = try loop.run()
    problems = found
    let failures = tally.cliFailures.sorted { $0.key < $1.key }.map { "\($0.value)×exit \($0.key)" }
    print(
        "kill-loop seed \(seed): \(tally.kills) kills (\(tally.writerKills) stint-crash-writer, \(tally.cliKills) "
            + "stint) in \(tally.rounds) rounds, \(String(format: "%.1f", monotonicSeconds() - started)) s; "
            + "acknowledged: \(tally.acknowledgedLibrary) engine commands, \(tally.acknowledgedCLI) stint "
            + "commands; recoveries: \(tally.tornTails) torn tails set aside, \(tally.temporaryFilesRemoved) "
            + "temporary-file cleanups (interrupted seals or segment creations), \(tally.sealsCompleted) "
            + "interrupted seals completed, \(tally.checkpointTemporaries) checkpoint writes cut, "
            + "\(tally.readModelsBehind) kills between an append and the read models' update; \(tally.checks) "
            + "full checks (with read verbs against a fold); stint refusals: \(failures.isEmpty ? "none" : failures.joined(separator: ", "))"
    )
case "race":
    let race = Race(
        stint: stint, writer: writer, path: path, processes: number("processes", 4),
        appends: number("appends", 500), readers: number("readers", 2))
    let (tally, found) = try race.run()
    problems = found
    print(
        "race: \(race.processes) processes × \(race.appends) `stint start NEWTAG` = \(tally.appended) batches "
            + "acknowledged in \(String(format: "%.1f", tally.elapsed)) s; \(tally.historyReads) `stint history` "
            + "and \(tally.libraryReads) library reads during the race saw \(tally.batchesSeen) batches, all "
            + "whole; lock wait with STINT_LOCK_TIMEOUT=0.5: \(String(format: "%.2f", tally.lockWait)) s")
default:
    usage()
}

if problems.isEmpty {
    if values["log"] == nil { try? FileManager.default.removeItem(atPath: scratch) }
    print("PASS")
    exit(0)
}
FileHandle.standardError.write(Data(problems.prefix(50).map { "problem: \($0)\n" }.joined().utf8))
print("FAIL: \(problems.count) problems; the log is kept at \(path)")
exit(1)
