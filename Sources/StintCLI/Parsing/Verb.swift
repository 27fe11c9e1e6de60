/// One verb of the CLI: its description, the validation of its arguments, and what it does.
protocol Verb: Sendable {
    static var spec: VerbSpec { get }
    /// Checks the arguments' meaning (not their shape, which the parser checked) and keeps typed values.
    init(_ arguments: ParsedArguments) throws(CLIError)
    /// Runs the verb; output goes through the context.
    func run(_ context: CommandContext) throws(CLIError)
}

/// The verbs the CLI knows, in the order `stint --help` lists them.
struct VerbRegistry: Sendable {
    let verbs: [any Verb.Type]

    /// The word paths of all verbs.
    var paths: [[String]] { verbs.map { verb in verb.spec.path } }

    /// The specs of the verbs a person is shown (help, docs, suggestions, completion), in order.
    var visibleSpecs: [VerbSpec] { verbs.map { $0.spec }.filter { !$0.isHidden } }

    func spec(for words: [String]) -> VerbSpec? {
        verbs.first { $0.spec.path == words }?.spec
    }

    func type(for spec: VerbSpec) -> (any Verb.Type)? {
        verbs.first { $0.spec.path == spec.path }
    }

    /// Whether `words` are the start of a longer verb path (`tag` of `tag add`).
    func isGroup(_ words: [String]) -> Bool {
        verbs.contains { $0.spec.path.count > words.count && Array($0.spec.path.prefix(words.count)) == words }
    }

    /// The words that may follow `words` on the way to a visible verb: the top-level verbs and groups for
    /// `[]`, `add`, `rename`… for `["tag"]`.
    func nextWords(after words: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for spec in visibleSpecs where spec.path.count > words.count && Array(spec.path.prefix(words.count)) == words {
            let word = spec.path[words.count]
            if seen.insert(word).inserted { result.append(word) }
        }
        return result
    }

    /// Verbs of Timewarrior and Watson that Stint names differently, for "did you mean" suggestions.
    static let otherToolsVerbs: [String: String] = [
        "restart": "continue", "resume": "continue", "add": "track", "remove": "delete", "rm": "delete",
        "projects": "tags", "frames": "log", "aggregate": "report", "totals": "report", "day": "chart",
        "week": "chart", "month": "chart", "shorten": "edit", "lengthen": "edit", "move": "edit",
        "modify": "edit", "annotate": "edit", "rename": "tag rename", "current": "status",
    ]

    func unknownVerbMessage(_ words: [String]) -> String {
        let typed = words.joined(separator: " ")
        let parent = Array(words.dropLast())
        let siblings = visibleSpecs.map(\.path)
            .filter { $0.count >= words.count && Array($0.prefix(parent.count)) == parent }
            .map { $0.prefix(words.count).joined(separator: " ") }
        if words.count == 1, let known = VerbRegistry.otherToolsVerbs[typed.lowercased()],
            visibleSpecs.contains(where: { $0.name == known })
        {
            return "unknown verb '\(typed)'. Did you mean '\(known)'? (See 'stint help \(known)'.)"
        }
        if let nearest = Suggestion.nearest(to: typed, among: Array(Set(siblings))) {
            return "unknown verb '\(typed)'. Did you mean '\(nearest)'?"
        }
        return "unknown verb '\(typed)'"
    }

    func incompleteGroupMessage(_ words: [String]) -> String {
        let group = words.joined(separator: " ")
        return "'\(group)' needs one of: \(nextWords(after: words).joined(separator: ", "))"
    }
}
