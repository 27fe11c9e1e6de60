import Foundation
import StintCore

/// `stint __complete`: the candidates for the last word of a partial command line, for the completion
/// scripts of `stint completions`. Hidden from help and docs.
///
/// Output: a first line `:words<TAB>WORD` (or `:files<TAB>WORD` when the shell should complete file
/// names), WORD being the word being completed as the completer read it; then one candidate per line,
/// `VALUE<TAB>DESCRIPTION`. Nothing is printed on standard error and the exit status is 0 even when the
/// log cannot be read: a completion never gets in the way of typing.
struct CompleteVerb: Verb {
    static let line = Option("line", "TEXT", "The command line up to the cursor, split as the shell would (bash).")

    static let spec = VerbSpec(
        path: ["__complete"],
        abstract: "Print completion candidates for a partial command line (used by the completion scripts).",
        arguments: [
            ArgumentSpec(name: "WORD", help: "The words after 'stint', the last one being typed.", arity: .zeroOrMore)
        ],
        options: [line],
        examples: [("stint __complete -- report --by ''", "Prints day, week, month and tag.")],
        isHidden: true
    )
    .noJSON(
        "it prints the candidates the completion scripts read")

    /// How many records `RECORD_ID` completion offers, most recent first.
    static let recordLimit = 50

    let words: [String]

    init(_ arguments: ParsedArguments) throws(CLIError) {
        if let line = arguments[Self.line] {
            words = Array(ShellWords.split(line).dropFirst())
        } else {
            words = arguments.positionals
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let request = Completer(registry: context.registry).request(for: words.isEmpty ? [""] : words)
        let current = request.prefix + request.typed
        var candidates: [Completer.Candidate] = []
        switch request.kind {
        case .words(let words):
            candidates = words
        case .value(.files):
            context.print(":files\t" + current)
            return
        case .value(let kind):
            candidates = values(kind, request: request, context: context)
        }
        context.print(":words\t" + current)
        for candidate in candidates {
            let description = candidate.description.replacingNewlines()
            context.print(request.prefix + candidate.value + (description.isEmpty ? "" : "\t" + description))
        }
    }

    func values(_ kind: ValueCompletion, request: Completer.Request, context: CommandContext) -> [Completer.Candidate] {
        let typed = request.typed
        switch kind {
        case .nothing, .files: return []
        case .choices(let choices):
            return choices.filter { $0.hasPrefix(typed) }.map { Completer.Candidate(value: $0, description: "") }
        case .verbs:
            // The verb words already given lead the way: `help tag <Tab>` offers add, rename…
            return Completer(registry: context.registry).verbCandidates(after: request.arguments)
                .filter { $0.value.hasPrefix(typed) }
        case .timeZones:
            return TimeZone.knownTimeZoneIdentifiers.sorted().filter { $0.hasPrefix(typed) }
                .map { Completer.Candidate(value: $0, description: "") }
        case .tags, .runningRecords, .records:
            var globals = context.globals
            if let path = request.logPath { globals.logPath = path }
            globals.quiet = true
            guard let reading = try? CommandContext(host: context.host, globals: globals, registry: context.registry),
                let view = try? reading.view(.latest)
            else { return [] }
            let state = view.state
            let format = TextFormat(calendar: state.calendar)
            switch kind {
            case .tags:
                let recent = Dictionary(state.recentTagIds.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
                return state.tags.values.filter { !$0.isDeleted && $0.name.lowercased().hasPrefix(typed.lowercased()) }
                    .sorted {
                        (recent[$0.id] ?? .max, $0.name.lowercased()) < (recent[$1.id] ?? .max, $1.name.lowercased())
                    }
                    .map { Completer.Candidate(value: $0.name, description: $0.isArchived ? "archived tag" : "tag") }
            case .runningRecords:
                return recordCandidates(
                    state.runningRecords.filter { matches($0, typed) }, typed: typed, state: state, format: format,
                    now: view.now)
            default:
                let records = state.records.values.filter { matches($0, typed) }
                    .sorted { ($0.start, $0.id) > ($1.start, $1.id) }
                return recordCandidates(
                    Array(records.prefix(CompleteVerb.recordLimit)), typed: typed, state: state, format: format,
                    now: view.now)
            }
        }
    }

    private func matches(_ record: Record, _ typed: String) -> Bool {
        record.id.uuidString.lowercased().hasPrefix(typed.lowercased())
    }

    /// The candidates for `records`, which all match `typed`.
    private func recordCandidates(
        _ records: [Record], typed: String, state: LogState, format: TextFormat, now: Instant
    ) -> [Completer.Candidate] {
        records.map { record in
            let id = typed.count >= 8 ? record.id.uuidString.lowercased() : TextFormat.short(record.id)
            let end = record.end.map { format.time($0) } ?? "running"
            let description =
                "\(format.date(record.start)) \(format.time(record.start))–\(end) "
                + format.tagName(record.tagId, tags: state.tags) + (record.comment.map { " " + $0 } ?? "")
            return Completer.Candidate(value: id, description: description)
        }
    }
}
