import StintCore
import StintEngine

/// `--at TIME` / `--seq N` / `--as-known-by` of a read verb: the engine's ``PointQuery``, parsed from the
/// command line (its syntax checked before the log is opened: a usage error, exit 64).
typealias PointArguments = PointQuery

extension PointQuery {
    static let atOption = Option(
        "at", "TIME",
        "Show the log as it was at TIME (a time that has passed): the events recorded by then, with TIME as now (in a space: the events whose hybrid logical clock reads TIME or earlier)."
    )
    static let seqOption = Option(
        "seq", "N",
        "Show the log after its first N events, as of the time event N was recorded. In a space, DEVICE:N is that device's event N and every event merged before it (N alone: this device's)."
    )
    static let knownByOption = Option(
        "as-known-by", "DEVICE[@TIME]",
        "In a space: show exactly what DEVICE had seen at TIME (default: all it has written), its own events and those it had brought in from the others: what its widget showed."
    )
    static let options: [any OptionDeclaration] = [atOption, seqOption, knownByOption]

    init(_ arguments: ParsedArguments, verb: String) throws(CLIError) {
        let given = [arguments[Self.atOption], arguments[Self.seqOption], arguments[Self.knownByOption]]
        guard given.compactMap({ $0 }).count <= 1 else {
            throw CLIError.usage("give one of --at, --seq and --as-known-by", verb: verb)
        }
        if let at = arguments[Self.atOption] {
            self = .at(at)
        } else if let text = arguments[Self.seqOption] {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let n = Int64(parts[parts.count - 1]), n >= 1, parts.count == 1 || !parts[0].isEmpty else {
                throw CLIError.usage(
                    "--seq takes a whole number ≥ 1, or DEVICE:N in a space, not '\(text)'", verb: verb)
            }
            self = parts.count == 1 ? .seq(n) : .deviceSeq(String(parts[0]), n)
        } else if let text = arguments[Self.knownByOption] {
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            guard !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
                throw CLIError.usage(
                    "--as-known-by takes DEVICE or DEVICE@TIME (a device id or its first digits), not '\(text)'",
                    verb: verb)
            }
            self = .knownBy(String(parts[0]), parts.count == 2 ? String(parts[1]) : nil)
        } else {
            self = .latest
        }
    }
}
