import Foundation
import Glibc
import StintCore

/// Runs vectors against the real `stint`, each in a fresh sandbox, and checks the properties every run must
/// have: a documented exit status and never a signal; on failure an `error:` line and no backtrace; a
/// refused command changes no file; a command that succeeded changes nothing but the log and the output it
/// was given.
final class Harness {
    let stint: String
    /// Where the templates, inputs and the sandbox live (absolute, without symbolic links).
    let root: String
    let timeout: Double
    var box: String { root + "/box" }
    var workingDirectory: String { box + "/w/cwd" }
    private(set) var tags: [[UInt8]] = []
    private(set) var recordIDs: [[UInt8]] = []
    /// The seeded logs, by name, with the zone each is in.
    static let templates = [
        ("berlin", "Europe/Berlin"), ("new-york", "America/New_York"), ("lord-howe", "Australia/Lord_Howe"),
    ]
    /// Entries that appeared in a watched directory while a vector that could not reach it ran (the
    /// machine is shared: another program made them), reported as notes, not findings.
    private(set) var foreignEntries: [String] = []

    init(stint: String, root: String, golden: String?, timeout: Double) {
        self.stint = stint
        self.timeout = timeout
        Tree.remove(root)
        guard mkdir(root, 0o755) == 0, let real = realpath(root, nil) else { fail("cannot create \(root)") }
        self.root = String(cString: real)
        free(real)
        for directory in ["templates", "fixtures", "inputs", "output"] { mkdir(self.root + "/" + directory, 0o755) }
        makeFixtures(golden: golden)
        for (name, zone) in Harness.templates { makeTemplate(name, zone: zone) }
    }

    /// System directories a run must not touch (the vectors name `/`, `/dev/null`, `/dev/full`, `/proc/self`).
    static let watched = ["/", "/dev"]

    static func names(in directory: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    }

