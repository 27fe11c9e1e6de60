import Foundation
import StintCore

/// `--expect FILE`: instead of printing an output, compare it with FILE, for projection tests in CI.
enum ExpectOption {
    static let option = Option(
        "expect", "FILE",
        "Compare the JSON output (as --json prints it) with FILE instead of printing it: exit 0 when equal, else 1 "
            + "and a diff.")

    /// Prints `output`, or compares it with the file `--expect` names.
    static func emit(_ output: String, expect path: String?, context: CommandContext) throws(CLIError) {
        guard let path else {
            context.write(output)
            return
        }
        guard let data = FileManager.default.contents(atPath: path), let expected = String(data: data, encoding: .utf8)
        else {
            throw CLIError.refused("cannot read the expected output \(path); check the path and its permissions")
        }
        if (try? JSON.parse(output)) != nil, (try? JSON.parse(expected)) == nil {
            throw CLIError.refused(
                "\(path) is not JSON: --expect compares the JSON output (what --json prints), not the text; record "
                    + "the file with the same command and --json instead of --expect (stint snapshot --json > \(path))")
        }
        let differences = OutputDiff.differences(expected: expected, actual: output)
        guard !differences.isEmpty else { return }
        throw CLIError.refused(
            "the output differs from \(path) (\(differences.count) difference\(differences.count == 1 ? "" : "s")):",
            details: OutputDiff.render(differences))
    }
}
