import StintCore

/// What the runner adds for a space case: every device must end on the same frontier, and a failure says
/// how to rebuild the devices.
extension CheckRunner {
    /// The frontier line `verify --merged` prints on every device of `build`: one failure naming each
    /// device's line unless they are all the same (a space case ends with every device synced).
    func compareFrontiers(of build: SpaceBuild, report: inout Report) {
        var frontiers: [(device: String, line: String)] = []
        for device in build.testCase.devices {
            let outcome = build.run(["verify", "--merged"], device: device, now: build.testCase.now, seed: nil)
            let line = outcome.stdout.split(separator: "\n").last { $0.hasPrefix("frontier ") }.map(String.init)
            frontiers.append((device, line ?? "no frontier (exit \(outcome.status)): \(outcome.stderr)"))
        }
        if Set(frontiers.map(\.line)).count == 1, frontiers[0].line.hasPrefix("frontier ") {
            report.passed += 1
            return
        }
        report.failed += 1
        report.failures.append(
            Failure(
                caseName: build.testCase.name, query: "(frontiers)",
                lines: [
                    "the devices do not end on one frontier ('verify --merged'); deliver and sync every device last:"
                ]
                    + frontiers.map { "@\($0.device): \($0.line)" }
                    + ["rerun: " + CheckRunner.spaceCommandLine(build.testCase)]))
    }

    /// How to reproduce a space case's failure: its devices exist only while `stint check` runs.
    static func spaceCommandLine(_ testCase: CheckCase, query: CheckCase.Query? = nil) -> String {
        let check = "stint check " + quoted(testCase.directory)
        guard let query else { return check + " (it builds the devices from \(CheckCase.commandsFile))" }
        let words = ["@" + (query.device ?? "")] + query.arguments
        let quotedWords = words.map(quoted).joined(separator: " ")
        if let line = query.command {
            return check + " (it builds the devices from \(CheckCase.commandsFile), whose line \(line) is "
                + "'\(quotedWords)')"
        }
        return check + " (it builds the devices from \(CheckCase.commandsFile), then runs "
            + "\(CheckCase.queriesFile):\(query.line) '\(quotedWords)' at \(testCase.now.iso8601))"
    }
}