    private func makeFixtures(golden: String?) {
        let fixtures = root + "/fixtures"
        writeFile(fixtures + "/file.txt", Array("not a log\n".utf8))
        mkdir(fixtures + "/dir", 0o755)
        mkdir(fixtures + "/full", 0o755)
        writeFile(fixtures + "/full/x", Array("x\n".utf8))
        writeFile(
            fixtures + "/timew.json",
            Array(
                #"[{"id":1,"start":"20261120T080000Z","end":"20261120T090000Z","tags":["imported","writing"]}]"#.utf8
            ))
        writeFile(
            fixtures + "/frames", Array(#"[[1763625600, 1763629200, "watson", "0123abcd", ["t"], 1763629200]]"#.utf8))
        symlink("log", fixtures + "/link")
        if let golden, FileManager.default.fileExists(atPath: golden + "/events.jsonl") {
            try? FileManager.default.copyItem(atPath: golden, toPath: fixtures + "/case")
        }
        writeFile(root + "/inputs/empty", [])
        writeFile(root + "/inputs/timewarrior", readFile(fixtures + "/timew.json"))
        var random = SplitMix64(seed: 16)
        writeFile(root + "/inputs/garbage", (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    /// A log of a week in `zone`: records across midnight, a tag, an undo, two timers running.
    private func makeTemplate(_ name: String, zone: String) {
        let directory = root + "/templates/" + name
        mkdir(directory, 0o755)
        let commands: [(String, [String])] = [
            ("2026-11-23T07:00:00Z", ["init", "--tz", zone, "--first-weekday", "2"]),
            ("2026-11-23T08:00:00Z", ["start", "writing", "--comment", "draft"]),
            ("2026-11-23T09:30:00Z", ["stop"]),
            ("2026-11-24T12:00:00Z", ["track", "2026-11-24T10:00:00Z", "2026-11-24T11:00:00Z", "reading"]),
            ("2026-11-28T22:30:00Z", ["start", "errands"]),
            ("2026-11-28T23:00:00Z", ["tag", "add", "projects", "--color", "#29BF12"]),
            ("2026-11-29T01:00:00Z", ["stop"]),
            ("2026-11-29T08:00:00Z", ["start", "writing"]),
            ("2026-11-29T09:00:00Z", ["start", "email", "--comment", "inbox"]),
            ("2026-11-29T09:10:00Z", ["tag", "archive", "projects"]),
            ("2026-11-29T09:20:00Z", ["undo"]),
        ]
        for (number, (now, arguments)) in commands.enumerated() {
            let environment = ["STINT_NOW=\(now)", "STINT_ID_SEED=\(number + 1)", "HOME=/nonexistent", "STINT_LOG=log"]
            let run = ChildRun.run(
                stint, arguments.map { Array($0.utf8) }, environment: environment.map { Array($0.utf8) },
                directory: directory, input: root + "/inputs/empty", scratch: root + "/output", timeout: 60)
            guard run.ending == .exited(0) else {
                fail(
                    "cannot make the seeded log \(name): stint \(arguments): \(String(decoding: run.stderr, as: UTF8.self))"
                )
            }
            for word in String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            where word.count == 36 && word.filter({ $0 == "-" }).count == 4 {
                recordIDs.append(Array(word.utf8))
            }
        }
        tags = ["writing", "reading", "errands", "projects", "email"].map { Array($0.utf8) }
        if name == Harness.templates[0].0 {
            writeFile(root + "/inputs/log-lines", readFile(directory + "/log/00000000000000000001.jsonl.zst"))
            let snapshot = ChildRun.run(
                stint, [Array("snapshot".utf8)],
                environment: ["STINT_NOW=2026-11-29T10:00:00Z", "HOME=/nonexistent", "STINT_LOG=log"].map {
                    Array($0.utf8)
                }, directory: directory, input: root + "/inputs/empty", scratch: root + "/output", timeout: 60)
            writeFile(root + "/fixtures/snapshot.json", snapshot.stdout)
        }
    }

    /// The outcome of one vector: how it ended, what it printed on standard error, and what went wrong.
    struct Outcome {
        var run: ChildRun
        var findings: [String]
    }

    func run(_ vector: Vector) -> Outcome {
        Tree.remove(box)
        for directory in [box, box + "/home", box + "/w", workingDirectory] { mkdir(directory, 0o755) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/fixtures")) ?? [] {
            try? FileManager.default.copyItem(atPath: root + "/fixtures/" + name, toPath: workingDirectory + "/" + name)
        }
        if let template = vector.template {
            try? FileManager.default.copyItem(
                atPath: root + "/templates/" + template + "/log", toPath: workingDirectory + "/log")
        }
        let environment = self.environment(vector)
        let arguments = vector.arguments.map { Vector.expand($0, box: box) }
        let before = Tree(box)
        let systemBefore = Harness.watched.map(Harness.names(in:))
        let run = ChildRun.run(
            stint, arguments, environment: environment.map { $0.key.utf8 + [UInt8(ascii: "=")] + $0.value },
            directory: workingDirectory, input: root + "/inputs/" + vector.input.rawValue, scratch: root + "/output",
            timeout: timeout)
        let after = Tree(box)
        var findings = Harness.check(run)
        let changed = Set(before.entries.keys).union(after.entries.keys).filter {
            before.entries[$0] != after.entries[$0]
        }
        if run.ending != .exited(0), !changed.isEmpty {
            findings.append("a command that failed changed files: " + Harness.describe(changed))
        }
        if run.ending == .exited(0) {
            let allowed = Allowed(arguments: arguments, environment: environment, box: box, cwd: workingDirectory)
            let outside = changed.filter { !allowed.permits($0, isDirectory: after.entries[$0] == .directory) }
            if !outside.isEmpty {
                findings.append("files changed outside the log and the named output: " + Harness.describe(outside))
            }
        }
        // Only a vector that names an absolute path outside the sandbox can reach `/` or `/dev` (the
        // working directory is deep in the sandbox, and `..` goes up two levels at most).
        let reachesOut = (arguments + environment.map(\.value)).contains {
            $0.first == UInt8(ascii: "/") && !$0.starts(with: Array(box.utf8))
        }
        for (directory, names) in zip(Harness.watched, systemBefore) {
            let added = Harness.names(in: directory).subtracting(names).sorted()
            guard !added.isEmpty else { continue }
            if reachesOut {
                findings.append("new entries in \(directory): \(added)")
            } else {
                foreignEntries.append("\(directory): \(added)")
            }
        }
        for device in ["/dev/null", "/dev/full"] {
            var info = stat()
            if lstat(device, &info) != 0 || (info.st_mode & S_IFMT) != S_IFCHR {
                findings.append("\(device) is no longer a character device")
            }
        }
        return Outcome(run: run, findings: findings)
    }

    /// The environment of a run: a fixed base (the clock, the log `log` in the working directory, a home
    /// in the sandbox, no lock waits), then the vector's changes.
    func environment(_ vector: Vector) -> [(key: String, value: [UInt8])] {
        var variables: [(key: String, value: [UInt8])] = [
            ("PATH", Array("/usr/bin:/bin".utf8)), ("HOME", Array((box + "/home").utf8)),
            ("STINT_NOW", Array("2026-11-29T13:00:00Z".utf8)), ("STINT_LOCK_TIMEOUT", Array("0".utf8)),
            ("STINT_LOG", Array("log".utf8)),
        ]
        for variable in vector.environment {
            variables.removeAll { $0.key == variable.name }
            if let value = variable.value { variables.append((variable.name, Vector.expand(value, box: box))) }
        }
        return variables
    }

    /// The properties of a run that do not depend on files.
    static func check(_ run: ChildRun) -> [String] {
        var findings: [String] = []
        let errors = String(decoding: run.stderr, as: UTF8.self)
        switch run.ending {
        case .signaled(let signal): findings.append("killed by signal \(signal)")
        case .timedOut: findings.append("did not finish in time (killed)")
        case .exited(let status):
            if ![0, 1, 64, 65].contains(status) { findings.append("undocumented exit status \(status)") }
            if status != 0, !errors.split(separator: "\n").contains(where: { $0.hasPrefix("error: ") }) {
                findings.append("exit status \(status) without an 'error: …' line on standard error")
            }
        }
        let markers = [
            "Fatal error:", "*** Program crashed", "💣 Program crashed", "*** Signal", "Current stack trace:",
            "Stack dump:", "Backtrace took",
        ]
        let lines = errors.split(separator: "\n")
        if let marker = markers.first(where: { marker in lines.contains { $0.hasPrefix(marker) } }) {
            findings.append("a crash report on standard error ('\(marker)')")
        }
        return findings
    }

    static func describe(_ paths: Set<[UInt8]>) -> String {
        let names = paths.map { Vector.quote($0) }.sorted()
        return names.prefix(8).joined(separator: ", ") + (names.count > 8 ? " and \(names.count - 8) more" : "")
    }
}
