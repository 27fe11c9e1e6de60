import Foundation
import TestSupport
import Testing

@testable import StintCLI

/// The completion scripts, run in real shells against the built `stint` and a log with tags and timers.
@Suite(.serialized) struct CompletionScriptTests {
    /// The `stint` executable built next to the test bundle.
    static var stint: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = (executable as NSString).deletingLastPathComponent + "/stint"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    let directory = TemporaryDirectory(prefix: "stint-completion")
    var log: String { directory.appending("log") }

    init() throws {
        let host = TranscriptHost(directory: directory.path)
        host.apply(directive: "now 2026-11-29T15:40:00.000Z")
        for command in [
            ["init", "--tz", "UTC"], ["start", "writing", "--at", "14:00"], ["track", "09:00", "10:00", "email"],
            ["tag", "add", "deep work"],
        ] {
            try #require(host.run(command).status == 0)
        }
    }

    /// Runs `script` in `shell` with the log in `STINT_LOG` and the binary's directory first on `PATH`.
    func run(_ shell: String, _ arguments: [String], script: String) throws -> String {
        let stint = try #require(Self.stint, "stint is not next to the test bundle; build it with `swift build`")
        let path = directory.appending("completion-script")
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments + [path]
        var environment = ProcessInfo.processInfo.environment
        environment["STINT_LOG"] = log
        environment["STINT_BIN"] = stint
        environment["PATH"] = (stint as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin")
        environment["HOME"] = directory.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// What bash offers for `line` (the cursor at its end), as COMPREPLY.
    /// `line` is what was typed after the program name when bash split it differently (at `=`).
    func bash(_ words: [String], line: String? = nil) throws -> [String] {
        let bash = try #require(Self.shell("bash"))
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = """
            \(CompletionScripts.bash)
            COMP_WORDS=("$STINT_BIN" \(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count)
            COMP_LINE=\(line.map { "\"$STINT_BIN \($0)\"" } ?? "\"${COMP_WORDS[*]}\"")
            COMP_POINT=${#COMP_LINE}
            _stint_complete
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try run(bash, ["--norc", "--noprofile"], script: script).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesVerbsSubverbsAndOptions() throws {
        #expect(try bash(["rep"]) == ["report", "replay", "repair"])
        #expect(try bash(["tag", ""]) == ["add", "rename", "archive", "unarchive", "delete"])
        #expect(try bash(["report", "--s"]) == ["--since", "--split-at-midnight", "--seq"])
        #expect(try bash(["report", "--by", ""]) == ["day", "week", "month", "tag"])
        #expect(try bash(["completions", ""]) == ["bash", "zsh", "fish"])
    }

    @Test func bashCompletesTagsAndRunningRecordsFromTheLog() throws {
        #expect(try bash(["start", ""]) == ["email", "writing", "deep\\ work"])
        #expect(try bash(["report", "--tag", "d"]) == ["deep\\ work"])
        let running = try bash(["stop", ""])
        #expect(running.count == 1)
        #expect(running.first?.count == 8)
        #expect(try bash(["--log", log, "edit", ""]).count == 2)
        #expect(try bash(["--log", directory.appending("nowhere"), "stop", ""]) == [])
    }

    @Test func bashCompletesAValueAfterAnEqualsSign() throws {
        // bash splits `--color=n` into `--color`, `=`, `n`.
        #expect(try bash(["--color", "=", "n"], line: "--color=n") == ["never"])
        #expect(try bash(["--color", "="], line: "--color=") == ["=auto", "=always", "=never"])
    }

    @Test func bashFallsBackToFileNamesForPaths() throws {
        #expect(FileManager.default.createFile(atPath: directory.appending("logfile-a"), contents: nil))
        let candidates = try bash(["--log", directory.appending("logfile-")])
        #expect(candidates == [directory.appending("logfile-a")])
    }

    @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed"))
    func zshOffersTheCandidatesWithDescriptions() throws {
        let zsh = try #require(Self.shell("zsh"))
        let script = """
            compdef() { :; }
            compadd() { local -a a=("$@"); local n=${a[-1]}; print -l -- ${(P)n}; }
            _files() { print FILES; }
            \(CompletionScripts.zsh)
            words=("$STINT_BIN" report --by ""); CURRENT=4; PREFIX=""; _stint
            words=("$STINT_BIN" start w); CURRENT=3; PREFIX="w"; _stint
            words=("$STINT_BIN" --log ""); CURRENT=3; PREFIX=""; _stint
            """
        let lines = try run(zsh, ["-f"], script: script).split(separator: "\n").map(String.init)
        #expect(lines == ["day", "week", "month", "tag", "writing", "FILES"])
        #expect(try run(zsh, ["-n"], script: CompletionScripts.zsh).isEmpty)
    }

    @Test(.enabled(if: shell("fish") != nil, "fish is not installed"))
    func fishCompletesThroughCompleteC() throws {
        let fish = try #require(Self.shell("fish"))
        let script = """
            \(CompletionScripts.fish)
            complete -C "stint rep"
            complete -C "stint report --by "
            complete -C "stint start w"
            """
        let lines = try run(fish, ["--no-config"], script: script).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("report\t") })
        #expect(lines.contains("day"))
        #expect(lines.contains("writing\ttag"))
    }

    @Test func theBashScriptIsValidBash() throws {
        let bash = try #require(Self.shell("bash"))
        #expect(try run(bash, ["-n"], script: CompletionScripts.bash).isEmpty)
    }
}
