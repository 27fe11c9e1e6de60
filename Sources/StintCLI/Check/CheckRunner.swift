import Foundation
import StintCore

/// Runs the cases of `stint check`: every query of a case in process, through `StintCLI.run(arguments:host:)`,
/// with the case's log and "now" and nothing from the machine, compared with its expected files.
///
/// The Swift tests of Stint's own golden cases call the same runner, so `swift test` and
/// `stint check Events/golden` cannot disagree.
struct CheckRunner {
    /// A query (or a whole case) that did not pass, with lines explaining how.
    struct Failure {
        var caseName: String
        /// nil when the case itself could not be run.
        var query: String?
        var lines: [String]
    }

    /// The outcome of a run.
    struct Report {
        var passed = 0
        var failed = 0
        var failures: [Failure] = []
        /// Expected files written or removed by `--update`, for the person to review.
        var updated: [String] = []

        mutating func merge(_ other: Report) {
            passed += other.passed
            failed += other.failed
            failures += other.failures
            updated += other.updated
        }
    }

    /// Re-record the expected files instead of comparing with them.
    var update = false

    /// The case directories `path` names: itself when it is a case, else its subdirectories that are cases,
    /// by name.
    ///
    /// - Throws: ``CLIError`` (refused) when `path` is missing or holds no case.
    static func caseDirectories(in path: String) throws(CLIError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.refused("there is no directory at \(path); give a case directory or a directory of cases")
        }
        if CheckCase.isCase(path) { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let base = LocalPath(path)
        let cases = names.sorted().map { base?.appending($0).string ?? $0 }.filter(CheckCase.isCase)
        guard !cases.isEmpty else {
            throw CLIError.refused(
                "no cases in \(path): a case is a directory with \(CheckCase.eventsFile) and \(CheckCase.queriesFile) "
                    + "(see docs/testing.md)")
        }
        return cases
    }

    /// Runs every query of the case in `directory`.
    func run(caseAt directory: String) -> Report {
        var report = Report()
        let testCase: CheckCase
        do {
            testCase = try CheckCase(directory: directory)
        } catch {
            let name = LocalPath(directory)?.lastComponent ?? directory
            report.failed += 1
            report.failures.append(Failure(caseName: name, query: nil, lines: error.lines))
            return report
        }
        var build: SpaceBuild?
        if testCase.isSpace {
            do {
                build = try SpaceBuild(testCase)
            } catch {
                report.failed += 1
                report.failures.append(
                    Failure(
                        caseName: testCase.name, query: nil,
                        lines: error.lines + ["rerun: " + CheckRunner.spaceCommandLine(testCase)]))
                return report
            }
        }
        for query in testCase.queries {
            let lines = run(query, of: testCase, build: build, report: &report)
            if lines.isEmpty {
                report.passed += 1
            } else {
                report.failed += 1
                report.failures.append(Failure(caseName: testCase.name, query: query.name, lines: lines))
            }
        }
        if let build { compareFrontiers(of: build, report: &report) }
        orphans(of: testCase, report: &report)
        return report
    }

    /// What `query` printed and returned.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` against the case's log with the case's "now", in process.
    static func execute(_ arguments: [String], in testCase: CheckCase) -> Outcome {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let now = testCase.now
        let host = Host(
            environment: ["STINT_NOW": now.iso8601], clock: { now }, newID: { EntityID(high: 0, low: 0) },
            standardOutput: out, standardError: err)
        let status = StintCLI.run(arguments: ["--log", testCase.eventsPath] + arguments, host: host)
        return Outcome(status: status, stdout: out.text, stderr: err.text)
    }

    /// Runs one query; returns the lines explaining its failure, empty when it passed.
    private func run(
        _ query: CheckCase.Query, of testCase: CheckCase, build: SpaceBuild?, report: inout Report
    ) -> [String] {
        let outcome = build?.execute(query) ?? CheckRunner.execute(query.arguments, in: testCase)
        var lines: [String] = []
        if outcome.status != query.status {
            lines.append("exit status: expected \(query.status), got \(outcome.status)")
            if !outcome.stderr.isEmpty, !FileManager.default.fileExists(atPath: testCase.errorPath(query)) {
                lines += outcome.stderr.split(separator: "\n").map { "stderr: " + $0 }
            }
        }
        if update {
            record(outcome.stdout, at: testCase.outputPath(query), report: &report)
            if outcome.stderr.isEmpty {
                remove(testCase.errorPath(query), report: &report)
            } else {
                record(outcome.stderr, at: testCase.errorPath(query), report: &report)
            }
        } else {
            lines += compare(outcome.stdout, with: testCase.outputPath(query), stream: "stdout")
            if FileManager.default.fileExists(atPath: testCase.errorPath(query)) {
                lines += compare(outcome.stderr, with: testCase.errorPath(query), stream: "stderr")
            }
        }
        if !lines.isEmpty {
            lines.append(
                "rerun: "
                    + (testCase.isSpace
                        ? CheckRunner.spaceCommandLine(testCase, query: query)
                        : CheckRunner.commandLine(query.arguments, in: testCase)))
        }
        return lines
    }

    /// The differences between `actual` and the file at `path`, by JSON path or by line.
    private func compare(_ actual: String, with path: String, stream: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            return ["no expected \(stream) file \(path); record it with 'stint check --update' and review it"]
        }
        let differences = OutputDiff.differences(expected: String(decoding: data, as: UTF8.self), actual: actual)
        return OutputDiff.render(differences).map { "\(stream) \($0)" }
    }

    /// The command that reproduces a query from a shell.
    static func commandLine(_ arguments: [String], in testCase: CheckCase) -> String {
        let words = ["stint", "--log", testCase.eventsPath] + arguments
        return "STINT_NOW=\(testCase.now.iso8601) " + words.map(quoted).joined(separator: " ")
    }

    static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./:=+@,".unicodeScalars.contains($0))
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func record(_ text: String, at path: String, report: inout Report) {
        if let existing = FileManager.default.contents(atPath: path), existing == Data(text.utf8) { return }
        do {
            try FileManager.default.createDirectory(
                atPath: CheckRunner.parent(of: path), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            report.updated.append("wrote \(path)")
        } catch {
            report.failures.append(
                Failure(caseName: path, query: nil, lines: ["could not write \(path): \(error.localizedDescription)"]))
            report.failed += 1
        }
    }

    private func remove(_ path: String, report: inout Report) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        if (try? FileManager.default.removeItem(atPath: path)) != nil { report.updated.append("removed \(path)") }
    }

    /// Expected files that no query of queries.txt names: a failure, or removed by --update.
    private func orphans(of testCase: CheckCase, report: inout Report) {
        let names = Set(testCase.queries.map(\.name))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: testCase.expectedPath)) ?? []
        for file in files.sorted() {
            let stem = file.hasSuffix(".out") || file.hasSuffix(".err") ? String(file.dropLast(4)) : nil
            guard let stem, !names.contains(stem) else { continue }
            let path = testCase.expectedPath + "/" + file
            if update {
                remove(path, report: &report)
            } else {
                report.failed += 1
                report.failures.append(
                    Failure(
                        caseName: testCase.name, query: stem,
                        lines: [
                            "\(path) belongs to no query of \(CheckCase.queriesFile); remove it or run 'stint check --update'"
                        ]))
            }
        }
    }

    static func parent(of path: String) -> String {
        LocalPath(path)?.parent.string ?? "."
    }
}
