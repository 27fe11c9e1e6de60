import Foundation
import StintCore
import StintEngine

/// One projection test case of `stint check`: a log, the queries to run against it, and their expected
/// outputs (docs/testing.md describes the layout).
///
/// ```
/// <case>/events.jsonl          the log, as 'stint history --json' prints it
/// <case>/queries.txt           "name: <stint arguments>" or "name (exit N): <arguments>"; # comments
/// <case>/case.json             optional: {"now": "<ISO 8601 instant>", "description": "…"}
/// <case>/expected/<name>.out   the query's standard output, byte for byte
/// <case>/expected/<name>.err   optional: its standard error, byte for byte
/// ```
///
/// A space case (`"devices": ["a", "b"]` in case.json) has no events.jsonl: its commands.txt is run at
/// check time on each device (``SpaceCommand``, ``SpaceBuild``), and its queries read as
/// `name: @<device> <stint arguments>`.
struct CheckCase {
    /// One line of queries.txt.
    struct Query {
        var name: String
        var arguments: [String]
        /// The exit status the query must end with (0 unless the line says `(exit N)`).
        var status: Int32
        /// The line number in queries.txt.
        var line: Int
        /// The device whose replica a space case's query reads (`@a`); nil in a log case.
        var device: String? = nil
        /// Set when the "query" is a command of a space case's commands.txt whose output is compared
        /// (`-> name`): its line there; `line` is then the same.
        var command: Int? = nil
    }

    /// Why a case cannot be run: a missing file or a malformed line.
    struct Problem: Error {
        enum Code: Equatable {
            /// events.jsonl or queries.txt is missing.
            case missingFile
            /// A line of queries.txt is not `name: arguments` (or its name or quoting is wrong).
            case malformedQuery
            /// Two queries have the same name.
            case duplicateName
            /// A query runs a verb that changes a log (start, edit, import…).
            case writeVerb
            /// case.json is not the object it should be.
            case invalidSettings
            /// events.jsonl cannot be read (to find the "now" of the case).
            case unreadableLog
            /// A line of a space case's commands.txt is not one of its forms.
            case malformedCommand
        }

        var code: Code
        var message: String
        /// The other problems found with the same file (every bad line of queries.txt, not only the first).
        var more: [String] = []

        init(_ code: Code, _ message: String, more: [String] = []) {
            self.code = code
            self.message = message
            self.more = more
        }

        /// The message and the other problems, one a line.
        var lines: [String] { [message] + more }
    }

    static let eventsFile = "events.jsonl"
    static let queriesFile = "queries.txt"
    static let settingsFile = "case.json"
    static let commandsFile = "commands.txt"
    static let expectedDirectory = "expected"

    let directory: String
    /// The directory's last path component.
    let name: String
    /// The "now" of queries without --at or --seq: case.json's "now", else the log's last event's time.
    let now: Instant
    let queries: [Query]
    /// A space case's devices, by name (case.json's "devices"); empty for a case with an events.jsonl.
    let devices: [String]
    /// A space case's commands.txt, run at check time; empty for a case with an events.jsonl.
    let commands: [SpaceCommand]

    /// Whether the case is built from commands on several devices instead of read from events.jsonl.
    var isSpace: Bool { !devices.isEmpty }

    var eventsPath: String { directory + "/" + CheckCase.eventsFile }
    var expectedPath: String { directory + "/" + CheckCase.expectedDirectory }

    func outputPath(_ query: Query) -> String { expectedPath + "/" + query.name + ".out" }
    func errorPath(_ query: Query) -> String { expectedPath + "/" + query.name + ".err" }

    /// Whether `directory` looks like a case (it has a queries.txt or an events.jsonl).
    static func isCase(_ directory: String) -> Bool {
        let files = FileManager.default
        return files.fileExists(atPath: directory + "/" + queriesFile)
            || files.fileExists(atPath: directory + "/" + eventsFile)
    }

