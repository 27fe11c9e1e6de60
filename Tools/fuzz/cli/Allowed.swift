import Glibc

/// What a command that succeeded may change in the sandbox: anything under a log directory it could have
/// been given (`--log`, `STINT_LOG`, the `XDG_DATA_HOME` and `HOME` defaults) and the directories leading to
/// it (`init` creates them), and the outputs it was named (`publish --to FILE`, `view --out FILE`; with `check --update`,
/// anything under the paths on the line).
struct Allowed {
    /// Absolute paths (symbolic links resolved where they exist) under which anything may change.
    private var subtrees: [[UInt8]] = []
    /// Absolute paths that may change themselves (directories on the way to a log, an output file).
    private var exact: Set<[UInt8]> = []
    private let box: String

    init(arguments: [[UInt8]], environment: [(key: String, value: [UInt8])], box: String, cwd: String) {
        self.box = box
        var logs: [[UInt8]] = []
        var outputs: [[UInt8]] = []
        for (index, argument) in arguments.enumerated() {
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            for (option, list) in [("--log", 0), ("--to", 1), ("--out", 1)] {
                let name = Array(option.utf8)
                var value: [UInt8]?
                if argument == name { value = next }
                if argument.starts(with: name + [UInt8(ascii: "=")]) {
                    value = Array(argument.dropFirst(name.count + 1))
                }
                if let value { if list == 0 { logs.append(value) } else { outputs.append(value) } }
            }
        }
        let variables = Dictionary(environment.map { ($0.key, $0.value) }) { $1 }
        if let log = variables["STINT_LOG"] { logs.append(log) }
        if let data = variables["XDG_DATA_HOME"] { logs.append(data + Array("/stint/log".utf8)) }
        if let home = variables["HOME"] { logs.append(home + Array("/.local/share/stint/log".utf8)) }
        if arguments.contains(Array("check".utf8)),
            arguments.contains(where: { $0.starts(with: Array("--update".utf8)) })
        {
            for argument in arguments { subtrees.append(Allowed.resolve(argument, cwd: cwd)) }
        }
        // A space: `sync init DIR` and `sync join DIR` write the shared folder DIR, and the device id file in
        // $XDG_STATE_HOME/stint (else $HOME/.local/state/stint) with the directories leading to it.
        let words = Allowed.plainWords(arguments)
        if words.count >= 2, words[0] == Array("sync".utf8),
            [Array("init".utf8), Array("join".utf8)].contains(words[1])
        {
            if words.count > 2, !words[2].isEmpty { subtrees.append(Allowed.walk(words[2], cwd: cwd).path) }
            var states: [[UInt8]] = []
            if let state = variables["XDG_STATE_HOME"], state.first == UInt8(ascii: "/") {
                states.append(state + Array("/stint".utf8))
            } else if let home = variables["HOME"] {
                states.append(home + Array("/.local/state/stint".utf8))
            }
            for state in states {
                let walked = Allowed.walk(state, cwd: cwd)
                exact.formUnion(walked.ancestors)
                subtrees.append(walked.path)
            }
        }
        for log in logs where !log.isEmpty {
            let walked = Allowed.walk(log, cwd: cwd)
            exact.formUnion(walked.ancestors)
            subtrees.append(walked.path)
        }
        for output in outputs where !output.isEmpty {
            exact.insert(Allowed.resolve(output, cwd: cwd))
        }
    }

    /// The words the parser reads as the verb's words and its positionals, in order: a word not starting
    /// with '-', '-' itself, a negative number ('-1', read as a value), or any word after '--'; the value
    /// after an option that takes one (`--log PATH`, `--color WHEN`, `sync join --name NAME`) is skipped.
    private static func plainWords(_ arguments: [[UInt8]]) -> [[UInt8]] {
        let takingValues = ["--log", "--color", "--name"].map { Array($0.utf8) }
        var words: [[UInt8]] = []
        var afterDashes = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if afterDashes || word.first != UInt8(ascii: "-") || word == [UInt8(ascii: "-")] || isNegativeNumber(word) {
                words.append(word)
            } else if word == Array("--".utf8) {
                afterDashes = true
            } else if takingValues.contains(word) {
                index += 1
            }
        }
        return words
    }

    /// Whether the parser takes `word` for a value rather than an option: '-' and then numerals only.
    private static func isNegativeNumber(_ word: [UInt8]) -> Bool {
        let text = String(decoding: word, as: UTF8.self)
        return text.count > 1 && text.dropFirst().allSatisfy(\.isNumber)
    }

    /// Whether the entry at `relative` (to the sandbox) may have changed.
    func permits(_ relative: [UInt8], isDirectory: Bool) -> Bool {
        let path = Array(box.utf8) + [UInt8(ascii: "/")] + relative
        if exact.contains(path) { return true }
        return subtrees.contains { root in
            !root.isEmpty && (path == root || path.starts(with: root + [UInt8(ascii: "/")]))
        }
    }

    static func absolute(_ path: [UInt8], cwd: String) -> [UInt8] {
        path.first == UInt8(ascii: "/") ? path : Array(cwd.utf8) + [UInt8(ascii: "/")] + path
    }

    /// The path with symbolic links, `.` and `..` resolved one component at a time, as the kernel does
    /// (a `..` after a name that does not exist yet is taken lexically), and every directory on the way.
    static func walk(_ path: [UInt8], cwd: String) -> (path: [UInt8], ancestors: [[UInt8]]) {
        let slash = UInt8(ascii: "/")
        var current: [UInt8] = []
        var ancestors: [[UInt8]] = []
        for component in absolute(path, cwd: cwd).split(separator: slash) {
            if component.elementsEqual([UInt8(ascii: ".")]) { continue }
            if component.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                current = Array(current[..<(current.lastIndex(of: slash) ?? 0)])
            } else {
                current += [slash] + component
                var info = stat()
                if lstat(current.cString, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
                    let real = realpath(current.cString, nil)
                {
                    current = UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) }
                    free(real)
                }
            }
            ancestors.append(current.isEmpty ? [slash] : current)
        }
        return (current.isEmpty ? [slash] : current, ancestors)
    }

    static func resolve(_ path: [UInt8], cwd: String) -> [UInt8] { walk(path, cwd: cwd).path }
}
