// stint-bench: in-process measurements that whole-process timing cannot separate, for `make bench`.
//
//   stint-bench replay <log> [--runs N]
//
// Folds the whole log into its state N times (default 5) with checkpoints neither read nor written (it
// reads the events with LogReader and folds them with LogState, as StateLoader does), and prints one JSON
// line per run: events, wall seconds, CPU seconds of this thread (what one core spends, whatever else the
// machine runs), events per CPU second, and how the CPU time splits between reading (decompression, chain
// check, decoding) and folding.
import Glibc
import StintCore
import StintLog
import ToolSupport

func seconds(_ clock: clockid_t = CLOCK_THREAD_CPUTIME_ID) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, arguments[0] == "replay" else { fail("usage: stint-bench replay <log> [--runs N]") }
let path = arguments[1]
var runs = 5
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
    runs = max(1, count)
}

do {
    for _ in 0..<runs {
        let reader = try LogReader(path: path)
        let wallStart = seconds(CLOCK_MONOTONIC)
        let started = seconds()
        var readTime = 0.0
        var state: LogState?
        let cursor = try reader.batches()
        var mark = seconds()
        while let batch = try cursor.next() {
            let read = seconds()
            readTime += read - mark
            for event in batch.events {
                if state == nil { state = try LogState(genesis: event) } else { try state!.apply(event) }
            }
            mark = seconds()
        }
        readTime += seconds() - mark
        let total = seconds() - started
        let wall = seconds(CLOCK_MONOTONIC) - wallStart
        guard let state else { fail("the log has no events") }
        if let warning = cursor.warning { fail("the log is damaged: \(warning.message)") }
        var line = JSONObjectBuilder()
        line.add("events", .int(state.lastSeq))
        line.add("wallSeconds", .double(wall))
        line.add("cpuSeconds", .double(total))
        line.add("eventsPerSecond", .int(Int64(Double(state.lastSeq) / total)))
        line.add("readSeconds", .double(readTime))
        line.add("foldSeconds", .double(total - readTime))
        print(line.json.encodedString)
    }
} catch {
    fail("\(error)")
}
