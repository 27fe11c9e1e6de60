// The command line of stint-sim: what one run simulates, and how to print the command that repeats it.

/// How much the command generator lets devices act on the same things concurrently.
enum ConflictLevel: String, CaseIterable {
    /// Every device acts only on what it created, and undo/redo run with every device caught up (a
    /// barrier): a merged history the strict fold folds.
    case off
    /// As `off`, but devices also edit each other's records concurrently (different or the same fields):
    /// the strict fold folds it (an edit carries whole values), the per-field rules decide the outcome.
    case edits
    /// Concurrent stops of one timer, edits of one record on two devices, delete against edit, undo and
    /// redo without a barrier: needs the merged fold (decision 0007 §7).
    case on
}

/// A fold the simulator substitutes to show that a check can fail (decision 0007 §9).
enum Control: String, CaseIterable {
    /// Merge by (at, device, seq): fails "causally later sorts later".
    case wallclock
    /// An edit overwrites every field: fails the field check.
    case wholeRecord = "whole-record"
    /// A deleted record is forgotten, so a later edit re-creates it: fails the deletion check.
    case noTombstones = "no-tombstones"
    /// After healing, the first device appends a batch that is never delivered: fails the checks that compare
    /// replicas (frontier, outputs, exactly once, delivery orders).
    case laggingReplica = "lagging-replica"
    /// The restored backup is a copy of the replica as it is: expecting a fork at the seq after it, the check
    /// must fail (nothing diverges, publishing reports none).
    case currentBackup = "current-backup"

    /// The checks this control must fail (each on at least one seed).
    var mustFail: [CheckName] {
        switch self {
        case .wallclock: [.causality]
        case .wholeRecord: [.fields]
        case .noTombstones: [.deletions]
        case .laggingReplica: [.frontier, .outputs, .exactlyOnce, .deliveryOrders]
        case .currentBackup: [.forks]
        }
    }
}

struct SimArguments {
    var seeds: ClosedRange<UInt64> = 1...1
    var devices = 3
    var steps = 40
    /// How many random delivery orders the delivery-order check tries.
    var orders = 10
    /// Whether commands are killed mid-batch now and then (kill -9).
    var kills = true
    var control: Control?
    var conflicts = ConflictLevel.on
    /// Where a failing seed is kept as `<seed>.json` (nil: nowhere).
    var keepFailures: String?
    /// Keep the temporary directory of each seed (for debugging).
    var keepFiles = false
    var verbose = false

    static let usage = """
        usage: stint-sim (--seed S | --seeds A..B) [--devices N] [--steps K] [--orders N]
                         [--control wallclock|whole-record|no-tombstones|lagging-replica|
                         current-backup] [--conflicts on|edits|off]
                         [--kills on|off] [--keep-failures DIR] [--keep-files] [--verbose]
        """

    init(_ arguments: [String]) throws(SimUsageError) {
        var index = 0
        func value(_ name: String) throws(SimUsageError) -> String {
            index += 1
            guard index < arguments.count else { throw SimUsageError("\(name) needs a value") }
            return arguments[index]
        }
        var sawSeed = false
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--seed":
                guard let seed = UInt64(try value(argument)) else { throw SimUsageError("--seed takes a number") }
                seeds = seed...seed
                sawSeed = true
            case "--seeds":
                let text = try value(argument)
                let parts = text.split(separator: ".", omittingEmptySubsequences: true)
                guard text.contains(".."), parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]),
                    low <= high
                else { throw SimUsageError("--seeds takes A..B with A ≤ B, not \(text)") }
                seeds = low...high
                sawSeed = true
            case "--devices":
                guard let count = Int(try value(argument)), (2...5).contains(count) else {
                    throw SimUsageError("--devices takes 2 … 5")
                }
                devices = count
            case "--steps":
                guard let count = Int(try value(argument)), count >= 1 else {
                    throw SimUsageError("--steps takes a number ≥ 1")
                }
                steps = count
            case "--orders":
                guard let count = Int(try value(argument)), count >= 0 else {
                    throw SimUsageError("--orders takes a number ≥ 0")
                }
                orders = count
            case "--kills":
                let text = try value(argument)
                guard text == "on" || text == "off" else { throw SimUsageError("--kills takes on or off, not \(text)") }
                kills = text == "on"
            case "--control":
                let text = try value(argument)
                guard let parsed = Control(rawValue: text) else {
                    throw SimUsageError(
                        "--control takes wallclock, whole-record, no-tombstones, lagging-replica or current-backup, not \(text)"
                    )
                }
                control = parsed
            case "--conflicts":
                let text = try value(argument)
                guard let parsed = ConflictLevel(rawValue: text) else {
                    throw SimUsageError("--conflicts takes on, edits or off, not \(text)")
                }
                conflicts = parsed
            case "--keep-failures":
                keepFailures = try value(argument)
            case "--keep-files":
                keepFiles = true
            case "--verbose":
                verbose = true
            default:
                throw SimUsageError("unknown argument \(argument)")
            }
            index += 1
        }
        guard sawSeed else { throw SimUsageError("give --seed S or --seeds A..B") }
    }

    /// The arguments that repeat the run of one seed.
    func reproducing(seed: UInt64) -> [String] {
        var words = ["--seed", "\(seed)", "--devices", "\(devices)", "--steps", "\(steps)"]
        words += ["--conflicts", conflicts.rawValue]
        if orders != 10 { words += ["--orders", "\(orders)"] }
        if !kills { words += ["--kills", "off"] }
        if let control { words += ["--control", control.rawValue] }
        return words
    }
}

struct SimUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
