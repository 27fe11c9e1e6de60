// Runs the seeds of one invocation, prints what failed with the command that repeats it, keeps failing seeds,
// and decides the exit status.
import StintCore
import ToolSupport

struct SeedRunner {
    let arguments: SimArguments

    func run() -> Int32 {
        let started = monotonicSeconds()
        var failedSeeds = 0
        var controlCaught: [CheckName: Int] = [:]
        var checksFailed: [CheckName: Int] = [:]
        for seed in arguments.seeds {
            let simulation = Simulation(seed: seed, arguments: arguments)
            let failures = simulation.run()
            for name in Set(failures.map(\.check)) { checksFailed[name, default: 0] += 1 }
            if arguments.verbose || arguments.seeds.count == 1 {
                print(
                    "seed \(seed): \(simulation.appended) commands appended, \(simulation.refused) refused, "
                        + "\(simulation.kills) killed (\(simulation.survivedKills) durable), "
                        + "\(simulation.oracle?.acked.count ?? 0) events; copier: "
                        + Fault.allCases.map { "\($0.rawValue) \(simulation.copier?.counts[$0] ?? 0)" }.joined(
                            separator: ", "))
            }
            if let control = arguments.control {
                for check in control.mustFail {
                    guard let caught = failures.first(where: { $0.check == check }) else { continue }
                    controlCaught[check, default: 0] += 1
                    if arguments.verbose || arguments.seeds.count == 1 {
                        print("control \(control.rawValue) caught by \(check.rawValue): \(caught.detail)")
                    }
                }
                continue
            }
            guard let first = failures.first else { continue }
            failedSeeds += 1
            print("FAIL seed \(seed): \(first.check.rawValue): \(first.detail)")
            for other in failures.dropFirst().prefix(3) { print("  also \(other.check.rawValue): \(other.detail)") }
            print("  reproduce: swift run stint-sim \(arguments.reproducing(seed: seed).joined(separator: " "))")
            if let directory = arguments.keepFailures {
                FailureRecord(seed: seed, arguments: arguments.reproducing(seed: seed), failure: first).write(
                    in: directory)
            }
        }
        let seconds = monotonicSeconds() - started
        let count = arguments.seeds.count
        let time = String(format: "%.1f", seconds)
        if let control = arguments.control {
            var status: Int32 = 0
            for check in control.mustFail {
                let caught = controlCaught[check] ?? 0
                print(
                    "control \(control.rawValue): \(check.rawValue) failed on \(caught) of \(count) seeds (\(time) s)")
                if caught == 0 {
                    print("FAIL: under the control, the \(check.rawValue) check passed on every seed: it cannot tell")
                    status = 1
                }
            }
            return status
        }
        let tally = checksFailed.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        print(
            "\(count - failedSeeds) of \(count) seeds passed (\(time) s)"
                + (tally.isEmpty ? "" : "; failed checks: \(tally.joined(separator: ", "))"))
        return failedSeeds == 0 ? 0 : 1
    }
}
