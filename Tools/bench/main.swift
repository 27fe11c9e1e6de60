// stint-bench: in-process measurements that whole-process timing cannot separate, and the data of the
// `sync` group, for `make bench`.
//
//   stint-bench replay <log> [--runs N] [--jobs N] [--fold compact|reference]
//   stint-bench space <single-log> <output> [--devices N] [--seed S] [--tail K]   (SpaceGenerator.swift)
//
// Folds the whole log N times (default 5) with checkpoints neither read nor written: it reads the events
// with LogReader (`--jobs` threads preparing segments ahead, default the reader's) and folds them with
// CompactFold (the cold reads' fold, the default) or LogState (`--fold reference`). Prints one JSON line
// per run: events, wall seconds, CPU seconds of the whole process (every thread), events per wall second
// and per CPU second, and the wall and CPU seconds of a pass that only reads (so the fold's CPU time is the
// difference).
import Glibc
import StintCore
import StintLog
import ToolSupport

/// The user and system CPU seconds of the whole process so far (every thread).
func processSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ clock: clockid_t = CLOCK_THREAD_CPUTIME_ID) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The value after `flag` in `arguments`, if any.
func value(of flag: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let usage = "usage: stint-bench replay <log> [--runs N] [--jobs N] [--fold compact|reference]"
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "space" {
    do {
        try SpaceGenerator(arguments: arguments).run()
    } catch {
        fail("\(error)")
    }
    exit(0)
}
guard arguments.count >= 2, arguments[0] == "replay" else { fail(usage) }
let path = arguments[1]
let runs = max(1, value(of: "--runs", in: arguments).flatMap { Int($0) } ?? 5)
var options = LogReader.Options()
if let text = value(of: "--jobs", in: arguments) {
    guard let jobs = Int(text), jobs >= 1 else { fail("--jobs takes a whole number ≥ 1, not '\(text)'") }
    options.workers = jobs
}
let compact: Bool
switch value(of: "--fold", in: arguments) ?? "compact" {
case "compact": compact = true
case "reference": compact = false
case let other: fail("--fold takes compact or reference, not '\(other)'\n\(usage)")
}

/// Times `body` over a fresh cursor of the log: wall seconds, CPU seconds of the whole process, and the
/// events it counted; exits when the log is damaged.
@MainActor func measure(
    _ body: (LogBatchCursor) throws -> Int64
) throws -> (wall: Double, cpu: Double, events: Int64) {
    let reader = try LogReader(path: path, options: options)
    let cpuStart = processSeconds()
    let wallStart = seconds(CLOCK_MONOTONIC)
    let cursor = try reader.batches()
    let events = try body(cursor)
    let wall = seconds(CLOCK_MONOTONIC) - wallStart
    let cpu = processSeconds() - cpuStart
    if let warning = cursor.warning { fail("the log is damaged: \(warning.message)") }
    return (wall, cpu, events)
}

do {
    // A record per event at most, as cold reads size the compact fold.
    let capacity = Int(try LogReader(path: path, options: options).lastSeq())
    for _ in 0..<runs {
        // A pass that only reads (decompression, the chain, decoding, the checks), then one that also folds:
        // the difference is the fold. (Timing each batch instead would cost two system calls a batch.)
        let readOnly = try measure { cursor in
            var events: Int64 = 0
            while let batch = try cursor.next() { events += Int64(batch.events.count) }
            return events
        }
        let full = try measure { cursor in
            var compactFold: CompactFold?
            var state: LogState?
            var events: Int64 = 0
            while let batch = try cursor.next() {
                for event in batch.events where compact {
                    if compactFold == nil {
                        compactFold = CompactFold(genesis: event, capacity: capacity)
                        if compactFold == nil { fail("the log does not begin with log.created") }
                    } else if !compactFold!.apply(event) {
                        fail("the compact fold does not apply seq \(event.seq)")
                    }
                }
                for event in batch.events where !compact {
                    if state == nil { state = try LogState(genesis: event) } else { try state!.apply(event) }
                }
                events += Int64(batch.events.count)
            }
            return events
        }
        guard full.events > 0 else { fail("the log has no events") }
        var line = JSONObjectBuilder()
        line.add("events", .int(full.events))
        line.add("fold", .string(compact ? "compact" : "reference"))
        line.add("jobs", .int(Int64(options.workers)))
        line.add("wallSeconds", .double(full.wall))
        line.add("cpuSeconds", .double(full.cpu))
        line.add("eventsPerSecond", .int(Int64(Double(full.events) / full.wall)))
        line.add("eventsPerCPUSecond", .int(Int64(Double(full.events) / full.cpu)))
        line.add("readWallSeconds", .double(readOnly.wall))
        line.add("readCPUSeconds", .double(readOnly.cpu))
        line.add("foldCPUSeconds", .double(full.cpu - readOnly.cpu))
        print(line.json.encodedString)
    }
} catch {
    fail("\(error)")
}
