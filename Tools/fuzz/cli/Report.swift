import Foundation

/// What a fuzzing run saw: vectors by exit status, the verbs reached, and the failing vectors.
struct Report {
    var vectors = 0
    var statuses: [String: Int] = [:]
    var verbsRun: Set<String> = []
    var findingCount = 0
    /// The usage errors seen, by the start of their message (to see where vectors stop).
    var usageErrors: [String: Int] = [:]
    /// Findings already saved, by their first line, so one bug does not fill the regression directory.
    private var saved: [String: Int] = [:]

    /// Counts the run of `vector`; `verbs` are the word paths of the registry, to tell which verb ran.
    mutating func count(_ vector: Vector, _ outcome: Harness.Outcome, verbs: [[String]]) {
        vectors += 1
        switch outcome.run.ending {
        case .exited(let status): statuses["exit \(status)", default: 0] += 1
        case .signaled(let signal): statuses["signal \(signal)", default: 0] += 1
        case .timedOut: statuses["timeout", default: 0] += 1
        }
        if outcome.run.ending == .exited(64) {
            let line = String(decoding: outcome.run.stderr.prefix(200), as: UTF8.self).split(separator: "\n").first
            usageErrors[String((line ?? "").prefix(36)), default: 0] += 1
        }
        let words = vector.arguments.map { String(decoding: $0, as: UTF8.self) }
        if let path = verbs.filter({ words.starts(with: $0) }).max(by: { $0.count < $1.count }) {
            verbsRun.insert(path.joined(separator: " "))
        }
    }

    /// Prints a failing vector and the command that reproduces it, and saves it as a regression case.
    mutating func fail(_ vector: Vector, _ outcome: Harness.Outcome, reproduce: String, save: (String, String)?) {
        findingCount += 1
        let errors = String(decoding: outcome.run.stderr.prefix(2000), as: UTF8.self)
        say("FAILED: \(outcome.findings.joined(separator: "; "))")
        say("  $ \(vector.shellLine)   (log: \(vector.template ?? "none"), stdin: \(vector.input.rawValue))")
        say("  stderr: \(errors.split(separator: "\n").prefix(6).joined(separator: "\n          "))")
        say("  reproduce: stint-cli-fuzz \(reproduce)")
        guard let (directory, name) = save else { return }
        let key = outcome.findings.first ?? ""
        saved[key, default: 0] += 1
        guard saved[key]! <= 3 else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let comments = outcome.findings.map { "# " + $0 } + ["# $ " + vector.shellLine]
        let text = (comments + vector.fileLines).joined(separator: "\n") + "\n"
        let path = directory + "/" + name + ".vector"
        if (try? text.write(toFile: path, atomically: true, encoding: .utf8)) != nil { say("  saved as \(path)") }
    }

    /// The most frequent usage errors, one a line.
    var commonUsageErrors: String {
        usageErrors.sorted { $0.value > $1.value }.prefix(15).map { "  \($0.value)  \($0.key)" }.joined(separator: "\n")
    }

    func summary(seconds: Double) -> String {
        let rate = seconds > 0 ? Double(vectors) / seconds : 0
        let counts = statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return "\(vectors) vectors in \(Int(seconds)) s (\(String(format: "%.1f", rate))/s; \(counts)); "
            + "\(findingCount) failed"
    }

    /// The `.vector` files among `paths` (directories are searched, sorted by name).
    static func regressionFiles(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [path] }
            guard isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".vector") }.sorted().map { path + "/" + $0 }
        }
    }
}