    /// Reads the case in `directory`.
    init(directory: String) throws(Problem) {
        let path = LocalPath(directory)
        let trimmed = path?.string ?? directory
        self.directory = trimmed
        name = path?.lastComponent ?? trimmed
        let files = FileManager.default
        let settings = try CheckCase.readSettings(directory: trimmed)
        devices = settings.devices
        if devices.isEmpty {
            guard files.fileExists(atPath: trimmed + "/" + CheckCase.eventsFile) else {
                throw Problem(
                    .missingFile,
                    "\(trimmed) has no \(CheckCase.eventsFile); write the log there with 'stint history --json > \(CheckCase.eventsFile)'"
                )
            }
            commands = []
        } else {
            commands = try CheckCase.readCommands(directory: trimmed, devices: devices)
        }
        guard let queries = files.contents(atPath: trimmed + "/" + CheckCase.queriesFile) else {
            throw Problem(
                .missingFile,
                "\(trimmed) has no \(CheckCase.queriesFile); list the queries there, one 'name: <stint arguments>' a line"
            )
        }
        self.queries = try CheckCase.withCommandOutputs(
            try CheckCase.parseQueries(
                String(decoding: queries, as: UTF8.self), file: trimmed + "/" + CheckCase.queriesFile,
                devices: devices),
            commands: commands, file: trimmed + "/" + CheckCase.commandsFile)
        if let now = settings.now {
            self.now = now
        } else if let last = commands.last {
            now = last.instant
        } else {
            now = try CheckCase.lastEventTime(directory: trimmed)
        }
    }

    /// A space case's commands.txt, which must be there, and no events.jsonl, which would not be read.
    static func readCommands(directory: String, devices: [String]) throws(Problem) -> [SpaceCommand] {
        let files = FileManager.default
        guard !files.fileExists(atPath: directory + "/" + eventsFile) else {
            throw Problem(
                .invalidSettings,
                "\(directory) is a space case (case.json names devices): it is built from \(commandsFile) when checked; "
                    + "remove its \(eventsFile)")
        }
        guard let text = files.contents(atPath: directory + "/" + commandsFile) else {
            throw Problem(
                .missingFile,
                "\(directory) has no \(commandsFile); a space case lists there what each device does, one "
                    + "'<instant> @<device> <stint arguments>' a line (docs/testing.md)")
        }
        return try SpaceCommand.parse(
            String(decoding: text, as: UTF8.self), devices: devices, file: directory + "/" + commandsFile)
    }

    /// What case.json says: the "now" of the queries, and the devices of a space case.
    struct Settings {
        var now: Instant?
        var devices: [String] = []
    }

    /// case.json's "now" and "devices" (both optional; no file: neither).
    static func readSettings(directory: String) throws(Problem) -> Settings {
        let path = directory + "/" + settingsFile
        var settings = Settings()
        guard let data = FileManager.default.contents(atPath: path) else { return settings }
        guard let json = try? JSON.parse(Array(data)), let fields = json.objectFields else {
            throw Problem(.invalidSettings, "\(path) is not a JSON object; write {\"now\": \"2026-03-08T17:00:00Z\"}")
        }
        for field in fields where !["now", "description", "devices"].contains(field.key) {
            throw Problem(
                .invalidSettings,
                "\(path) has an unknown member \"\(field.key)\"; only \"now\", \"description\" and \"devices\" are read"
            )
        }
        if let text = json["now"] {
            guard let string = text.stringValue, case .instant(let instant) = ISO8601Timestamp.parse(string) else {
                throw Problem(
                    .invalidSettings,
                    "\(path): \"now\" must be an ISO 8601 instant with a zone, such as 2026-03-08T17:00:00Z")
            }
            settings.now = instant
        }
        if let list = json["devices"] {
            let names = list.arrayValue?.compactMap(\.stringValue) ?? []
            guard !names.isEmpty, names.count == list.arrayValue?.count, Set(names).count == names.count,
                names.allSatisfy(SpaceCommand.isDeviceName)
            else {
                throw Problem(
                    .invalidSettings,
                    "\(path): \"devices\" must list distinct device names of lowercase letters and digits, such as [\"a\", \"b\"]"
                )
            }
            settings.devices = names
        }
        return settings
    }

    /// A name that can name `expected/<name>.out`: letters, digits, `-`, `_` and `.`, not starting with `.`.
    static func isQueryName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// `queries` and, after them, the commands whose output is compared (`-> name`), as queries.
    static func withCommandOutputs(_ queries: [Query], commands: [SpaceCommand], file: String) throws(Problem)
        -> [Query]
    {
        var all = queries
        var names = Set(queries.map(\.name))
        for command in commands {
            guard case .run(let device, let arguments, let status, _, let output?) = command.action else { continue }
            guard names.insert(output).inserted else {
                throw Problem(.duplicateName, "\(file):\(command.line): the name '\(output)' is used twice")
            }
            all.append(
                Query(
                    name: output, arguments: arguments, status: status, line: command.line, device: device,
                    command: command.line))
        }
        return all
    }

