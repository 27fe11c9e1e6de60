// stint-generate: writes a seeded, realistic Stint log of about N events through the normal append path,
// and the same completed intervals as a Timewarrior database and a Watson directory, for `make bench`.
//
//   stint-generate <output-directory> --events N [--seed S] [--time-zone ZONE] [--first-day YYYY-MM-DD]
//
// Writes <output>/stint (the log), <output>/timew (TIMEWARRIORDB), <output>/watson (WATSON_DIR) and
// <output>/manifest.json (counts, and `now`: an instant after the history for STINT_NOW).
import Glibc
import StintCore
import ToolSupport

struct Options {
    var output = ""
    var events: Int64 = 10_000
    var seed: UInt64 = 1
    var timeZone = "Europe/Berlin"
    var firstDay = CivilDate(year: 2000, month: 1, day: 3)
}

func parse(_ arguments: [String]) -> Options? {
    var options = Options()
    var positional: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        switch argument {
        case "--events":
            guard let text = value(), let count = Int64(text), count >= 1 else { return nil }
            options.events = count
        case "--seed":
            guard let text = value(), let seed = UInt64(text) else { return nil }
            options.seed = seed
        case "--time-zone":
            guard let zone = value() else { return nil }
            options.timeZone = zone
        case "--first-day":
            let parts = value()?.split(separator: "-").compactMap { Int($0) } ?? []
            guard parts.count == 3 else { return nil }
            let date = CivilDate(year: parts[0], month: parts[1], day: parts[2])
            guard date.isValid else { return nil }
            options.firstDay = date
        default:
            // An option this tool does not know (`--help`, `--out`) is not an output directory.
            guard !argument.hasPrefix("-") else { return nil }
            positional.append(argument)
        }
        index += 1
    }
    guard positional.count == 1 else { return nil }
    options.output = positional[0]
    return options
}

guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
    emit(
        "usage: stint-generate <output-directory> --events N [--seed S] [--time-zone ZONE] [--first-day YYYY-MM-DD]",
        to: STDERR_FILENO)
    exit(64)
}

do {
    try PeerExport.makeDirectory(options.output)
    let simulator = try HistorySimulator(
        path: options.output + "/stint", seed: options.seed, timeZone: options.timeZone, firstDay: options.firstDay)
    let lastDay = try simulator.run(from: options.firstDay, events: options.events)
    simulator.writer.close()
    let intervals = simulator.state.intervals
    try PeerExport.writeTimewarrior(intervals, to: options.output + "/timew")
    try PeerExport.writeWatson(intervals, to: options.output + "/watson")
    sync()
    let counts = simulator.counts
    let now = simulator.calendar.startOfDay(lastDay.adding(days: 1)).adding(milliseconds: 10 * 3_600_000)
    var manifest = JSONObjectBuilder()
    manifest.add("seed", .int(Int64(options.seed)))
    manifest.add("events", .int(simulator.state.lastSeq))
    manifest.add("intervals", .int(Int64(intervals.count)))
    manifest.add("liveRecords", .int(Int64(simulator.state.records.count)))
    manifest.add("deletedRecords", .int(Int64(simulator.state.deletedRecordIds.count)))
    manifest.add("tags", .int(Int64(simulator.state.tags.count)))
    manifest.add("workDays", .int(Int64(counts.days)))
    manifest.add("commands", .int(Int64(counts.commands)))
    manifest.add("refused", .int(Int64(counts.refused)))
    manifest.add("timersStarted", .int(Int64(counts.started)))
    manifest.add("tracked", .int(Int64(counts.tracked)))
    manifest.add("concurrentTimers", .int(Int64(counts.concurrent)))
    manifest.add("edits", .int(Int64(counts.edited)))
    manifest.add("deletes", .int(Int64(counts.deleted)))
    manifest.add("undos", .int(Int64(counts.undone)))
    manifest.add("redos", .int(Int64(counts.redone)))
    manifest.add("tagRenames", .int(Int64(counts.renamed)))
    manifest.add("firstAt", .string(intervals.first?.start.iso8601 ?? ""))
    manifest.add("lastAt", .string(simulator.state.lastAt.iso8601))
    manifest.add("now", .string(now.iso8601))
    try PeerExport.write(Array(manifest.json.prettyEncoded().utf8), to: options.output + "/manifest.json")
    print(manifest.json.encodedString)
} catch let error as GeneratorError {
    fail(error.description)
} catch {
    fail("\(error)")
}
