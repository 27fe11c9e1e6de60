// stint-sim: the deterministic multi-device simulator of decision 0007 §9.
//
//   stint-sim --seed S [--devices N] [--steps K] [--control C] [--conflicts on|edits|off]
//   stint-sim --seeds A..B …        every seed of the range
//   stint-sim --replay DIR          every failing seed kept in DIR (Events/sim) again
//
// Exits 0 when every check passes on every seed (with --control: when the control's check failed on at
// least one seed, as it must), 1 otherwise, printing for each failing seed the command that repeats it.
import Foundation
import StintCore
import ToolSupport

let words = Array(CommandLine.arguments.dropFirst())
if words.first == "--replay" {
    guard words.count == 2 else { fail("usage: stint-sim --replay DIR") }
    exit(Replay.run(directory: words[1]))
}
let arguments: SimArguments
do {
    arguments = try SimArguments(words)
} catch {
    emit("error: \(error.message)\n\(SimArguments.usage)", to: 2)
    exit(2)
}
exit(SeedRunner(arguments: arguments).run())