    /// The time of the last event of the case's events.jsonl.
    static func lastEventTime(directory: String) throws(Problem) -> Instant {
        let events = directory + "/" + eventsFile
        do {
            let cursor = try LogSource.open(path: events).events(from: 1)
            var last: Instant?
            while let event = try cursor.next() { last = event.at }
            guard let last else { throw Problem(.unreadableLog, "\(events) has no events") }
            return last
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(.unreadableLog, "cannot read \(events): \(error)")
        }
    }

    /// Parses queries.txt: `name: arguments` or `name (exit N): arguments`, `#` comments, blank lines.
    /// In a space case (`devices` not empty) each query names its device first: `name: @a <arguments>`.
    static func parseQueries(_ text: String, file: String, devices: [String] = []) throws(Problem) -> [Query] {
        var queries: [Query] = []
        var names = Set<String>()
        var problems: [Problem] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            do throws(Problem) {
                let query = try parseQuery(line, number: index + 1, file: file, devices: devices)
                guard names.insert(query.name).inserted else {
                    throw Problem(.duplicateName, "\(file):\(index + 1): the name '\(query.name)' is used twice")
                }
                queries.append(query)
            } catch {
                problems.append(error)
            }
        }
        if let first = problems.first {
            throw Problem(first.code, first.message, more: problems.dropFirst().map(\.message))
        }
        guard !queries.isEmpty else { throw Problem(.malformedQuery, "\(file) lists no queries") }
        return queries
    }

    /// One line of queries.txt that is not blank or a comment.
    static func parseQuery(_ line: String, number: Int, file: String, devices: [String] = []) throws(Problem) -> Query {
        guard let colon = line.firstIndex(of: ":") else {
            throw Problem(.malformedQuery, "\(file):\(number): write 'name: <stint arguments>', not '\(line)'")
        }
        var head = String(line[..<colon]).trimmingSpaces
        var status: Int32 = 0
        if head.hasSuffix(")"), let open = head.range(of: " (exit ") {
            let digits = head[open.upperBound..<head.index(before: head.endIndex)]
            guard let value = Int32(digits), (0...255).contains(value) else {
                throw Problem(.malformedQuery, "\(file):\(number): '(exit N)' takes a status 0…255, not '\(digits)'")
            }
            status = value
            head = String(head[..<open.lowerBound]).trimmingSpaces
        }
        guard isQueryName(head) else {
            throw Problem(
                .malformedQuery,
                "\(file):\(number): the name '\(head)' may hold only letters, digits, '-', '_' and '.' (it names expected/<name>.out)"
            )
        }
        var arguments: [String]
        do {
            arguments = try QueryWords.split(String(line[line.index(after: colon)...]))
        } catch {
            throw Problem(.malformedQuery, "\(file):\(number): \(error.message)")
        }
        var device: String?
        if !devices.isEmpty {
            guard let first = arguments.first, first.hasPrefix("@"), devices.contains(String(first.dropFirst())) else {
                throw Problem(
                    .malformedQuery,
                    "\(file):\(number): a space case's query names the device it reads first, one of "
                        + devices.map { "@" + $0 }.joined(separator: ", ") + ": write '\(head): @\(devices[0]) status'")
            }
            device = String(first.dropFirst())
            arguments.removeFirst()
        }
        guard !arguments.isEmpty else {
            throw Problem(
                .malformedQuery,
                "\(file):\(number): '\(head)' has no arguments; write e.g. '\(head): summary --period week'")
        }
        if arguments.contains(where: { $0 == "--log" || $0.hasPrefix("--log=") }) {
            throw Problem(.malformedQuery, "\(file):\(number): queries read the case's \(eventsFile); remove --log")
        }
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        if let spec = try? ArgumentParser(registry: registry).parse(arguments).spec, spec.changesLog {
            throw Problem(
                .writeVerb,
                "\(file):\(number): '\(spec.name)' changes a log, and a case's log is a fixed recording; queries "
                    + "ask read verbs (snapshot, summary, timeline, live-activity, widget, status, log, report, tags, "
                    + "history, replay, diff, verify): build the log from commands instead "
                    + "(Tools/golden/build-case.sh and commands.txt, docs/testing.md)")
        }
        return Query(name: head, arguments: arguments, status: status, line: number, device: device)
    }
}
