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

    func unknownVerbMessage(_ words: [String]) -> String {
        let typed = words.joined(separator: " ")
        let parent = Array(words.dropLast())
        let siblings = paths.filter { $0.count == words.count && Array($0.prefix(parent.count)) == parent }
            .map { $0.joined(separator: " ") }
        if let nearest = Suggestion.nearest(to: typed, among: siblings) {
            return "unknown verb '\(typed)'. Did you mean '\(nearest)'?"
        }
        return "unknown verb '\(typed)'"
    }

    func incompleteGroupMessage(_ words: [String]) -> String {
        let group = words.joined(separator: " ")
        let children = paths.filter { $0.count > words.count && Array($0.prefix(words.count)) == words }
            .map { $0[words.count] }
        return "'\(group)' needs one of: \(children.joined(separator: ", "))"
    }
}
