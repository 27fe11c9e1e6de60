// stint-cli-fuzz: the whole CLI as a user's shell runs it. Draws argument vectors from the verb registry
// (every verb and option, valid and invalid values, odd paths, times, numbers and environments), runs the
// real `stint` on each in a fresh sandbox, with a seeded log or none, and checks that every run exits 0, 1,
// 64 or 65 (never a signal), that a failure prints an `error:` line and no crash report, that a failed
// command changes no file, and that a command that succeeded changes nothing outside its log and output.
//
//   stint-cli-fuzz [--stint PATH] [--seconds N | --vectors N] [--seed S] [--save DIR] [--timeout S]
//   stint-cli-fuzz --seed S --vector N        one vector, with everything it printed
//   stint-cli-fuzz --replay PATH…             the saved regression vectors (files or directories)
//
// Prints its seed; a failing vector prints the command that reproduces it and is saved to --save
// (default Tools/fuzz/cli-regressions). Exits 1 when anything failed.
import Foundation
import Glibc
import StintCLI
import StintCore

struct Options {
    var stint = ".build/release/stint"
    var seconds: Double = 60
    var vectors: UInt64?
    var seed = UInt64(time(nil))
    var only: UInt64?
    var replay: [String] = []
    var save: String? = "Tools/fuzz/cli-regressions"
    var timeout: Double = 20
    var root = (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()) + "/stint-cli-fuzz-\(getpid())"
    var golden: String? = "Events/golden/undo"
    var progress: Double = 60

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        func value(_ name: String) -> String {
            guard let value = iterator.next() else { usage("\(name) needs a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--stint": stint = value(argument)
            case "--seconds": seconds = Double(value(argument)) ?? { usage("--seconds takes a number") }()
            case "--vectors": vectors = UInt64(value(argument)) ?? { usage("--vectors takes a whole number") }()
            case "--seed": seed = UInt64(value(argument)) ?? { usage("--seed takes a whole number") }()
            case "--vector": only = UInt64(value(argument)) ?? { usage("--vector takes a whole number") }()
            case "--save": save = value(argument)
            case "--no-save": save = nil
            case "--timeout": timeout = Double(value(argument)) ?? { usage("--timeout takes a number") }()
            case "--root": root = value(argument)
            case "--golden": golden = value(argument)
            case "--progress": progress = Double(value(argument)) ?? { usage("--progress takes a number") }()
            case "--replay":
                while let path = iterator.next() { replay.append(path) }
                if replay.isEmpty { usage("--replay needs files or directories") }
            default: usage("unknown argument '\(argument)'")
            }
        }
    }
}

/// Writes a line on standard error.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func usage(_ message: String) -> Never {
    printError(
        "error: \(message)\nusage: stint-cli-fuzz [--stint PATH] [--seconds N | --vectors N] [--seed S] [--save DIR] "
            + "[--no-save] [--timeout S]\n       stint-cli-fuzz --seed S --vector N\n"
            + "       stint-cli-fuzz --replay PATH…")
    exit(64)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard access(options.stint, X_OK) == 0, let stintPath = realpath(options.stint, nil) else {
    printError("error: no stint executable at \(options.stint); build it (swift build -c release --product stint)")
    exit(1)
}
// A runaway command (reading a device that never ends, say) fails on allocation instead of taking the
// machine's memory; the limit is inherited by every child.
var memory = rlimit(rlim_cur: 4 << 30, rlim_max: 4 << 30)
setrlimit(Int32(RLIMIT_AS.rawValue), &memory)

let harness = Harness(
    stint: String(cString: stintPath), root: options.root, golden: options.golden, timeout: options.timeout)
let generator = Generator(
    catalog: .standard, templates: Harness.templates.map(\.0), tags: harness.tags, recordIDs: harness.recordIDs)
var report = Report()
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
let verbPaths = generator.catalog.verbs.map(\.path)

if !options.replay.isEmpty {
    for file in Report.regressionFiles(options.replay) {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), let vector = Vector(fileText: text) else {
            printError("error: \(file) is not a vector file")
            exit(1)
        }
        let outcome = harness.run(vector)
        report.count(vector, outcome, verbs: verbPaths)
        if !outcome.findings.isEmpty { report.fail(vector, outcome, reproduce: "--replay \(file)", save: nil) }
    }
    say("replayed \(report.vectors) regression vectors: \(report.findingCount) failed")
} else if let index = options.only {
    let vector = generator.vector(seed: options.seed, index: index)
    say("$ \(vector.shellLine)   (log: \(vector.template ?? "none"), stdin: \(vector.input.rawValue))")
    let outcome = harness.run(vector)
    say("ended: \(outcome.run.ending)")
    say("stdout:\n\(String(decoding: outcome.run.stdout.prefix(4000), as: UTF8.self))")
    say("stderr:\n\(String(decoding: outcome.run.stderr.prefix(4000), as: UTF8.self))")
    say(outcome.findings.isEmpty ? "no finding" : "findings:\n  " + outcome.findings.joined(separator: "\n  "))
    report.count(vector, outcome, verbs: verbPaths)
} else {
    say("stint-cli-fuzz: seed \(options.seed), \(harness.stint), sandbox \(harness.root)")
    let started = monotonic()
    var lastProgress = started
    var index: UInt64 = 0
    // Ctrl-C or a `kill` ends the run after the current vector, with its totals, and removes the sandbox.
    signal(SIGINT) { _ in stopRequested = 1 }
    signal(SIGTERM) { _ in stopRequested = 1 }
    while monotonic() - started < options.seconds && index < (options.vectors ?? .max) {
        let vector = generator.vector(seed: options.seed, index: index)
        let outcome = harness.run(vector)
        // A Ctrl-C reaches the child too; what it did then is not a finding.
        if stopRequested != 0 { break }
        report.count(vector, outcome, verbs: verbPaths)
        if !outcome.findings.isEmpty {
            report.fail(
                vector, outcome, reproduce: "--stint \(options.stint) --seed \(options.seed) --vector \(index)",
                save: options.save.map { ($0, "\(options.seed)-\(index)") })
        }
        index += 1
        if monotonic() - lastProgress > options.progress, monotonic() - started < options.seconds {
            lastProgress = monotonic()
            say(report.summary(seconds: lastProgress - started))
        }
    }
    say(report.summary(seconds: monotonic() - started))
    say("seed \(options.seed); verbs run: \(report.verbsRun.count) of \(generator.catalog.verbs.count)")
    say("most frequent usage errors (exit 64):\n\(report.commonUsageErrors)")
    if !harness.foreignEntries.isEmpty {
        say("note: entries another program made in a watched directory meanwhile: \(harness.foreignEntries)")
    }
}
Tree.remove(harness.root)
exit(report.findingCount == 0 ? 0 : 1)
