import StintCore

/// One line of a space case's commands.txt (docs/testing.md, "A space case"): what one device does at an
/// instant of its own clock, or what the sync tool (or a person restoring a backup) does to the devices.
///
/// ```
/// <instant> @<device> [(exit N)] <stint arguments>  [=> NAME] [-> name]   that device runs a command
/// <instant> deliver <from> <to>                                   <from>'s directory reaches <to>'s view
/// <instant> backup <device> <name>                                copies the device's log and state
/// <instant> restore <device> <name>                               puts that copy back in their place
/// ```
struct SpaceCommand {
    enum Action: Equatable {
        /// `@device`: runs `arguments` as that device; its exit status must be `status`; `=> NAME` keeps the
        /// first word it printed in `$NAME`; `-> name` compares what it printed with `expected/<name>.out`
        /// (and `.err`) as a query's output is.
        case run(device: String, arguments: [String], status: Int32, capture: String?, output: String?)
        /// The sync tool copies `from`'s own directory from `from`'s view into `to`'s view.
        case deliver(from: String, to: String)
        /// A backup of the device's log directory and device id file, kept as `name`.
        case backup(device: String, name: String)
        /// The backup `name` put back as the device's log directory and device id file.
        case restore(device: String, name: String)
    }

    /// The device's clock (`STINT_NOW`) for a command; the time of the step otherwise.
    var instant: Instant
    var action: Action
    /// The line number in commands.txt: the command's `STINT_ID_SEED`, and where a failure points.
    var line: Int
    /// The line as written, for messages.
    var text: String

    /// A device name: lowercase ASCII letters and digits (it follows `@`, and `$ID_` in placeholders).
    static func isDeviceName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A name for `=> NAME` or a backup: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    /// Parses commands.txt, reporting every bad line.
    static func parse(_ text: String, devices: [String], file: String) throws(CheckCase.Problem) -> [SpaceCommand] {
        var commands: [SpaceCommand] = []
        var problems: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            do throws(QueryWords.Failure) {
                commands.append(try parse(line, number: index + 1, devices: devices))
            } catch {
                problems.append("\(file):\(index + 1): \(error.message)")
            }
        }
        if let first = problems.first {
            throw CheckCase.Problem(.malformedCommand, first, more: Array(problems.dropFirst()))
        }
        guard !commands.isEmpty else { throw CheckCase.Problem(.malformedCommand, "\(file) lists no commands") }
        return commands
    }

    /// One line that is not blank or a comment.
    static func parse(_ line: String, number: Int, devices: [String]) throws(QueryWords.Failure) -> SpaceCommand {
        var words = try QueryWords.split(line)
        guard let first = words.first, case .instant(let instant) = ISO8601Timestamp.parse(first) else {
            throw QueryWords.Failure(
                message: "a line starts with the ISO 8601 instant it happens at, such as 2026-12-01T09:00:00Z, "
                    + "not '\(words.first ?? line)'")
        }
        words.removeFirst()
        func device(_ word: String) throws(QueryWords.Failure) -> String {
            guard devices.contains(word) else {
                throw QueryWords.Failure(
                    message: "'\(word)' is not a device of case.json (\(devices.joined(separator: ", ")))")
            }
            return word
        }
        let action: Action
        switch words.first {
        case let word? where word.hasPrefix("@"):
            action = try run(Array(words.dropFirst()), device: try device(String(word.dropFirst())))
        case "deliver" where words.count == 3:
            action = .deliver(from: try device(words[1]), to: try device(words[2]))
        case "backup" where words.count == 3 && isIdentifier(words[2]):
            action = .backup(device: try device(words[1]), name: words[2])
        case "restore" where words.count == 3 && isIdentifier(words[2]):
            action = .restore(device: try device(words[1]), name: words[2])
        default:
            throw QueryWords.Failure(
                message: "after the instant write '@<device> <stint arguments>', 'deliver <from> <to>', "
                    + "'backup <device> <name>' or 'restore <device> <name>', not '\(words.joined(separator: " "))'")
        }
        return SpaceCommand(instant: instant, action: action, line: number, text: line)
    }

    /// The part of a device's line after `@device`: `[(exit N)] <arguments> [=> NAME] [-> name]`.
    private static func run(_ words: [String], device: String) throws(QueryWords.Failure) -> Action {
        var words = words
        var status: Int32 = 0
        if words.first == "(exit" {
            guard words.count > 1, words[1].hasSuffix(")"), let value = Int32(words[1].dropLast()),
                (0...255).contains(value)
            else {
                throw QueryWords.Failure(message: "'(exit N)' takes a status 0…255")
            }
            status = value
            words.removeFirst(2)
        }
        var output: String?
        if words.count >= 2, words[words.count - 2] == "->" {
            guard let name = words.last, CheckCase.isQueryName(name) else {
                throw QueryWords.Failure(
                    message: "'-> name' takes a name of letters, digits, '-', '_' and '.': it names expected/<name>.out"
                )
            }
            output = name
            words.removeLast(2)
        }
        var capture: String?
        if words.count >= 2, words[words.count - 2] == "=>" {
            guard let name = words.last, isIdentifier(name) else {
                throw QueryWords.Failure(message: "'=> NAME' takes a name of letters, digits and '_'")
            }
            capture = name
            words.removeLast(2)
        }
        guard !words.isEmpty else {
            throw QueryWords.Failure(message: "@\(device) runs nothing; write e.g. '@\(device) start writing'")
        }
        return .run(device: device, arguments: words, status: status, capture: capture, output: output)
    }
}
