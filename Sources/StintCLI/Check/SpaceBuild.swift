import Foundation
import StintCore

/// The devices of a space case, made by running its commands.txt in process in a temporary directory.
///
/// Each device has `<root>/<device>/log` (its replica, `--log`), `state` (`XDG_STATE_HOME`: its device id
/// file) and `view` (its view of the shared folder). A command runs with `STINT_NOW` = its instant and
/// `STINT_ID_SEED` = its line number, so ids and device ids are the same on every run. In arguments,
/// `$VIEW` is the running device's view, `$ID_<device>` a device's id, `$NAME` what `=> NAME` kept.
/// Queries print paths under the temporary directory as `<tmp>/…`.
final class SpaceBuild {
    /// Why the devices could not be made: the command that failed and what it printed.
    struct Failure: Error {
        var lines: [String]
    }

    let testCase: CheckCase
    let root: String
    private var captured: [String: String] = [:]
    /// What the commands with `-> name` printed, by their line in commands.txt.
    private var outputs: [Int: CheckRunner.Outcome] = [:]

    /// Runs every command of `testCase`.
    ///
    /// - Throws: ``Failure`` naming the first command that did not end as its line says.
    init(_ testCase: CheckCase) throws(Failure) {
        self.testCase = testCase
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stint-check-\(testCase.name)-\(UUID().uuidString)")
        root = base.path
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            for device in testCase.devices {
                try FileManager.default.createDirectory(atPath: view(device), withIntermediateDirectories: true)
            }
        } catch {
            throw Failure(lines: ["cannot make the temporary directory \(root): \(error.localizedDescription)"])
        }
        for command in testCase.commands {
            do throws(Failure) {
                try perform(command)
            } catch {
                throw Failure(
                    lines: ["\(CheckCase.commandsFile):\(command.line): \(command.text)"] + error.lines)
            }
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    func log(_ device: String) -> String { root + "/" + device + "/log" }
    func view(_ device: String) -> String { root + "/" + device + "/view" }
    func state(_ device: String) -> String { root + "/" + device + "/state" }

    /// The device's id, from its id file; nil before its first space command.
    func id(of device: String) -> String? {
        guard let data = FileManager.default.contents(atPath: state(device) + "/stint/device") else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a query of the case on its device, at the case's "now", without an id seed.
    func execute(_ query: CheckCase.Query) -> CheckRunner.Outcome {
        if let line = query.command, let outcome = outputs[line] { return withoutRoot(outcome) }
        let device = query.device ?? testCase.devices[0]
        let arguments: [String]
        do {
            arguments = try expand(query.arguments, device: device)
        } catch {
            return CheckRunner.Outcome(status: 64, stdout: "", stderr: error.lines.joined(separator: "\n") + "\n")
        }
        return withoutRoot(run(arguments, device: device, now: testCase.now, seed: nil))
    }

    /// `outcome` with the temporary directory written `<tmp>`.
    private func withoutRoot(_ outcome: CheckRunner.Outcome) -> CheckRunner.Outcome {
        CheckRunner.Outcome(
            status: outcome.status, stdout: outcome.stdout.replacingOccurrences(of: root, with: "<tmp>"),
            stderr: outcome.stderr.replacingOccurrences(of: root, with: "<tmp>"))
    }

    /// `arguments` run by `device`, in process, with that device's log, id file and clock.
    func run(_ arguments: [String], device: String, now: Instant, seed: Int?) -> CheckRunner.Outcome {
        let out = CapturedOutput()
        let err = CapturedOutput()
        var environment = ["STINT_NOW": now.iso8601, "XDG_STATE_HOME": state(device)]
        if let seed { environment["STINT_ID_SEED"] = String(seed) }
        let host = Host(
            environment: environment, clock: { now }, newID: { EntityID(high: 0, low: 0) }, standardOutput: out,
            standardError: err)
        let status = StintCLI.run(arguments: ["--log", log(device)] + arguments, host: host)
        return CheckRunner.Outcome(status: status, stdout: out.text, stderr: err.text)
    }

    private func perform(_ command: SpaceCommand) throws(Failure) {
        switch command.action {
        case .run(let device, let arguments, let status, let capture, let output):
            let outcome = run(
                try expand(arguments, device: device), device: device, now: command.instant, seed: command.line)
            guard outcome.status == status else {
                throw Failure(
                    lines: ["exit status: expected \(status), got \(outcome.status)"]
                        + outcome.stderr.split(separator: "\n").map { "stderr: " + $0 })
            }
            if output != nil { outputs[command.line] = outcome }
            if let capture {
                captured[capture] = outcome.stdout.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            }
        case .deliver(let from, let to):
            guard let id = id(of: from) else {
                throw Failure(lines: ["\(from) has no device id yet: it has not run 'sync init' or 'sync join'"])
            }
            try copy(view(from) + "/devices/" + id, to: view(to) + "/devices/" + id)
            if !FileManager.default.fileExists(atPath: view(to) + "/space.json") {
                try copy(view(from) + "/space.json", to: view(to) + "/space.json")
            }
        case .backup(let device, let name):
            try copy(log(device), to: backup(name) + "/log")
            try copy(state(device), to: backup(name) + "/state")
        case .restore(let device, let name):
            guard FileManager.default.fileExists(atPath: backup(name)) else {
                throw Failure(lines: ["there is no backup '\(name)'; make it with '<instant> backup \(device) \(name)'"]
                )
            }
            try copy(backup(name) + "/log", to: log(device))
            try copy(backup(name) + "/state", to: state(device))
        }
    }

    private func backup(_ name: String) -> String { root + "/backups/" + name }

    /// Replaces `target` (a file or directory) with a copy of `source`.
    private func copy(_ source: String, to target: String) throws(Failure) {
        let files = FileManager.default
        do {
            if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
            try files.createDirectory(atPath: CheckRunner.parent(of: target), withIntermediateDirectories: true)
            try files.copyItem(atPath: source, toPath: target)
        } catch {
            throw Failure(lines: ["cannot copy \(source) to \(target): \(error.localizedDescription)"])
        }
    }

    /// `words` with `$VIEW`, `$ID_<device>` and the names `=> NAME` kept replaced.
    func expand(_ words: [String], device: String) throws(Failure) -> [String] {
        var result: [String] = []
        for word in words {
            var expanded = ""
            var rest = Substring(word)
            while let dollar = rest.firstIndex(of: "$") {
                expanded += rest[..<dollar]
                let after = rest[rest.index(after: dollar)...]
                let name = String(after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
                guard let value = try value(of: name, device: device) else {
                    throw Failure(lines: [
                        "'$\(name)' in '\(word)' names nothing: use $VIEW, $ID_<device> or a '=> NAME'"
                    ])
                }
                expanded += value
                rest = after.dropFirst(name.count)
            }
            result.append(expanded + rest)
        }
        return result
    }

    private func value(of name: String, device: String) throws(Failure) -> String? {
        if name == "VIEW" { return view(device) }
        if name.hasPrefix("ID_"), testCase.devices.contains(String(name.dropFirst(3))) {
            let other = String(name.dropFirst(3))
            guard let id = id(of: other) else { throw Failure(lines: ["$\(name): \(other) has no device id yet"]) }
            return id
        }
        return captured[name]
    }
}
