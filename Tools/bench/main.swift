// stint-bench: in-process measurements that whole-process timing cannot separate, for `make bench`.
//
//   stint-bench replay <log> [--runs N] [--jobs N] [--fold compact|reference]
//
// Folds the whole log N times (default 5) with checkpoints neither read nor written: it reads the events
// with LogReader (`--jobs` threads preparing segments ahead, default the reader's) and folds them with
// CompactFold (the cold reads' fold, the default) or LogState (`--fold reference`). Prints one JSON line
// per run: events, wall seconds, CPU seconds of the whole process (every thread), CPU seconds of the
// folding thread, events per wall second and per CPU second, and how the folding thread's time splits
// between waiting for or checking batches (reading) and folding.
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

do {
    let capacity = Int(try LogReader(path: path, options: options).lastSeq() / 2)
    for _ in 0..<runs {
        let reader = try LogReader(path: path, options: options)
        let processStart = processSeconds()
        let wallStart = seconds(CLOCK_MONOTONIC)
        let started = seconds()
        var readTime = 0.0
        var compactFold: CompactFold?
        var state: LogState?
        var events: Int64 = 0
        let cursor = try reader.batches()
        var mark = seconds()
        while let batch = try cursor.next() {
            let read = seconds()
            readTime += read - mark
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
            events = batch.events[batch.events.count - 1].seq
            mark = seconds()
        }
        readTime += seconds() - mark
        let thread = seconds() - started
        let wall = seconds(CLOCK_MONOTONIC) - wallStart
        let process = processSeconds() - processStart
        guard compactFold != nil || state != nil else { fail("the log has no events") }
        if let warning = cursor.warning { fail("the log is damaged: \(warning.message)") }
        var line = JSONObjectBuilder()
        line.add("events", .int(events))
        line.add("fold", .string(compact ? "compact" : "reference"))
        line.add("jobs", .int(Int64(options.workers)))
        line.add("wallSeconds", .double(wall))
        line.add("cpuSeconds", .double(process))
        line.add("foldingThreadSeconds", .double(thread))
        line.add("eventsPerSecond", .int(Int64(Double(events) / wall)))
        line.add("eventsPerCPUSecond", .int(Int64(Double(events) / process)))
        line.add("readSeconds", .double(readTime))
        line.add("foldSeconds", .double(thread - readTime))
        print(line.json.encodedString)
    }
} catch {
    fail("\(error)")
}
