// stint-crash-writer: a library-level writer for the crash harnesses. It runs domain commands through
// StintEngine (the code the CLI uses) with a tiny seal threshold and a checkpoint after every few commands,
// so that a kill -9 can land in an append, in a seal or in a checkpoint write, and prints one line per
// acknowledged command, written with one write(2) after the command returned:
//
//   ack <first seq> <last seq> <record id or ->
//
//   stint-crash-writer <log> [--count N] [--seal-threshold BYTES] [--checkpoint-every K] [--prefix NAME]
//   stint-crash-writer <log> --hold-lock-ms MS
//
// --count 0 (the default) runs until killed. --hold-lock-ms opens the log, prints `locked`, holds the writer
// lock for MS milliseconds and exits (to test the bounded lock wait of other writers). Exits 1 with
// `error: …` on stderr when a command fails.
import Glibc
import StintCore
import StintEngine
import StintLog
import ToolSupport

struct Options {
    var path = ""
    var count = 0
    var sealThreshold: Int64 = 2048
    var checkpointEvery = 3
    var prefix = "lib"
    var holdLock: Int?
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
        case "--count":
            guard let text = value(), let count = Int(text), count >= 0 else { return nil }
            options.count = count
        case "--seal-threshold":
            guard let text = value(), let bytes = Int64(text), bytes > 0 else { return nil }
            options.sealThreshold = bytes
        case "--checkpoint-every":
            guard let text = value(), let every = Int(text), every >= 0 else { return nil }
            options.checkpointEvery = every
        case "--prefix":
            guard let text = value() else { return nil }
            options.prefix = text
        case "--hold-lock-ms":
            guard let text = value(), let ms = Int(text), ms >= 0 else { return nil }
            options.holdLock = ms
        default:
            positional.append(argument)
        }
        index += 1
    }
    guard positional.count == 1 else { return nil }
    options.path = positional[0]
    return options
}

guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
    emit(
        "usage: stint-crash-writer <log> [--count N] [--seal-threshold BYTES] [--checkpoint-every K] [--prefix NAME]"
            + " | <log> --hold-lock-ms MS", to: STDERR_FILENO)
    exit(64)
}

let engine = EngineOptions(
    clock: { systemNow() },
    newID: {
        var generator = SystemRandomNumberGenerator()
        return EntityID(randomBits: generator.next(), generator.next())
    }, onNotice: { emit("note: \($0)", to: STDERR_FILENO) }, lockTimeout: .seconds(30),
    sealThreshold: options.sealThreshold, checkpointInterval: 1)

if let hold = options.holdLock {
    do {
        let log = try TimeLog.open(at: options.path, options: engine)
        emit("locked", to: STDOUT_FILENO)
        sleep(milliseconds: hold)
        log.close()
        exit(0)
    } catch {
        fail(error.message)
    }
}

var generator = SystemRandomNumberGenerator()
var done = 0
var sinceCheckpoint = 0
while options.count == 0 || done < options.count {
    let log: TimeLog
    do {
        log = try TimeLog.open(at: options.path, options: engine)
    } catch {
        fail(error.message)
    }
    // A few commands per opening, as a long-lived app would, then close and reopen (recovery again).
    for _ in 0..<Int.random(in: 1...5, using: &generator) {
        let command: Command
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: command = .stop(all: true)
        case 1: command = .start(tag: .name("\(options.prefix)-shared"))
        default: command = .start(tag: .name("\(options.prefix)-\(done)-\(Int.random(in: 0..<1_000_000))"))
        }
        do {
            let result = try log.execute(command)
            if let first = result.events.first, let last = result.events.last {
                let record: String
                if case .started(let started, _) = result.decision.outcome {
                    record = started.id.uuidString
                } else {
                    record = "-"
                }
                emit("ack \(first.seq) \(last.seq) \(record)", to: STDOUT_FILENO)
            }
        } catch  where error.category == .refused && error.log == nil {
            // Refused by the domain (nothing to stop): nothing appended.
        } catch {
            fail(error.message)
        }
        done += 1
        if options.count != 0 && done >= options.count { break }
    }
    log.close()
    sinceCheckpoint += 1
    if options.checkpointEvery > 0 && sinceCheckpoint >= options.checkpointEvery {
        sinceCheckpoint = 0
        // A read that folds past the newest checkpoint leaves a new one behind (checkpointInterval 1).
        do {
            _ = try LogView.load(try LogSource.open(path: options.path), at: .latest, options: engine)
        } catch {
            fail(error.message)
        }
    }
}
