// stint-log-stress: appends single-event batches to a log and prints each acknowledged seq, so that tests
// can run several of these at once and check that the lock keeps the log gapless.
//
//   stint-log-stress <log> <count> [--writer NAME] [--seal-threshold BYTES] [--lock-timeout-ms MS] [--hold]
//
// Without --hold, each append opens the log, appends and closes it again, as `stint` commands do, so that
// concurrent processes interleave; with --hold, one writer appends all events. Creates the log if it does
// not exist. Prints `seq <n>` per acknowledged event on stdout; exits 1 with `error: …` on stderr.
import Glibc
import StintCore
import StintLog
import ToolSupport

struct Options {
    var path = ""
    var count = 0
    var writer = "w"
    var sealThreshold: Int64 = 1 << 20
    var lockTimeout = 10_000
    var hold = false
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
        case "--writer": guard let name = value() else { return nil }; options.writer = name
        case "--seal-threshold":
            guard let text = value(), let bytes = Int64(text) else { return nil }; options.sealThreshold = bytes
        case "--lock-timeout-ms":
            guard let text = value(), let ms = Int(text) else { return nil }; options.lockTimeout = ms
        case "--hold": options.hold = true
        default: positional.append(argument)
        }
        index += 1
    }
    guard positional.count == 2, let count = Int(positional[1]), count >= 0 else { return nil }
    options.path = positional[0]
    options.count = count
    return options
}

guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
    emit(
        "usage: stint-log-stress <log> <count> [--writer NAME] [--seal-threshold BYTES] [--lock-timeout-ms MS] [--hold]",
        to: STDERR_FILENO)
    exit(64)
}

let configuration = LogConfiguration(
    clock: { systemNow() }, sealThreshold: options.sealThreshold, lockTimeout: .milliseconds(options.lockTimeout),
    onNotice: { emit("note: \($0.message)", to: STDERR_FILENO) })

func openWriter() -> LogWriter {
    do {
        return try LogWriter.open(at: options.path, configuration: configuration)
    } catch  where error.code == .notFound {
        let settings = EventDraft(
            type: "log.created", version: 1,
            data: .object(["logId": .string("00000000-0000-4000-8000-000000000001"), "timeZone": .string("UTC")]))
        do {
            return try LogWriter.create(at: options.path, settingsEvent: settings, configuration: configuration)
        } catch {
            fail(error.message)
        }
    } catch {
        fail(error.message)
    }
}

var held: LogWriter? = options.hold ? openWriter() : nil
for index in 0..<options.count {
    let writer = held ?? openWriter()
    let draft = EventDraft(
        type: "stress.appended", version: 1,
        data: .object(["writer": .string(options.writer), "index": .int(Int64(index))]))
    do {
        let events = try writer.append([draft])
        emit("seq \(events[0].seq)", to: STDOUT_FILENO)
    } catch {
        fail(error.message)
    }
    if held == nil { writer.close() }
}
held?.close()
